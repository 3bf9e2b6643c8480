# Checks kernels.json's launches against sizes computed here from each
# mapping's rule, not from kfuse:
#   flat: 256 threads a block, 4 f32 (128 bits) a thread when every access is
#     contiguous: ceil(n / 1024) blocks;
#   row: a block a row, the row on chip (passes/gpu/rows/RowOnChip.h): a static
#     row of C columns is vectors of V elements (16 bytes' worth, halved
#     until V divides C), at most 16 elements a thread; threads = the least
#     power of two from 32 (a warp) to 1024 with threads x 16 >= C (512, the
#     looped form, when the row needs more). Shared memory 32 slots (a
#     warp's value) a reduction, none for one warp (its shuffles give
#     every lane the total);
#   matmul: a 16x16 block a 64x64 tile, grid (ceil(N/64), ceil(M/64),
#     batches); two tiles of 16 x 17 vectors of 4 f32 in shared memory;
#     FLOPs 2*M*N*K (times the batches);
#   row_chain: as row, and shared memory for the last-block flag (an i32);
#   grid_reduction: 256 threads, ceil(n / 1024) blocks up to 1024; 32 f32
#     partials and the last-block flag (an i32) in shared memory.
#   flat broadcasts: 4 consecutive elements a thread too (no vector
#     access): ceil(n / 1024) blocks of 256;
#   flat transposes: a 32 x 8 block a 32 x 32 tile of the output, grid the
#     number of tiles; shared memory a 32 x 33 f32 tile (padded a column).
# Every kernel of the file must record a static grid, block and shared
# memory (the program has no dynamic dims but mm_dyn's).
import json
import math
import sys

doc = json.load(open(sys.argv[1]))
assert doc["schema_version"] == 1, doc
kernels = {k["function"]: k for k in doc["kernels"]}


def cdiv(a, b):
    return -(-a // b)


def row_block(cols, element_bytes):
    v = 16 // element_bytes
    while v > 1 and cols % v:
        v //= 2
    threads = 32
    while threads < 1024 and threads * 16 < cols:
        threads *= 2
    per_thread = cdiv(cdiv(cols, v), threads) * v
    return threads if per_thread <= 16 else 512


def row_shared(threads, reductions, value_bytes):
    return 0 if threads == 32 else reductions * 32 * value_bytes


def expect(function, mapping, grid, block, shared, flops):
    k = kernels[function]
    got = (k["mapping"], k["launch"]["grid"], k["launch"]["block"],
           k["launch"]["shared_memory_bytes"], k["flops"])
    want = (mapping, grid, block, shared, flops)
    assert got == want, (function, got, want)
    print(f"{mapping} {k['name']}: grid {grid} block {block} shared {shared} flops {flops}")


# scale: add and mul, one FLOP each per element.
expect("scale", "flat", [cdiv(10000, 256 * 4), 1, 1], [256, 1, 1], 0, 2 * 10000)
# softmax: sub, sum's add and div per element (max and exp count no FLOP).
# 40 f32 columns: 10 vectors of 4, one warp (32 x 16 >= 40), no shared memory.
expect("rows", "row", [100, 1, 1], [row_block(40, 4), 1, 1], row_shared(row_block(40, 4), 2, 4),
       3 * 100 * 40)
MATMUL_SHARED = 2 * 16 * 17 * 4 * 4
expect("mm", "matmul", [cdiv(70, 64), cdiv(33, 64), 1], [16, 16, 1], MATMUL_SHARED,
       2 * 33 * 70 * 5)
expect("total", "grid_reduction", [min(cdiv(77777, 1024), 1024), 1, 1], [256, 1, 1],
       32 * 4 + 4, 77777)
expect("mm_dyn", "matmul", [cdiv(70, 64), "max(ceildiv(d0, 64), 1)", 1], [16, 16, 1],
       MATMUL_SHARED, f"{2 * 70 * 5}*d0")
# x.sum(1).sum(0) over 300x50: an add an element, then one a row.
# The rows: 50 f32 (vectors of 2), one warp; the last block's final sum
# keeps its 32 slots and the flag.
expect("chain", "row_chain", [300, 1, 1], [row_block(50, 4), 1, 1],
       row_shared(row_block(50, 4), 1, 4) + 32 * 4 + 4, 300 * 50 + 300)
# A batched matmul, 3 batches of 33x5 @ 5x70: grid z is the batch.
expect("bmm", "matmul", [cdiv(70, 64), cdiv(33, 64), 3], [16, 16, 1], MATMUL_SHARED,
       3 * 2 * 33 * 70 * 5)
# bias: one add an element.
expect("bias", "flat", [cdiv(1000 * 10, 256 * 4), 1, 1], [256, 1, 1], 0, 1000 * 10)
expect("transpose", "flat", [cdiv(50, 32) * cdiv(70, 32), 1, 1], [32, 8, 1], 32 * 33 * 4, 0)
for k in doc["kernels"]:
    launch = k["launch"]
    sizes = launch["grid"] + launch["block"]
    assert len(sizes) == 6, k
    assert k["function"] == "mm_dyn" or all(isinstance(v, int) and v > 0 for v in sizes), k
    assert isinstance(launch["shared_memory_bytes"], int), k
print("every kernel records its grid, block and shared memory")
print("all hand-computed launches match")
