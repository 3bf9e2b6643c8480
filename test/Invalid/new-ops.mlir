// What the ops of issue 12 refuse, as PyTorch refuses it (or, where kfuse
// cannot lower it yet, with the reason): a located error, no crash.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// torch.clamp needs a min or a max.
func.func @clamp_no_bound(%x: tensor<8xf32>) {
  // expected-error @+1 {{'kf.clamp' needs a min or a max}}
  %0 = kf.clamp %x : tensor<8xf32>
  return
}

// -----

// torch.clamp of a bool tensor is not implemented.
func.func @clamp_bool(%x: tensor<8xi1>) {
  // expected-error @+1 {{'kf.clamp' does not support bool inputs}}
  %0 = kf.clamp %x min(0) : tensor<8xi1>
  return
}

// -----

// An int bound that the int32 tensor cannot hold (torch: overflow error).
func.func @clamp_bound_overflow(%x: tensor<8xi32>) {
  // expected-error @+1 {{'kf.clamp' bound 4294967296 does not fit 'i32'}}
  %0 = kf.clamp %x max(4294967296) : tensor<8xi32>
  return
}

// -----

// floor of bool: PyTorch's kernel has no bool version.
func.func @floor_bool(%x: tensor<8xi1>) {
  // expected-error @+1 {{'kf.floor' does not support bool operands}}
  %0 = kf.floor %x : tensor<8xi1>
  return
}

// -----

// remainder of bools is refused (no bool kernel in PyTorch).
func.func @remainder_bool(%x: tensor<8xi1>) {
  // expected-error @+1 {{'kf.remainder' does not support bool operands}}
  %0 = kf.remainder %x, %x : tensor<8xi1>, tensor<8xi1>
  return
}

// -----

// floor_divide broadcasts as every binary op: 4 against 3 does not.
func.func @floor_divide_shapes(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'kf.floor_divide' operand shapes do not broadcast: 4 and 3}}
  %0 = kf.floor_divide %x, %y : tensor<4xf32>, tensor<3xf32>
  return
}

// -----

// torch.var needs a floating-point input.
func.func @var_int(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'kf.var' needs a floating-point input (as torch.var), got 'i32'}}
  %0 = kf.var %x dims [1] : tensor<4x8xi32>
  return
}

// -----

// A dim out of range, as for every reduction.
func.func @std_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.std' dim 2 is out of range for a tensor of rank 2}}
  %0 = kf.std %x dims [2] : tensor<4x8xf32>
  return
}

// -----

// rms_norm's normalized_shape must be the trailing dims.
func.func @rms_norm_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.rms_norm' op normalized_shape [4] does not match the trailing dims of 4x8}}
  %0 = kf.rms_norm %x normalized_shape [4] : tensor<4x8xf32>
  return
}

// -----

// rms_norm's weight has the shape normalized_shape.
func.func @rms_norm_weight(%x: tensor<4x8xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'kf.rms_norm' op weight has shape 4, expected normalized_shape 8}}
  %0 = kf.rms_norm %x weight %w : tensor<4xf32> normalized_shape [8] : tensor<4x8xf32>
  return
}

// -----

// batch_norm needs [N, C, ...].
func.func @batch_norm_rank(%x: tensor<3xf32>, %m: tensor<3xf32>) {
  // expected-error @+1 {{'kf.batch_norm' op needs an input [N, C, ...] of rank 2 or more, got 3}}
  %0 = kf.batch_norm %x, %m, %m : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// The statistics have C = dim 1 elements.
func.func @batch_norm_channels(%x: tensor<2x3x4xf32>, %m: tensor<3xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'kf.batch_norm' op running_var has shape 4, expected [C] with C = dim 1 of 2x3x4}}
  %0 = kf.batch_norm %x, %m, %v : tensor<2x3x4xf32>, tensor<3xf32>, tensor<4xf32>
  return
}

// -----

// torch.argmax of bool is not implemented.
func.func @argmax_bool(%x: tensor<8xi1>) {
  // expected-error @+1 {{'kf.argmax' does not support bool inputs}}
  %0 = kf.argmax %x dim 0 : tensor<8xi1>
  return
}

// -----

// An empty dim has no maximum (torch raises).
func.func @argmin_empty(%x: tensor<4x0xf32>) {
  // expected-error @+1 {{'kf.argmin' op reduces over dim 1 of size 0}}
  %0 = kf.argmin %x dim 1 : tensor<4x0xf32>
  return
}

// -----

// A dynamic dim: kfuse's decomposition needs its size (a limit of kfuse).
func.func @argmax_dynamic(%x: tensor<4x?xf32>) {
  // expected-error @+1 {{'kf.argmax' op reduces over dynamic dim 1 of 4x?: not supported}}
  %0 = kf.argmax %x dim 1 : tensor<4x?xf32>
  return
}

// -----

// cat: the other dims must be equal.
func.func @cat_shapes(%a: tensor<2x8xf32>, %b: tensor<2x7xf32>) {
  // expected-error @+1 {{'kf.cat' tensor #1 (2x7) differs from the others in dim 1 (expected 8)}}
  %0 = kf.cat %a, %b dim 0 : tensor<2x8xf32>, tensor<2x7xf32>
  return
}

// -----

// cat: equal ranks.
func.func @cat_ranks(%a: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'kf.cat' tensor #1 has rank 1, tensor #0 has rank 2}}
  %0 = kf.cat %a, %b dim 0 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

// cat of 0-d tensors is refused by torch.cat.
func.func @cat_scalars(%a: tensor<f32>) {
  // expected-error @+1 {{'kf.cat' cannot join 0-d tensors}}
  %0 = kf.cat %a, %a dim 0 : tensor<f32>, tensor<f32>
  return
}

// -----

// A dynamic size along the joined dim: kfuse places each tensor statically.
func.func @cat_dynamic(%a: tensor<?x8xf32>, %b: tensor<2x8xf32>) {
  // expected-error @+1 {{'kf.cat' tensor #0 (?x8) is dynamic along the joined dim 0: not supported}}
  %0 = kf.cat %a, %b dim 0 : tensor<?x8xf32>, tensor<2x8xf32>
  return
}

// -----

// The dim must be in range.
func.func @cat_dim(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'kf.cat' dim 2 is out of range for a tensor of rank 2}}
  %0 = kf.cat %a, %a dim 2 : tensor<2x8xf32>, tensor<2x8xf32>
  return
}
