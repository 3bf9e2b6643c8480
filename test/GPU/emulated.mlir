// The GPU mapping, executed: every kernel's gpu.launch runs as host loops
// over its blocks and threads, and each function's results must equal the
// CPU pipeline's, unfused. Lengths around the vector width (4) and the
// block (256 threads x 4 elements) exercise the vector path and the masked
// tail; broadcasts, 0-d operands, bools and several outputs take the
// element-by-element path.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline=block-size=32 %s
// RUN: %fusion-diff "--candidate=--kf-gpu-emulation-pipeline=fusion=off block-size=64" %s
// DIMS: 1027

func.func @len1(%a: tensor<1xf32>, %b: tensor<1xf32>) -> tensor<1xf32> {
  %0 = kf.add %a, %b : tensor<1xf32>, tensor<1xf32>
  %1 = kf.relu %0 : tensor<1xf32>
  return %1 : tensor<1xf32>
}
func.func @len4(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @len7(%a: tensor<7xf32>, %b: tensor<7xf32>) -> tensor<7xf32> {
  %0 = kf.mul %a, %b : tensor<7xf32>, tensor<7xf32>
  %1 = kf.sub %0, %a : tensor<7xf32>, tensor<7xf32>
  return %1 : tensor<7xf32>
}
// 1027 = 1024 + 3: one whole block of vectors, then a tail in the next.
func.func @dynamic_len(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
func.func @matrix_bias(%x: tensor<33x10xf32>, %b: tensor<10xf32>) -> tensor<33x10xf32> {
  %0 = kf.add %x, %b : tensor<33x10xf32>, tensor<10xf32>
  %1 = kf.tanh %0 : tensor<33x10xf32>
  return %1 : tensor<33x10xf32>
}
func.func @contiguous_2d(%x: tensor<9x7xf32>, %y: tensor<9x7xf32>) -> tensor<9x7xf32> {
  %0 = kf.maximum %x, %y : tensor<9x7xf32>, tensor<9x7xf32>
  %1 = kf.sigmoid %0 : tensor<9x7xf32>
  return %1 : tensor<9x7xf32>
}
func.func @scalar_operand(%x: tensor<13xf32>, %s: tensor<f32>) -> tensor<13xf32> {
  %0 = kf.div %x, %s : tensor<13xf32>, tensor<f32>
  return %0 : tensor<13xf32>
}
func.func @mixed_dtypes(%h: tensor<6xf16>, %i: tensor<6xi32>, %d: tensor<6xf64>) -> (tensor<6xf64>, tensor<6xi1>) {
  %0 = kf.mul %h, %i : tensor<6xf16>, tensor<6xi32>
  %1 = kf.add %0, %d : tensor<6xf16>, tensor<6xf64>
  %2 = kf.gt %1, %d : tensor<6xf64>, tensor<6xf64>
  return %1, %2 : tensor<6xf64>, tensor<6xi1>
}
func.func @two_outputs(%x: tensor<10xf32>, %y: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %t = kf.exp %x : tensor<10xf32>
  %a = kf.add %t, %y : tensor<10xf32>, tensor<10xf32>
  %b = kf.mul %t, %y : tensor<10xf32>, tensor<10xf32>
  return %a, %b : tensor<10xf32>, tensor<10xf32>
}
func.func @where_cast(%c: tensor<5x3xi1>, %x: tensor<5x3xf32>, %s: tensor<i64>) -> tensor<5x3xi32> {
  %0 = kf.where %c, %x, %s : tensor<5x3xi1>, tensor<5x3xf32>, tensor<i64>
  %1 = kf.cast %0 : tensor<5x3xf32> to i32
  return %1 : tensor<5x3xi32>
}
