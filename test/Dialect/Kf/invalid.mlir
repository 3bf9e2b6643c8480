// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// Static dims 4 and 3 are neither equal nor 1: PyTorch refuses this add.
func.func @add_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{'kf.add' operand shapes do not broadcast: 4x8 and 3x1}}
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<3x1xf32>
  return
}

// -----

// Trailing dims 8 and 7 do not broadcast, whatever the ranks.
func.func @where_no_broadcast(%c: tensor<8xi1>, %a: tensor<7xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'kf.where' operand shapes do not broadcast: 8 and 7}}
  %0 = kf.where %c, %a, %b : tensor<8xi1>, tensor<7xf32>, tensor<f32>
  return
}

// -----

// where's condition must be bool, as in torch.where.
func.func @where_cond_not_bool(%c: tensor<8xf32>, %a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.where' condition must be bool (i1), got 'f32'}}
  %0 = kf.where %c, %a, %a : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  return
}

// -----

// Subtracting bools is refused by PyTorch.
func.func @sub_bool(%a: tensor<8xi1>) {
  // expected-error @+1 {{'kf.sub' does not support bool operands, got 'i1'}}
  %0 = kf.sub %a, %a : tensor<8xi1>, tensor<8xi1>
  return
}

// -----

// pow on bools is refused.
func.func @pow_bool(%a: tensor<8xi1>) {
  // expected-error @+1 {{'kf.pow' does not support bool operands}}
  %0 = kf.pow %a, %a : tensor<8xi1>, tensor<8xi1>
  return
}

// -----

// Negating a bool tensor is refused by PyTorch.
func.func @neg_bool(%a: tensor<8xi1>) {
  // expected-error @+1 {{'kf.neg' does not support bool operands}}
  %0 = kf.neg %a : tensor<8xi1>
  return
}

// -----

// abs of bool is refused.
func.func @abs_bool(%a: tensor<8xi1>) {
  // expected-error @+1 {{'kf.abs' does not support bool operands}}
  %0 = kf.abs %a : tensor<8xi1>
  return
}

// -----

// relu of bool is refused.
func.func @relu_bool(%a: tensor<8xi1>) {
  // expected-error @+1 {{'kf.relu' does not support bool operands}}
  %0 = kf.relu %a : tensor<8xi1>
  return
}

// -----

// gelu is defined for floating types only.
func.func @gelu_int(%a: tensor<8xi32>) {
  // expected-error @+1 {{'kf.gelu' needs a floating-point operand, got 'i32'}}
  %0 = kf.gelu %a : tensor<8xi32>
  return
}

// -----

// silu is defined for floating types only.
func.func @silu_int(%a: tensor<8xi64>) {
  // expected-error @+1 {{'kf.silu' needs a floating-point operand, got 'i64'}}
  %0 = kf.silu %a : tensor<8xi64>
  return
}

// -----

// i8 is not a kf dtype.
func.func @unsupported_dtype(%a: tensor<8xi8>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<8xi8>'}}
  %0 = kf.exp %a : tensor<8xi8>
  return
}

// -----

// Unranked tensors are not kf operands.
func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = kf.exp %a : tensor<*xf32>
  return
}

// -----

// cast to a dtype kf does not support.
func.func @cast_bad_dtype(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.cast' target dtype 'i8' is not one of f32, f16, bf16, f64, i32, i64, i1}}
  %0 = kf.cast %a : tensor<8xf32> to i8
  return
}

// -----

// A constant must be a kf tensor.
func.func @constant_bad_dtype() {
  // expected-error @+1 {{'kf.constant' needs a static tensor of f32, f16, bf16, f64, i32, i64 or i1, got 'tensor<2xi16>'}}
  %0 = kf.constant dense<[1, 2]> : tensor<2xi16>
  return
}

// -----

// A reduction dim beyond the rank.
func.func @sum_dim_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.sum' dim 2 is out of range for a tensor of rank 2 (expected in [-2, 1])}}
  %0 = kf.sum %a dims [2] : tensor<4x8xf32>
  return
}

// -----

// A negative reduction dim beyond the rank.
func.func @max_dim_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.max' dim -3 is out of range for a tensor of rank 2 (expected in [-2, 1])}}
  %0 = kf.max %a dims [-3] : tensor<4x8xf32>
  return
}

// -----

// The same dim twice (1 and -1 name the same dim of a rank-2 tensor).
func.func @sum_dim_twice(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.sum' dim 1 appears more than once in the list of dims}}
  %0 = kf.sum %a dims [1, -1] : tensor<4x8xf32>
  return
}

// -----

// torch.mean refuses integer inputs.
func.func @mean_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{'kf.mean' needs a floating-point input (as torch.mean), got 'i32'}}
  %0 = kf.mean %a dims [1] : tensor<4x8xi32>
  return
}

// -----

// A reshape that changes the element count (8 -> 9).
func.func @reshape_count(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.reshape' cannot reshape tensor of 8 elements (8) to [3, 3] (9 elements)}}
  %0 = kf.reshape %a [3, 3] : tensor<8xf32>
  return
}

// -----

// -1 cannot be inferred when the rest does not divide the count.
func.func @reshape_not_divisible(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.reshape' cannot reshape tensor of 8 elements (8) to [3, -1]}}
  %0 = kf.reshape %a [3, -1] : tensor<8xf32>
  return
}

// -----

