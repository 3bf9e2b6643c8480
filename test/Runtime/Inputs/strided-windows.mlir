// A 3 x 3 max pool of stride 2 written as torch.export decomposes
// ResNet's (the maximum of nine strided slices): every window reads its
// input two elements a lane along the row (W = 19 outputs: two vectors
// and a tail of 3).
func.func @max_pool(%x: tensor<2x3x9x41xf32>) -> tensor<2x3x4x19xf32> {
  %w00 = kf.slice %x starts [0, 0, 0, 0] ends [2, 3, 7, 37] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w01 = kf.slice %x starts [0, 0, 0, 1] ends [2, 3, 7, 38] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w02 = kf.slice %x starts [0, 0, 0, 2] ends [2, 3, 7, 39] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w10 = kf.slice %x starts [0, 0, 1, 0] ends [2, 3, 8, 37] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w11 = kf.slice %x starts [0, 0, 1, 1] ends [2, 3, 8, 38] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w12 = kf.slice %x starts [0, 0, 1, 2] ends [2, 3, 8, 39] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w20 = kf.slice %x starts [0, 0, 2, 0] ends [2, 3, 9, 37] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w21 = kf.slice %x starts [0, 0, 2, 1] ends [2, 3, 9, 38] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %w22 = kf.slice %x starts [0, 0, 2, 2] ends [2, 3, 9, 39] steps [1, 1, 2, 2] : tensor<2x3x9x41xf32>
  %m0 = kf.maximum %w00, %w01 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m1 = kf.maximum %m0, %w02 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m2 = kf.maximum %m1, %w10 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m3 = kf.maximum %m2, %w11 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m4 = kf.maximum %m3, %w12 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m5 = kf.maximum %m4, %w20 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m6 = kf.maximum %m5, %w21 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  %m7 = kf.maximum %m6, %w22 : tensor<2x3x4x19xf32>, tensor<2x3x4x19xf32>
  return %m7 : tensor<2x3x4x19xf32>
}
