// Row kernels keep the row on chip (passes/gpu/rows/RowOnChip.h): where the
// row fits a block's registers, the PTX reads each input element once and
// writes each result element once, and nothing else (the row's max, sums,
// exps and x - mean never reach global memory). Counted on the PTX by
// row-on-chip-ptx.mlir.py: the bytes of every ld.global / st.global (a
// vector access counts its width), times the block's threads (.maxntid),
// is what one block, one row, moves; no loop, so each access runs once.
//
// The rule, for a static row of C columns of an element of E bytes: V =
// 16 / E elements a vector (it divides C here), threads the least power of
// two from 32 with threads x 16 >= C; 1024 columns take 64 threads of 16.
// A row then loads C x E bytes of each input read along the row (x; the
// weight and the bias too: one element each a column of the row) and
// stores C x E bytes of the result:
//   softmax, log_softmax: x          1024 x E in, 1024 x E out
//   layer_norm:           x, w, b    3 x 1024 x E in
//   rms_norm:             x, w       2 x 1024 x E in
// With E = 4 (f32) and E = 2 (f16: the math in f32, the loads and stores
// f16).
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: %python %s.py %t.ptx | FileCheck %s
// CHECK: reduction_max_sub_exp_sum_div_0: 64 threads, a row loads 4096 bytes, stores 4096 bytes, loops 0
// CHECK: reduction_max_sub_exp_sum_log_sub_1: 64 threads, a row loads 4096 bytes, stores 4096 bytes, loops 0
// CHECK: reduction_mean_sub_mul_mean_add_rsqrt_mul_mul_etc_2: 64 threads, a row loads 12288 bytes, stores 4096 bytes, loops 0
// CHECK: reduction_mul_mean_add_rsqrt_mul_mul_3: 64 threads, a row loads 8192 bytes, stores 4096 bytes, loops 0
// CHECK: reduction_cast_max_sub_exp_sum_div_cast_4: 64 threads, a row loads 2048 bytes, stores 2048 bytes, loops 0
// CHECK: reduction_cast_max_sub_exp_sum_log_sub_cast_5: 64 threads, a row loads 2048 bytes, stores 2048 bytes, loops 0
// CHECK: reduction_cast_mean_sub_mul_mean_add_rsqrt_mul_etc_6: 64 threads, a row loads 6144 bytes, stores 2048 bytes, loops 0
// CHECK: reduction_cast_mul_mean_add_rsqrt_mul_mul_cast_7: 64 threads, a row loads 4096 bytes, stores 2048 bytes, loops 0
// CHECK-NOT: threads

func.func @softmax_f32(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
func.func @log_softmax_f32(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = kf.log_softmax %x dim -1 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
func.func @layer_norm_f32(%x: tensor<64x1024xf32>, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %y = kf.layer_norm %x weight %w : tensor<1024xf32> bias %b : tensor<1024xf32> normalized_shape [1024] eps 1.0e-5 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
func.func @rms_norm_f32(%x: tensor<64x1024xf32>, %w: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %y = kf.rms_norm %x weight %w : tensor<1024xf32> normalized_shape [1024] eps 1.0e-5 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
func.func @softmax_f16(%x: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  %y = kf.softmax %x dim -1 : tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
func.func @log_softmax_f16(%x: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  %y = kf.log_softmax %x dim -1 : tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
func.func @layer_norm_f16(%x: tensor<64x1024xf16>, %w: tensor<1024xf16>, %b: tensor<1024xf16>) -> tensor<64x1024xf16> {
  %y = kf.layer_norm %x weight %w : tensor<1024xf16> bias %b : tensor<1024xf16> normalized_shape [1024] eps 1.0e-5 : tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
func.func @rms_norm_f16(%x: tensor<64x1024xf16>, %w: tensor<1024xf16>) -> tensor<64x1024xf16> {
  %y = kf.rms_norm %x weight %w : tensor<1024xf16> normalized_shape [1024] eps 1.0e-5 : tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
