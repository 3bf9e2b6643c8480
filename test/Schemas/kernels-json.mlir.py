# Checks kernels.json's launches against sizes computed here from each
# mapping's rule, not from kfuse:
#   flat: 256 threads a block, 4 f32 (128 bits) a thread when every access is
#     contiguous: ceil(n / 1024) blocks;
#   row: a block a row; threads = the columns rounded up to a warp (32), at
#     most 256; shared memory 2 x 32 f32 (a warp's partials for the max and
#     the sum);
#   matmul: a 16x16 block a 16x16 tile, grid (ceil(N/16), ceil(M/16)); two
#     16x16 f32 tiles of shared memory; FLOPs 2*M*N*K;
#   row_chain: as row, and shared memory for the last-block flag (an i32);
#   grid_reduction: 256 threads, ceil(n / 1024) blocks up to 1024; 32 f32
#     partials and the last-block flag (an i32) in shared memory.
import json
import math
import sys

doc = json.load(open(sys.argv[1]))
assert doc["schema_version"] == 1, doc
kernels = {k["function"]: k for k in doc["kernels"]}


def cdiv(a, b):
    return -(-a // b)


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
expect("rows", "row", [100, 1, 1], [min(32 * cdiv(40, 32), 256), 1, 1], 2 * 32 * 4,
       3 * 100 * 40)
expect("mm", "matmul", [cdiv(70, 16), cdiv(33, 16), 1], [16, 16, 1], 2 * 16 * 16 * 4,
       2 * 33 * 70 * 5)
expect("total", "grid_reduction", [min(cdiv(77777, 1024), 1024), 1, 1], [256, 1, 1],
       32 * 4 + 4, 77777)
expect("mm_dyn", "matmul", [cdiv(70, 16), "max(ceildiv(d0, 16), 1)", 1], [16, 16, 1],
       2 * 16 * 16 * 4, f"{2 * 70 * 5}*d0")
# x.sum(1).sum(0) over 300x50: an add an element, then one a row.
expect("chain", "row_chain", [300, 1, 1], [min(32 * cdiv(50, 32), 256), 1, 1],
       2 * 32 * 4 + 4, 300 * 50 + 300)
print("all hand-computed launches match")
