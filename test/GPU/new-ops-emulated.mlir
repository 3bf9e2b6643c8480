// The ops of issue 12 through the GPU mappings, executed as host loops
// (kf-emulate-gpu-launches): each function's results must equal the CPU
// pipeline's, unfused. The math functions (exp2, log1p, expm1, erf,
// floor, ceil, round half to even) and remainder/floor_divide run in flat
// kernels, var/std/rms_norm/argmax/argmin over the last dim in row kernels,
// batch_norm in one flat kernel with broadcast parameters, cat in a flat
// kernel that picks each element's input. Inputs are steps of 0.25 in
// [-4, 4) (many ties for argmax, halves for round) and ints in [-5, 5]
// (divisors of 0 included).
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline=block-size=32 %s
// RUN: %fusion-diff "--candidate=--kf-gpu-emulation-pipeline=fusion=off block-size=64" %s
// DIMS: 5

func.func @math(%x: tensor<33x10xf32>) -> (tensor<33x10xf32>, tensor<33x10xf32>) {
  %0 = kf.exp2 %x : tensor<33x10xf32>
  %1 = kf.expm1 %x : tensor<33x10xf32>
  %2 = kf.add %0, %1 : tensor<33x10xf32>, tensor<33x10xf32>
  %3 = kf.log1p %x : tensor<33x10xf32>
  %4 = kf.erf %x : tensor<33x10xf32>
  %5 = kf.mul %3, %4 : tensor<33x10xf32>, tensor<33x10xf32>
  return %2, %5 : tensor<33x10xf32>, tensor<33x10xf32>
}
// 1027 elements: the vector path and the masked tail.
func.func @rounding(%x: tensor<1027xf32>, %h: tensor<1027xf16>) -> (tensor<1027xf32>, tensor<1027xf16>) {
  %0 = kf.floor %x : tensor<1027xf32>
  %1 = kf.ceil %x : tensor<1027xf32>
  %2 = kf.round %x : tensor<1027xf32>
  %3 = kf.add %0, %1 : tensor<1027xf32>, tensor<1027xf32>
  %4 = kf.sub %3, %2 : tensor<1027xf32>, tensor<1027xf32>
  %5 = kf.round %h : tensor<1027xf16>
  return %4, %5 : tensor<1027xf32>, tensor<1027xf16>
}
func.func @clamp(%x: tensor<?xf32>, %i: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) {
  %0 = kf.clamp %x min(-1) max(2.5) : tensor<?xf32>
  %1 = kf.clamp %i min(-2) max(3) : tensor<?xi32>
  %2 = kf.clamp %i max(0.5) : tensor<?xi32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
}
func.func @int_division(%a: tensor<9x7xi32>, %b: tensor<7xi64>) -> (tensor<9x7xi64>, tensor<9x7xi64>) {
  %0 = kf.remainder %a, %b : tensor<9x7xi32>, tensor<7xi64>
  %1 = kf.floor_divide %a, %b : tensor<9x7xi32>, tensor<7xi64>
  return %0, %1 : tensor<9x7xi64>, tensor<9x7xi64>
}
func.func @float_division(%a: tensor<9x7xf32>, %b: tensor<9x7xf32>, %s: tensor<f64>, %h: tensor<9x7xbf16>) -> (tensor<9x7xf32>, tensor<9x7xf32>, tensor<9x7xbf16>) {
  %0 = kf.remainder %a, %b : tensor<9x7xf32>, tensor<9x7xf32>
  %1 = kf.floor_divide %a, %s : tensor<9x7xf32>, tensor<f64>
  %2 = kf.floor_divide %h, %s : tensor<9x7xbf16>, tensor<f64>
  return %0, %1, %2 : tensor<9x7xf32>, tensor<9x7xf32>, tensor<9x7xbf16>
}
func.func @moments(%x: tensor<6x37xf32>) -> (tensor<6xf32>, tensor<6x1xf32>) {
  %0 = kf.var %x dims [1] : tensor<6x37xf32>
  %1 = kf.std %x dims [-1] correction 0 keepdim : tensor<6x37xf32>
  return %0, %1 : tensor<6xf32>, tensor<6x1xf32>
}
func.func @moments_dynamic_rows(%x: tensor<?x40xf16>) -> tensor<?xf16> {
  %0 = kf.std %x dims [1] : tensor<?x40xf16>
  return %0 : tensor<?xf16>
}
// A dynamic reduced dim: n - correction is computed at run time (a 0-d
// tensor the kernel reads).
func.func @var_dynamic_columns(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  %0 = kf.var %x dims [1] : tensor<4x?xf32>
  return %0 : tensor<4xf32>
}
func.func @rms_norm(%x: tensor<5x64xf32>, %w: tensor<64xf32>) -> tensor<5x64xf32> {
  %0 = kf.rms_norm %x weight %w : tensor<64xf32> normalized_shape [64] : tensor<5x64xf32>
  return %0 : tensor<5x64xf32>
}
func.func @batch_norm(%x: tensor<2x3x5x4xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %w: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x5x4xf32> {
  %vp = kf.abs %v : tensor<3xf32>
  %0 = kf.batch_norm %x, %m, %vp weight %w : tensor<3xf32> bias %b : tensor<3xf32> : tensor<2x3x5x4xf32>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<2x3x5x4xf32>
}
// One arg op a function: argmax over f32 rows (the NaN test included), argmin
// with keepdim, argmax of ints.
func.func @argmax_rows(%x: tensor<7x45xf32>) -> tensor<7xi64> {
  %0 = kf.argmax %x dim 1 : tensor<7x45xf32>
  return %0 : tensor<7xi64>
}
func.func @argmin_rows(%x: tensor<7x45xf32>) -> tensor<7x1xi64> {
  %0 = kf.argmin %x dim -1 keepdim : tensor<7x45xf32>
  return %0 : tensor<7x1xi64>
}
func.func @argmax_ints(%i: tensor<7x9xi32>) -> tensor<7xi64> {
  %0 = kf.argmax %i dim 1 : tensor<7x9xi32>
  return %0 : tensor<7xi64>
}
func.func @cat(%a: tensor<2x?xf32>, %b: tensor<3x?xi32>, %c: tensor<4x3xf32>) -> (tensor<5x?xf32>, tensor<4x9xf32>) {
  %0 = kf.cat %a, %b dim 0 : tensor<2x?xf32>, tensor<3x?xi32>
  %e = kf.exp %c : tensor<4x3xf32>
  %1 = kf.cat %c, %e, %c dim 1 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
  return %0, %1 : tensor<5x?xf32>, tensor<4x9xf32>
}
// A producer of cat that is also returned: cat reads it at other elements
// (through its offset map), so it cannot be recomputed in cat's kernel.
func.func @cat_returned_producer(%c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<8x3xf32>) {
  %e = kf.tanh %c : tensor<4x3xf32>
  %0 = kf.cat %e, %c dim 0 : tensor<4x3xf32>, tensor<4x3xf32>
  %1 = kf.neg %0 : tensor<8x3xf32>
  return %e, %1 : tensor<4x3xf32>, tensor<8x3xf32>
}
