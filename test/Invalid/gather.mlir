// What kf.index_select and kf.gather refuse: a located error, no crash.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// The dim must be a dim of the input.
func.func @dim_out_of_range(%t: tensor<10x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'kf.index_select' dim 2 is out of range for a tensor of rank 2}}
  %0 = kf.index_select %t, %i dim 2 : tensor<10x4xf32>, tensor<3xi64>
  return
}

// -----

// A 0-d input has no dim to index (torch: index_select of a scalar is
// a different op).
func.func @scalar_input(%t: tensor<f32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'kf.index_select' needs an input of rank 1 or more}}
  %0 = kf.index_select %t, %i dim 0 : tensor<f32>, tensor<3xi64>
  return
}

// -----

// The indexed dim must be static: the NaN check needs its size.
func.func @dynamic_table(%t: tensor<?x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'kf.index_select' input ?x4 is dynamic along the indexed dim 0}}
  %0 = kf.index_select %t, %i dim 0 : tensor<?x4xf32>, tensor<3xi64>
  return
}

// -----

// Integer tables are not supported yet (no NaN for a bad index).
func.func @int_table(%t: tensor<10x4xi64>, %i: tensor<3xi64>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float values}}
  %0 = kf.index_select %t, %i dim 0 : tensor<10x4xi64>, tensor<3xi64>
  return
}

// -----

// An index must be int32 or int64, as torch's.
func.func @float_index(%t: tensor<10x4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = kf.index_select %t, %i dim 0 : tensor<10x4xf32>, tensor<3xf32>
  return
}

// -----

// torch.gather: the index has the input's rank.
func.func @gather_rank(%x: tensor<4x8xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'kf.gather' index 4 must have the input's rank 2 (4x8)}}
  %0 = kf.gather %x, %i dim 1 : tensor<4x8xf32>, tensor<4xi64>
  return
}

// -----

// torch.gather: off the gathered dim the index is at most the input.
func.func @gather_larger(%x: tensor<4x8xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{'kf.gather' index 5x2 is larger than the input 4x8 in dim 0 (only the indexed dim 1 may be)}}
  %0 = kf.gather %x, %i dim 1 : tensor<4x8xf32>, tensor<5x2xi64>
  return
}
