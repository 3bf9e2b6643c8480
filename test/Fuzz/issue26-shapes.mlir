// Random programs with issue 26's reduction shapes added to the draw
// (kf_fuzz.py --kinds multi_reduction,permuted_rows: kf_gen.py's
// op_multi_reduction, reductions of one value over its trailing and its
// leading dims with elementwise ops after them, and op_permuted_rows, a
// row reduction's values read at a permuted place; the default draw, and
// every other seed's programs, are unchanged). Fused against unfused on
// the CPU and through the emulated GPU mappings, and the mapping
// invariant (every kernel formed is one a GPU mapping serves).
// RUN: %kf-fuzz --kinds multi_reduction,permuted_rows --seed 261 --count 30 | FileCheck %s --check-prefix=CPU
// CPU: kf-fuzz: 30 passed, 0 failed (seed 261; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds multi_reduction,permuted_rows --candidate=--kf-gpu-emulation-pipeline --seed 262 --count 20 | FileCheck %s --check-prefix=EMU
// EMU: kf-fuzz: 20 passed, 0 failed (seed 262; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds multi_reduction,permuted_rows --check-mapped --batch 50 --seed 263 --count 500 | FileCheck %s --check-prefix=MAPPED
// MAPPED: kf-fuzz: 500 programs: 500 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; {{.*}} (seed 263)
// Item 5's summed matmuls (op_matmul_chain: a @ b + c @ d, sometimes a
// third product, sometimes an elementwise op after): fused against
// unfused on the CPU and through the emulated GPU mappings.
// RUN: %kf-fuzz --kinds matmul_chain --seed 411 --count 20 | FileCheck %s --check-prefix=CHAIN
// CHAIN: kf-fuzz: 20 passed, 0 failed (seed 411; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds matmul_chain --candidate=--kf-gpu-emulation-pipeline --seed 412 --count 15 | FileCheck %s --check-prefix=CHAIN-EMU
// CHAIN-EMU: kf-fuzz: 15 passed, 0 failed (seed 412; {{[0-9]+}} with dynamic dims)
// The transposed-epilogue rule's shapes (op_transposed_epilogue: a row
// reduction's rows x columns read transposed after it, or a transposed
// op of its input beside it): on the CPU, through the emulated GPU
// mappings, through kfuse-run's host kernels (the staged transposed
// stores) and the mapping invariant. Seed 503 found a kernel whose
// result the canonicalizer cast to a dynamic shape, copied back in
// the result's own order (Regression/transposed-result-cast.mlir).
// RUN: %kf-fuzz --kinds transposed_epilogue --seed 502 --count 30 | FileCheck %s --check-prefix=TRANSPOSED
// TRANSPOSED: kf-fuzz: 30 passed, 0 failed (seed 502; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds transposed_epilogue --candidate=--kf-gpu-emulation-pipeline --seed 503 --count 40 | FileCheck %s --check-prefix=TRANSPOSED-EMU
// TRANSPOSED-EMU: kf-fuzz: 40 passed, 0 failed (seed 503; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz-run --kinds transposed_epilogue --seed 504 --count 12 | FileCheck %s --check-prefix=TRANSPOSED-HOST
// TRANSPOSED-HOST: kf-fuzz: 12 passed (0 on the GPU, 12 on the CPU), 0 failed (seed 504; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds transposed_epilogue,permuted_rows --check-mapped --batch 50 --seed 505 --count 200 | FileCheck %s --check-prefix=TRANSPOSED-MAPPED
// TRANSPOSED-MAPPED: kf-fuzz: 200 programs: 200 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; {{.*}} (seed 505)
// Small reductions a row reduction reads in place (op_neighbour_distance:
// pairs' distances summed or maxed over up to 8 coordinates, then a
// reduction or a softmax over the others): the sums unrolled into the
// row kernel, on the CPU, through the emulated GPU mappings, through
// kfuse-run's host kernels (the gathered columns) and the mapping
// invariant.
// RUN: %kf-fuzz --kinds neighbour_distance --seed 641 --count 30 | FileCheck %s --check-prefix=DISTANCE
// DISTANCE: kf-fuzz: 30 passed, 0 failed (seed 641; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds neighbour_distance --candidate=--kf-gpu-emulation-pipeline --seed 642 --count 30 | FileCheck %s --check-prefix=DISTANCE-EMU
// DISTANCE-EMU: kf-fuzz: 30 passed, 0 failed (seed 642; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz-run --kinds neighbour_distance --seed 645 --count 12 | FileCheck %s --check-prefix=DISTANCE-HOST
// DISTANCE-HOST: kf-fuzz: 12 passed (0 on the GPU, 12 on the CPU), 0 failed (seed 645; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds neighbour_distance,transposed_epilogue,permuted_rows --check-mapped --batch 50 --seed 644 --count 200 | FileCheck %s --check-prefix=DISTANCE-MAPPED
// DISTANCE-MAPPED: kf-fuzz: 200 programs: 200 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; {{.*}} (seed 644)
// An unknown kind is refused:
// RUN: not %kf-fuzz --kinds multi_reduction,bogus --seed 1 --count 1 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --kinds: unknown kind 'bogus' (known: multi_reduction, permuted_rows, matmul_chain, transposed_epilogue, neighbour_distance, cumsum)
