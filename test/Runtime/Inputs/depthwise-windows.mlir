// A 3 x 3 depthwise convolution as kfuse-import writes one (ops_conv.py):
// the input padded by kf.cat of zeros, then a window (kf.slice) of the
// padded input times a tap of the weights for each kernel position, summed.
// host-pointwise-windows.mlir checks it against numpy.
func.func @depthwise(%x: tensor<2x4x6x11xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x6x11xf32> {
  %e = kf.constant dense<0.0> : tensor<2x4x1x11xf32>
  %p = kf.cat %e, %x, %e dim 2 : tensor<2x4x1x11xf32>, tensor<2x4x6x11xf32>, tensor<2x4x1x11xf32>
  %e1 = kf.constant dense<0.0> : tensor<2x4x8x1xf32>
  %p1 = kf.cat %e1, %p, %e1 dim 3 : tensor<2x4x8x1xf32>, tensor<2x4x8x11xf32>, tensor<2x4x8x1xf32>
  %win0 = kf.slice %p1 starts [0, 0, 0, 0] ends [9223372036854775807, 9223372036854775807, 6, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap0 = kf.slice %w starts [0, 0, 0] ends [9223372036854775807, 1, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t0 = kf.mul %win0, %tap0 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %win1 = kf.slice %p1 starts [0, 0, 0, 1] ends [9223372036854775807, 9223372036854775807, 6, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap1 = kf.slice %w starts [0, 0, 1] ends [9223372036854775807, 1, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t1 = kf.mul %win1, %tap1 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s1 = kf.add %t0, %t1 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win2 = kf.slice %p1 starts [0, 0, 0, 2] ends [9223372036854775807, 9223372036854775807, 6, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap2 = kf.slice %w starts [0, 0, 2] ends [9223372036854775807, 1, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t2 = kf.mul %win2, %tap2 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s2 = kf.add %s1, %t2 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win3 = kf.slice %p1 starts [0, 0, 1, 0] ends [9223372036854775807, 9223372036854775807, 7, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap3 = kf.slice %w starts [0, 1, 0] ends [9223372036854775807, 2, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t3 = kf.mul %win3, %tap3 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s3 = kf.add %s2, %t3 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win4 = kf.slice %p1 starts [0, 0, 1, 1] ends [9223372036854775807, 9223372036854775807, 7, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap4 = kf.slice %w starts [0, 1, 1] ends [9223372036854775807, 2, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t4 = kf.mul %win4, %tap4 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s4 = kf.add %s3, %t4 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win5 = kf.slice %p1 starts [0, 0, 1, 2] ends [9223372036854775807, 9223372036854775807, 7, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap5 = kf.slice %w starts [0, 1, 2] ends [9223372036854775807, 2, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t5 = kf.mul %win5, %tap5 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s5 = kf.add %s4, %t5 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win6 = kf.slice %p1 starts [0, 0, 2, 0] ends [9223372036854775807, 9223372036854775807, 8, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap6 = kf.slice %w starts [0, 2, 0] ends [9223372036854775807, 3, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t6 = kf.mul %win6, %tap6 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s6 = kf.add %s5, %t6 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win7 = kf.slice %p1 starts [0, 0, 2, 1] ends [9223372036854775807, 9223372036854775807, 8, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap7 = kf.slice %w starts [0, 2, 1] ends [9223372036854775807, 3, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t7 = kf.mul %win7, %tap7 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s7 = kf.add %s6, %t7 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win8 = kf.slice %p1 starts [0, 0, 2, 2] ends [9223372036854775807, 9223372036854775807, 8, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap8 = kf.slice %w starts [0, 2, 2] ends [9223372036854775807, 3, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t8 = kf.mul %win8, %tap8 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s8 = kf.add %s7, %t8 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  return %s8 : tensor<2x4x6x11xf32>
}

// The same, its result permuted to NHWC (ConvNeXt's block: the depthwise
// convolution in NCHW, then x.permute(0, 2, 3, 1) for its norm and MLP):
// fused, the kernel reads the windows along W and writes along C.
func.func @depthwise_nhwc(%x: tensor<2x4x6x11xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x6x11x4xf32> {
  %e = kf.constant dense<0.0> : tensor<2x4x1x11xf32>
  %p = kf.cat %e, %x, %e dim 2 : tensor<2x4x1x11xf32>, tensor<2x4x6x11xf32>, tensor<2x4x1x11xf32>
  %e1 = kf.constant dense<0.0> : tensor<2x4x8x1xf32>
  %p1 = kf.cat %e1, %p, %e1 dim 3 : tensor<2x4x8x1xf32>, tensor<2x4x8x11xf32>, tensor<2x4x8x1xf32>
  %win0 = kf.slice %p1 starts [0, 0, 0, 0] ends [9223372036854775807, 9223372036854775807, 6, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap0 = kf.slice %w starts [0, 0, 0] ends [9223372036854775807, 1, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t0 = kf.mul %win0, %tap0 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %win1 = kf.slice %p1 starts [0, 0, 0, 1] ends [9223372036854775807, 9223372036854775807, 6, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap1 = kf.slice %w starts [0, 0, 1] ends [9223372036854775807, 1, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t1 = kf.mul %win1, %tap1 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s1 = kf.add %t0, %t1 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win2 = kf.slice %p1 starts [0, 0, 0, 2] ends [9223372036854775807, 9223372036854775807, 6, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap2 = kf.slice %w starts [0, 0, 2] ends [9223372036854775807, 1, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t2 = kf.mul %win2, %tap2 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s2 = kf.add %s1, %t2 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win3 = kf.slice %p1 starts [0, 0, 1, 0] ends [9223372036854775807, 9223372036854775807, 7, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap3 = kf.slice %w starts [0, 1, 0] ends [9223372036854775807, 2, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t3 = kf.mul %win3, %tap3 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s3 = kf.add %s2, %t3 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win4 = kf.slice %p1 starts [0, 0, 1, 1] ends [9223372036854775807, 9223372036854775807, 7, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap4 = kf.slice %w starts [0, 1, 1] ends [9223372036854775807, 2, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t4 = kf.mul %win4, %tap4 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s4 = kf.add %s3, %t4 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win5 = kf.slice %p1 starts [0, 0, 1, 2] ends [9223372036854775807, 9223372036854775807, 7, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap5 = kf.slice %w starts [0, 1, 2] ends [9223372036854775807, 2, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t5 = kf.mul %win5, %tap5 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s5 = kf.add %s4, %t5 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win6 = kf.slice %p1 starts [0, 0, 2, 0] ends [9223372036854775807, 9223372036854775807, 8, 11] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap6 = kf.slice %w starts [0, 2, 0] ends [9223372036854775807, 3, 1] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t6 = kf.mul %win6, %tap6 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s6 = kf.add %s5, %t6 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win7 = kf.slice %p1 starts [0, 0, 2, 1] ends [9223372036854775807, 9223372036854775807, 8, 12] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap7 = kf.slice %w starts [0, 2, 1] ends [9223372036854775807, 3, 2] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t7 = kf.mul %win7, %tap7 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s7 = kf.add %s6, %t7 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %win8 = kf.slice %p1 starts [0, 0, 2, 2] ends [9223372036854775807, 9223372036854775807, 8, 13] steps [1, 1, 1, 1] : tensor<2x4x8x13xf32>
  %tap8 = kf.slice %w starts [0, 2, 2] ends [9223372036854775807, 3, 3] steps [1, 1, 1] : tensor<4x3x3xf32>
  %t8 = kf.mul %win8, %tap8 : tensor<2x4x6x11xf32>, tensor<4x1x1xf32>
  %s8 = kf.add %s7, %t8 : tensor<2x4x6x11xf32>, tensor<2x4x6x11xf32>
  %nhwc = kf.transpose %s8 [0, 2, 3, 1] : tensor<2x4x6x11xf32>
  return %nhwc : tensor<2x6x11x4xf32>
}
