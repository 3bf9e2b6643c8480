// Cat kernels for host-cat.mlir (each a kernel of one kf.cat).
// Three inputs along a middle dim (sizes 3, 4, 1).
func.func @middle(%x: tensor<2x3x5xf32>, %y: tensor<2x4x5xf32>, %z: tensor<2x1x5xf32>) -> tensor<2x8x5xf32> {
  %c = kf.cat %x, %y, %z dim 1 : tensor<2x3x5xf32>, tensor<2x4x5xf32>, tensor<2x1x5xf32>
  return %c : tensor<2x8x5xf32>
}
// Along the last dim, widths 3, 19 and 1 (vectors of 8 and tails), a dynamic
// row count, i32 elements.
func.func @last(%x: tensor<?x3xi32>, %y: tensor<?x19xi32>, %z: tensor<?x1xi32>) -> tensor<?x23xi32> {
  %c = kf.cat %x, %y, %z dim 1 : tensor<?x3xi32>, tensor<?x19xi32>, tensor<?x1xi32>
  return %c : tensor<?x23xi32>
}
// Windows of stride 2 (strided views: copied element by element), joined
// as an im2col matrix would be.
func.func @windows(%x: tensor<3x10x10xf32>) -> tensor<3x2x5x5xf32> {
  %a = kf.slice %x starts [0, 0, 0] ends [3, 10, 10] steps [1, 2, 2] : tensor<3x10x10xf32>
  %b = kf.slice %x starts [0, 1, 1] ends [3, 10, 10] steps [1, 2, 2] : tensor<3x10x10xf32>
  %ra = kf.reshape %a [3, 1, 5, 5] : tensor<3x5x5xf32>
  %rb = kf.reshape %b [3, 1, 5, 5] : tensor<3x5x5xf32>
  %c = kf.cat %ra, %rb dim 1 : tensor<3x1x5x5xf32>, tensor<3x1x5x5xf32>
  return %c : tensor<3x2x5x5xf32>
}
// An exp after the cat fuses into it: not a plain cat, the flat mapping.
func.func @cat_exp(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %c = kf.cat %x, %y dim 1 : tensor<4x3xf32>, tensor<4x5xf32>
  %e = kf.exp %c : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// Pads: zeros on two dims (two cats, fused), and 1.5 on the last dim only
// (one cat whose constant inputs are folded into its body).
func.func @pad2(%x: tensor<2x3x6x11xf32>) -> tensor<2x3x8x15xf32> {
  %e = kf.constant dense<0.0> : tensor<2x3x1x11xf32>
  %p = kf.cat %e, %x, %e dim 2 : tensor<2x3x1x11xf32>, tensor<2x3x6x11xf32>, tensor<2x3x1x11xf32>
  %e1 = kf.constant dense<0.0> : tensor<2x3x8x2xf32>
  %p1 = kf.cat %e1, %p, %e1 dim 3 : tensor<2x3x8x2xf32>, tensor<2x3x8x11xf32>, tensor<2x3x8x2xf32>
  return %p1 : tensor<2x3x8x15xf32>
}
func.func @pad_last(%x: tensor<5x9xf32>) -> tensor<5x21xf32> {
  %l = kf.constant dense<1.5> : tensor<5x3xf32>
  %r = kf.constant dense<1.5> : tensor<5x9xf32>
  %p = kf.cat %l, %x, %r dim 1 : tensor<5x3xf32>, tensor<5x9xf32>, tensor<5x9xf32>
  return %p : tensor<5x21xf32>
}
// An i32 pad with a long right side (70: a loop of vector stores).
func.func @pad_i32(%x: tensor<3x40xi32>) -> tensor<3x120xi32> {
  %l = kf.constant dense<7> : tensor<3x10xi32>
  %r = kf.constant dense<7> : tensor<3x70xi32>
  %p = kf.cat %l, %x, %r dim 1 : tensor<3x10xi32>, tensor<3x40xi32>, tensor<3x70xi32>
  return %p : tensor<3x120xi32>
}

// ConvNeXt's: an NHWC result permuted to NCHW and padded by 2 on H and W
// (the permute fuses into the pad's kernel).
func.func @pad_nchw(%x: tensor<2x5x7x3xf32>) -> tensor<2x3x9x11xf32> {
  %t = kf.transpose %x [0, 3, 1, 2] : tensor<2x5x7x3xf32>
  %e = kf.constant dense<0.0> : tensor<2x3x2x7xf32>
  %p = kf.cat %e, %t, %e dim 2 : tensor<2x3x2x7xf32>, tensor<2x3x5x7xf32>, tensor<2x3x2x7xf32>
  %e1 = kf.constant dense<0.0> : tensor<2x3x9x2xf32>
  %p1 = kf.cat %e1, %p, %e1 dim 3 : tensor<2x3x9x2xf32>, tensor<2x3x9x7xf32>, tensor<2x3x9x2xf32>
  return %p1 : tensor<2x3x9x11xf32>
}

// ResNet's: a batch norm's scale and shift and a ReLU, then a pad of 1 on H
// and W (fused: the pad of a computed value).
func.func @bn_relu_pad(%x: tensor<2x3x5x10xf32>, %s: tensor<3x1x1xf32>, %t: tensor<3x1x1xf32>) -> tensor<2x3x7x12xf32> {
  %m = kf.mul %x, %s : tensor<2x3x5x10xf32>, tensor<3x1x1xf32>
  %a = kf.add %m, %t : tensor<2x3x5x10xf32>, tensor<3x1x1xf32>
  %r = kf.relu %a : tensor<2x3x5x10xf32>
  %e = kf.constant dense<0.0> : tensor<2x3x1x10xf32>
  %p = kf.cat %e, %r, %e dim 2 : tensor<2x3x1x10xf32>, tensor<2x3x5x10xf32>, tensor<2x3x1x10xf32>
  %e1 = kf.constant dense<0.0> : tensor<2x3x7x1xf32>
  %p1 = kf.cat %e1, %p, %e1 dim 3 : tensor<2x3x7x1xf32>, tensor<2x3x7x10xf32>, tensor<2x3x7x1xf32>
  return %p1 : tensor<2x3x7x12xf32>
}