// Only one dim may be inferred.
func.func @reshape_two_inferred(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.reshape' shape [-1, -1] has more than one -1}}
  %0 = kf.reshape %a [-1, -1] : tensor<8xf32>
  return
}

// -----

// Sizes below -1 mean nothing.
func.func @reshape_negative(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.reshape' shape [-2, -4] has invalid size -2}}
  %0 = kf.reshape %a [-2, -4] : tensor<8xf32>
  return
}

// -----

// [0, 0] repeats a dim: not a permutation.
func.func @transpose_repeat(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.transpose' [0, 0] is not a permutation of the 2 dims of 4x8}}
  %0 = kf.transpose %a [0, 0] : tensor<4x8xf32>
  return
}

// -----

// A permutation must name every dim.
func.func @transpose_short(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.transpose' [0] is not a permutation of the 2 dims of 4x8}}
  %0 = kf.transpose %a [0] : tensor<4x8xf32>
  return
}

// -----

// Dim 2 does not exist in a rank-2 tensor.
func.func @transpose_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.transpose' [2, 0] is not a permutation of the 2 dims of 4x8}}
  %0 = kf.transpose %a [2, 0] : tensor<4x8xf32>
  return
}

// -----

// expand can only stretch size-1 dims: 3 -> 4 is refused.
func.func @broadcast_to_bad(%a: tensor<3xf32>) {
  // expected-error @+1 {{'kf.broadcast_to' cannot broadcast 3 to [2, 4]}}
  %0 = kf.broadcast_to %a [2, 4] : tensor<3xf32>
  return
}

// -----

// expand cannot drop dims.
func.func @broadcast_to_lower_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'kf.broadcast_to' cannot broadcast 2x3 to [3]}}
  %0 = kf.broadcast_to %a [3] : tensor<2x3xf32>
  return
}

// -----

// matmul: 8 columns against 7 rows.
func.func @matmul_inner(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+1 {{'kf.matmul' inner dims differ: 4x8 has 8 columns but 7x16 has 7 rows}}
  %0 = kf.matmul %a, %b : tensor<4x8xf32>, tensor<7x16xf32>
  return
}

// -----

// Batch dims 2 and 3 do not broadcast.
func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) {
  // expected-error @+1 {{'kf.matmul' batch dims do not broadcast: 2x4x8 and 3x8x16}}
  %0 = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x16xf32>
  return
}

// -----

// 1-D operands are not supported by kf.matmul.
func.func @matmul_rank1(%a: tensor<8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'kf.matmul' needs operands of rank >= 2, got 8 and 8x16}}
  %0 = kf.matmul %a, %b : tensor<8xf32>, tensor<8x16xf32>
  return
}

// -----

// matmul of bools is refused.
func.func @matmul_bool(%a: tensor<4x8xi1>, %b: tensor<8x2xi1>) {
  // expected-error @+1 {{'kf.matmul' does not support bool operands}}
  %0 = kf.matmul %a, %b : tensor<4x8xi1>, tensor<8x2xi1>
  return
}

// -----

// softmax over a dim that does not exist.
func.func @softmax_dim(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.softmax' dim 2 is out of range for a tensor of rank 2 (expected in [-2, 1])}}
  %0 = kf.softmax %a dim 2 : tensor<4x8xf32>
  return
}

// -----

// log_softmax over a dim that does not exist.
func.func @log_softmax_dim(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.log_softmax' dim -3 is out of range}}
  %0 = kf.log_softmax %a dim -3 : tensor<4x8xf32>
  return
}

// -----

// softmax is for floating types.
func.func @softmax_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = kf.softmax %a dim 1 : tensor<4x8xi32>
  return
}

// -----

// normalized_shape must match the trailing dims (8, not 4).
func.func @layer_norm_shape(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.layer_norm' op normalized_shape [4] does not match the trailing dims of 4x8}}
  %0 = kf.layer_norm %a normalized_shape [4] eps 1.0e-05 : tensor<4x8xf32>
  return
}

// -----

// normalized_shape cannot name more dims than the input has.
func.func @layer_norm_rank(%a: tensor<8xf32>) {
  // expected-error @+1 {{'kf.layer_norm' op normalized_shape [2, 8] must name 1 to 1 trailing dims of 8}}
  %0 = kf.layer_norm %a normalized_shape [2, 8] eps 1.0e-05 : tensor<8xf32>
  return
}

// -----

// The weight has the normalized shape.
func.func @layer_norm_weight(%a: tensor<4x8xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'kf.layer_norm' op weight has shape 4, expected normalized_shape 8}}
  %0 = kf.layer_norm %a weight %w : tensor<4xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return
}

// -----

// The bias has the input's dtype.
func.func @layer_norm_bias_dtype(%a: tensor<4x8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'kf.layer_norm' op bias dtype 'f16' differs from input dtype 'f32'}}
  %0 = kf.layer_norm %a bias %b : tensor<8xf16> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return
}

// -----

// A negative eps makes no sense.
func.func @layer_norm_eps(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.layer_norm' op eps must not be negative}}
  %0 = kf.layer_norm %a normalized_shape [8] eps -1.0 : tensor<4x8xf32>
  return
}

// -----

// A written result type that disagrees with inference is refused.
func.func @wrong_result_type(%a: tensor<4xf32>) {
  // expected-error @+2 {{'kf.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  // expected-error @+1 {{'kf.add' op failed to infer returned types}}
  %0 = "kf.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
  return
}
