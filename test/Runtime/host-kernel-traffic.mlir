// On the CPU, kfuse-run reports the kernels the host runs, which the host
// forms itself: it takes layer_norm's moments in f64 (x cast to f64, the
// means and the rsqrt in f64, the result cast back), so its kernels have
// other ops and names than the GPU's that the manifest had only listed;
// every eager row read "?" for its bytes, and the fused one too. The
// manifest now carries the host's kernels (each version's "host").
//
// Bytes by hand, x f32[64, 256] (65,536 B; 131,072 B in f64):
//   fused, x in and the softmax out: 2 x 65,536 = 131.07 kB;
//   cast_0, x in (f32) and x in f64 out: 65,536 + 131,072 = 196.61 kB;
//   mean_1, x in f64 in, 64 means out: 131,072 + 512 = 131.58 kB;
//   rsqrt_6, 64 f64 in and out: 512 + 512 = 1.02 kB;
//   max_10, the f32 result in, 64 maxima out: 65,536 + 256 = 65.79 kB.
// RUN: kfuse-run %s --device=cpu --warmup=0 --repeat=1 | FileCheck %s --check-prefix=FUSED
// FUSED: kernels {{ *}}15 {{ *}}1
// FUSED: reduction_cast_mean_sub_mul_mean_add_rsqrt_mul_etc_0 {{ *}}1 {{.*}} 131.07 kB
// RUN: kfuse-run %s --device=cpu --fusion=off --warmup=0 --repeat=1 | FileCheck %s --check-prefix=EAGER
// EAGER-NOT: ?
// EAGER-DAG: pointwise_cast_0 {{ *}}1 {{.*}} 196.61 kB
// EAGER-DAG: reduction_mean_1 {{ *}}1 {{.*}} 131.58 kB
// EAGER-DAG: pointwise_rsqrt_6 {{ *}}1 {{.*}} 1.02 kB
// EAGER-DAG: reduction_max_10 {{ *}}1 {{.*}} 65.79 kB
// The GPU's kernels (the manifest's first list) are what a CUDA run
// reports: 13 eager kernels, no casts (the fake driver stands in).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --device=cuda --warmup=0 --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=CUDA
// CUDA: kernels {{ *}}13 {{ *}}1
func.func @ln(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = kf.layer_norm %x normalized_shape [256] eps 1.0e-5 : tensor<64x256xf32>
  %z = kf.relu %y : tensor<64x256xf32>
  %s = kf.softmax %z dim 1 : tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}
