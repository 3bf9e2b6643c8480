// REQUIRES: torch
// bench/inductor_compare.py still runs: kfuse's counts beside torch.compile's
// for one zoo model (a count, not a timing). The zoo's MLP at batch 8, f32:
// x 8x32, W1 64x32, b1 64, h 8x64, W2 16x64, b2 16, y 8x16, in elements:
//   eager, 5 kernels: matmul 256+2048+512, add 512+64+512, relu 512+512,
//     matmul 512+1024+128, add 128+16+128 = 6864 elements = 27456 bytes;
//   kfuse, 2 kernels (each matmul with its epilogue): 256+2048+64+512 and
//     512+1024+16+128 = 4560 elements = 18240 bytes;
//   Inductor, 3 (two extern addmm and a relu kernel): 2880 + 1024 + 1680 =
//     5584 elements = 22336 bytes.
// RUN: %torch-python %kfuse_src/bench/inductor_compare.py --kfuse-opt %kfuse_obj/bin/kfuse-opt --json mlp 2>/dev/null | FileCheck %s

// CHECK:      "model": "mlp"
// CHECK-NEXT: "kfuse": {
// CHECK-NEXT:   "eager_kernels": 5,
// CHECK-NEXT:   "eager_bytes": 27456,
// CHECK-NEXT:   "kernels": 2,
// CHECK-NEXT:   "bytes": 18240
// CHECK:      "inductor": {
// CHECK-NEXT:   "kernels": 3,
// CHECK-NEXT:   "generated_kernel_count": 1,
// CHECK-NEXT:   "bytes": 22336,
// CHECK-NEXT:   "extern": 2
