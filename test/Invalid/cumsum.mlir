// What kf.cumsum refuses: a located error, no crash.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// The dim must be a dim of the input.
func.func @dim_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.cumsum' dim 2 is out of range for a tensor of rank 2}}
  %0 = kf.cumsum %x dim 2 : tensor<4x8xf32>
  return
}

// -----

// Nor past the first from the end.
func.func @negative_dim_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.cumsum' dim -3 is out of range for a tensor of rank 2}}
  %0 = kf.cumsum %x dim -3 : tensor<4x8xf32>
  return
}

// -----

// A 0-d tensor has no dim to scan (kfuse-import passes it through as
// PyTorch does).
func.func @scalar_input(%x: tensor<f32>) {
  // expected-error @+1 {{'kf.cumsum' needs an input of rank 1 or more}}
  %0 = kf.cumsum %x dim 0 : tensor<f32>
  return
}
