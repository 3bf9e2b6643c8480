// Matmul kernels for test/Runtime/host-matmul.mlir: sizes that are not
// multiples of the host's 6x16 register tile or its 72x128x256 cache
// blocks, transposed operands, epilogues over (i, j), (j) and (i).
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = kf.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// Dynamic M, bias over (j), relu: the MLP's first layer.
func.func @linear_relu(%x: tensor<?x50xf32>, %w: tensor<50x23xf32>, %b: tensor<23xf32>) -> tensor<?x23xf32> {
  %h = kf.matmul %x, %w : tensor<?x50xf32>, tensor<50x23xf32>
  %y = kf.add %h, %b : tensor<?x23xf32>, tensor<23xf32>
  %r = kf.relu %y : tensor<?x23xf32>
  return %r : tensor<?x23xf32>
}
// a.t() @ b, a bias over (i) (a column), K over two panels of 256.
func.func @at_b_col(%a: tensor<300x20xf32>, %b: tensor<300x40xf32>, %c: tensor<20x1xf32>) -> tensor<20x40xf32> {
  %t = kf.transpose %a [1, 0] : tensor<300x20xf32>
  %h = kf.matmul %t, %b : tensor<20x300xf32>, tensor<300x40xf32>
  %y = kf.add %h, %c : tensor<20x40xf32>, tensor<20x1xf32>
  return %y : tensor<20x40xf32>
}
// x @ w.t() + b, then a residual (i, j) added after the relu; K over
// three panels, N over two blocks of 128, M over two blocks of 72.
func.func @x_wt_residual(%x: tensor<77x600xf32>, %w: tensor<133x600xf32>, %b: tensor<133xf32>,
                         %r: tensor<77x133xf32>) -> tensor<77x133xf32> {
  %t = kf.transpose %w [1, 0] : tensor<133x600xf32>
  %h = kf.matmul %x, %t : tensor<77x600xf32>, tensor<600x133xf32>
  %y = kf.add %h, %b : tensor<77x133xf32>, tensor<133xf32>
  %a = kf.relu %y : tensor<77x133xf32>
  %z = kf.add %a, %r : tensor<77x133xf32>, tensor<77x133xf32>
  return %z : tensor<77x133xf32>
}
// Both the matmul's result and the epilogue's are returned: both stored.
func.func @both(%a: tensor<9x17xf32>, %b: tensor<17x19xf32>) -> (tensor<9x19xf32>, tensor<9x19xf32>) {
  %h = kf.matmul %a, %b : tensor<9x17xf32>, tensor<17x19xf32>
  %t = kf.tanh %h : tensor<9x19xf32>
  return %h, %t : tensor<9x19xf32>, tensor<9x19xf32>
}
// A residual read transposed (j, i): not a row vector, so the epilogue
// runs element by element over the stored tile.
func.func @residual_t(%a: tensor<21x10xf32>, %b: tensor<10x21xf32>, %r: tensor<21x21xf32>) -> tensor<21x21xf32> {
  %h = kf.matmul %a, %b : tensor<21x10xf32>, tensor<10x21xf32>
  %rt = kf.transpose %r [1, 0] : tensor<21x21xf32>
  %y = kf.add %h, %rt : tensor<21x21xf32>, tensor<21x21xf32>
  return %y : tensor<21x21xf32>
}
// f16 and i32: the simple per-element mapping.
func.func @half(%a: tensor<17x20xf16>, %b: tensor<20x9xf16>) -> tensor<17x9xf16> {
  %0 = kf.matmul %a, %b : tensor<17x20xf16>, tensor<20x9xf16>
  return %0 : tensor<17x9xf16>
}
func.func @int(%a: tensor<7x13xi32>, %b: tensor<13x5xi32>, %c: tensor<5xi32>) -> tensor<7x5xi32> {
  %h = kf.matmul %a, %b : tensor<7x13xi32>, tensor<13x5xi32>
  %y = kf.add %h, %c : tensor<7x5xi32>, tensor<5xi32>
  return %y : tensor<7x5xi32>
}
// bf16 operands, a bf16 result (the epilogue's truncf on vectors).
func.func @brain(%a: tensor<33x70xbf16>, %b: tensor<70x21xbf16>) -> tensor<33x21xbf16> {
  %0 = kf.matmul %a, %b : tensor<33x70xbf16>, tensor<70x21xbf16>
  return %0 : tensor<33x21xbf16>
}
// f16 with a transposed A (read in place, widened as it is read).
func.func @half_at(%a: tensor<20x17xf16>, %b: tensor<20x9xf16>) -> tensor<17x9xf16> {
  %t = kf.transpose %a [1, 0] : tensor<20x17xf16>
  %0 = kf.matmul %t, %b : tensor<17x20xf16>, tensor<20x9xf16>
  return %0 : tensor<17x9xf16>
}
// Batched (grid z over the batch indices, 2-D subviews of A and B):
// attention's scores, k read transposed in place, the scale and a bias over
// (j) as the epilogue; two batch dims, dynamic rows and columns.
func.func @scores(%q: tensor<2x3x?x40xf32>, %k: tensor<2x3x?x40xf32>, %bias: tensor<?xf32>) -> tensor<2x3x?x?xf32> {
  %kt = kf.transpose %k [0, 1, 3, 2] : tensor<2x3x?x40xf32>
  %s = kf.matmul %q, %kt : tensor<2x3x?x40xf32>, tensor<2x3x40x?xf32>
  %c = kf.constant dense<0.125> : tensor<f32>
  %m = kf.mul %s, %c : tensor<2x3x?x?xf32>, tensor<f32>
  %y = kf.add %m, %bias : tensor<2x3x?x?xf32>, tensor<?xf32>
  return %y : tensor<2x3x?x?xf32>
}
// A weight broadcast over the batch (rank 2), and a batch dim of size 1
// broadcast against 3; a dynamic batch (0 included).
func.func @batch_weight(%x: tensor<4x?x300xf32>, %w: tensor<300x30xf32>) -> tensor<4x?x30xf32> {
  %0 = kf.matmul %x, %w : tensor<4x?x300xf32>, tensor<300x30xf32>
  return %0 : tensor<4x?x30xf32>
}
func.func @batch_one(%a: tensor<1x5x7xf32>, %b: tensor<3x7x9xf32>) -> tensor<3x5x9xf32> {
  %0 = kf.matmul %a, %b : tensor<1x5x7xf32>, tensor<3x7x9xf32>
  return %0 : tensor<3x5x9xf32>
}
func.func @batch_dynamic(%a: tensor<?x6x7xf32>, %b: tensor<?x7x17xf32>) -> tensor<?x6x17xf32> {
  %0 = kf.matmul %a, %b : tensor<?x6x7xf32>, tensor<?x7x17xf32>
  return %0 : tensor<?x6x17xf32>
}
// f16 batched, A read transposed in place, an f16 result.
func.func @batch_half(%a: tensor<2x20x17xf16>, %b: tensor<2x20x9xf16>) -> tensor<2x17x9xf16> {
  %t = kf.transpose %a [0, 2, 1] : tensor<2x20x17xf16>
  %0 = kf.matmul %t, %b : tensor<2x17x20xf16>, tensor<2x20x9xf16>
  return %0 : tensor<2x17x9xf16>
}
// A bool mask in the epilogue (attention's causal mask): an i1 buffer is
// read element by element (a vector<8xi1> load would read bits), also
// batched with the mask broadcast over the batch.
func.func @masked(%a: tensor<9x17xf32>, %b: tensor<17x19xf32>, %m: tensor<9x19xi1>) -> tensor<9x19xf32> {
  %h = kf.matmul %a, %b : tensor<9x17xf32>, tensor<17x19xf32>
  %z = kf.constant dense<-1.0> : tensor<f32>
  %y = kf.where %m, %h, %z : tensor<9x19xi1>, tensor<9x19xf32>, tensor<f32>
  return %y : tensor<9x19xf32>
}
func.func @batch_masked(%a: tensor<3x9x17xf32>, %b: tensor<3x17x19xf32>, %m: tensor<9x19xi1>) -> tensor<3x9x19xf32> {
  %h = kf.matmul %a, %b : tensor<3x9x17xf32>, tensor<3x17x19xf32>
  %z = kf.constant dense<-1.0> : tensor<f32>
  %y = kf.where %m, %h, %z : tensor<9x19xi1>, tensor<3x9x19xf32>, tensor<f32>
  return %y : tensor<3x9x19xf32>
}
// A constant bool mask (a causal band: key j of query i kept for j <=
// i + 10), as kfuse-import folds torch's: read by the vector epilogue as
// the bytes of a companion i8 global.
func.func @batch_causal(%a: tensor<3x9x17xf32>, %b: tensor<3x17x19xf32>) -> tensor<3x9x19xf32> {
  %h = kf.matmul %a, %b : tensor<3x9x17xf32>, tensor<3x17x19xf32>
  %m = kf.constant dense<[[true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]> : tensor<9x19xi1>
  %z = kf.constant dense<-1.0> : tensor<f32>
  %y = kf.where %m, %h, %z : tensor<9x19xi1>, tensor<3x9x19xf32>, tensor<f32>
  return %y : tensor<3x9x19xf32>
}
// x @ w.t() with w [n, k] packed through registers (8 x 8 squares, a
// scalar tail of K % 8) into blocks chosen at launch: dynamic M and N,
// so the run's sizes pick narrow or short blocks (HostMatmulPanels.cpp).
func.func @x_wt_dyn(%x: tensor<?x37xf32>, %w: tensor<?x37xf32>) -> tensor<?x?xf32> {
  %t = kf.transpose %w [1, 0] : tensor<?x37xf32>
  %h = kf.matmul %x, %t : tensor<?x37xf32>, tensor<37x?xf32>
  return %h : tensor<?x?xf32>
}
// The same with bf16 weights (widened as they are packed) and a relu.
func.func @x_wt_brain(%x: tensor<?x37xbf16>, %w: tensor<45x37xbf16>) -> tensor<?x45xbf16> {
  %t = kf.transpose %w [1, 0] : tensor<45x37xbf16>
  %h = kf.matmul %x, %t : tensor<?x37xbf16>, tensor<37x45xbf16>
  %y = kf.relu %h : tensor<?x45xbf16>
  return %y : tensor<?x45xbf16>
}
