// max and min have no identity: like torch.amax/amin, a reduction over an
// empty static dim is refused (issue 13, item 5; before, it gave -inf/+inf).
// sum and mean over it are fine (0 and NaN); softmax over it is empty.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

func.func @max_empty(%x: tensor<3x0xf32>) -> tensor<3xf32> {
  // expected-error @below {{'kf.max' reduces over dim 1 of size 0: max and min of no elements have no value}}
  %0 = kf.max %x dims [1] : tensor<3x0xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @min_all_empty(%x: tensor<0x4xi32>) -> tensor<i32> {
  // expected-error @below {{'kf.min' reduces over dim 0 of size 0}}
  %0 = kf.min %x : tensor<0x4xi32>
  return %0 : tensor<i32>
}

// -----

// Over the other dim, nothing is empty: accepted.
func.func @max_nonempty_dim(%x: tensor<0x4xf32>) -> tensor<0xf32> {
  %0 = kf.max %x dims [1] : tensor<0x4xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @sum_mean_softmax_empty(%x: tensor<3x0xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3x0xf32>) {
  %0 = kf.sum %x dims [1] : tensor<3x0xf32>
  %1 = kf.mean %x dims [1] : tensor<3x0xf32>
  %2 = kf.softmax %x dim 1 : tensor<3x0xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3x0xf32>
}
