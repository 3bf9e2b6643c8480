// REQUIRES: torch
// The kf that kfuse-import writes for each family of aten ops
// (Inputs/op_modules.py); kfuse-opt parses and verifies all of it, so every
// printed operand type is the type kf infers. ops-e2e.mlir runs the same
// modules against PyTorch.
// RUN: %torch-python %s.py > %t.mlir
// RUN: kfuse-opt %t.mlir -o /dev/null
// RUN: FileCheck %s < %t.mlir

// Python scalars become 0-d constants of the dtype PyTorch computes in
// (a float on an int tensor: f32); alpha multiplies; int / int is f32.
// CHECK-LABEL: func.func @arithmetic(
// CHECK-NEXT:    %xs_0: tensor<4x8xf32>,  // arg0: xs_0 (input)
// CHECK:         %cst = kf.constant dense<2.0> : tensor<f32>
// CHECK-NEXT:    %alpha = kf.mul %xs_1, %cst : tensor<4x8xf32>, tensor<f32>
// CHECK-NEXT:    %add = kf.add %xs_0, %alpha : tensor<4x8xf32>, tensor<4x8xf32>  // op_modules.py:
// CHECK:         %sub = kf.sub %xs_0, %cst_1 : tensor<4x8xf32>, tensor<f32>
// CHECK:         %sub_1 = kf.sub %cst_2, %xs_0 : tensor<f32>, tensor<4x8xf32>
// CHECK:         %div_1 = kf.div %xs_2, %xs_3 : tensor<4x8xi32>, tensor<4x8xi32>
// CHECK-NEXT:    %floor_divide = kf.floor_divide %xs_2, %xs_3 : tensor<4x8xi32>, tensor<4x8xi32>
// CHECK-NEXT:    %floor_divide_1 = kf.floor_divide %xs_0, %xs_1
// CHECK-NEXT:    %maximum = kf.maximum %xs_0, %xs_1
// CHECK-NEXT:    %minimum = kf.minimum %xs_0, %xs_1
// CHECK-NEXT:    %pow_1 = kf.pow %xs_0, %cst : tensor<4x8xf32>, tensor<f32>
// CHECK:         %pow_2 = kf.pow %abs_1, %xs_1
// CHECK-NEXT:    %pow_3 = kf.pow %cst, %xs_0 : tensor<f32>, tensor<4x8xf32>
// CHECK-NEXT:    %remainder = kf.remainder %xs_2, %xs_3 : tensor<4x8xi32>, tensor<4x8xi32>
// CHECK-NEXT:    %remainder_1 = kf.remainder %xs_0, %xs_1
// CHECK-NEXT:    %cst_3 = kf.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %add_1 = kf.add %xs_2, %cst_3 : tensor<4x8xi32>, tensor<i32>
// CHECK-NEXT:    %cst_4 = kf.constant dense<2.5> : tensor<f32>
// CHECK-NEXT:    %mul_1 = kf.mul %xs_2, %cst_4 : tensor<4x8xi32>, tensor<f32>
// CHECK-NEXT:    %square = kf.mul %xs_0, %xs_0
// CHECK-NEXT:    return {{.*}} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>,

// CHECK-LABEL: func.func @unary(
// CHECK:         %abs_1 = kf.abs %xs_0
// CHECK:         kf.neg %xs_0
// CHECK-NEXT:    kf.abs %xs_0
// CHECK-NEXT:    kf.relu %xs_0
// CHECK-NEXT:    kf.exp %xs_0
// CHECK-NEXT:    kf.log %add
// CHECK-NEXT:    kf.sqrt %add
// CHECK-NEXT:    kf.rsqrt %add
// CHECK-NEXT:    kf.tanh %xs_0
// CHECK-NEXT:    kf.sigmoid %xs_0
// CHECK-NEXT:    kf.sin %xs_0
// CHECK-NEXT:    kf.cos %xs_0
// CHECK-NEXT:    kf.reciprocal %add
// CHECK-NEXT:    kf.exp2 %xs_0
// CHECK-NEXT:    kf.log1p %add
// CHECK-NEXT:    kf.expm1 %xs_0
// CHECK-NEXT:    kf.erf %xs_0
// CHECK-NEXT:    kf.floor %xs_0
// CHECK-NEXT:    kf.ceil %xs_0
// CHECK-NEXT:    kf.round %xs_0

// Exact GELU is kf.gelu; the tanh form is written out (kf.gelu is exact only).
// CHECK-LABEL: func.func @activations(
// CHECK:         %gelu = kf.gelu %xs_0 : tensor<4x8xf32>
// CHECK:         %cst = kf.constant dense<0.044715> : tensor<f32>
// CHECK:         %cst_1 = kf.constant dense<0.7978846> : tensor<f32>
// CHECK:         %tanh = kf.tanh %mul_3
// CHECK:         %gelu_1 = kf.mul %mul_4, %add_1
// CHECK-NEXT:    %silu = kf.silu %xs_0
// CHECK:         %cst_5 = kf.constant dense<0.1> : tensor<f32>
// CHECK:         %leaky_relu = kf.where %gt, %xs_0, %mul_5 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    %hardtanh = kf.clamp %xs_0 min(-1.0) max(1.0) : tensor<4x8xf32>
// CHECK-NEXT:    %hardtanh_1 = kf.clamp %xs_0 min(0) max(6) : tensor<4x8xf32>
// CHECK-NEXT:    %clamp = kf.clamp %xs_0 min(-0.5) max(0.5)
// CHECK-NEXT:    %clamp_1 = kf.clamp %xs_0 min(0.25) : tensor<4x8xf32>
// CHECK-NEXT:    %mean = kf.mean %xs_0 : tensor<4x8xf32>
// CHECK-NEXT:    %clamp_2 = kf.minimum %xs_0, %mean : tensor<4x8xf32>, tensor<f32>

// Comparisons give i1; where(cond, 1.0, 0.0) takes PyTorch's dtype for the
// scalars; & | ~ on bools are where and eq.
// CHECK-LABEL: func.func @compare_select(
// CHECK:         %eq = kf.eq %xs_0, %xs_1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    %cst = kf.constant dense<0.5> : tensor<f32>
// CHECK-NEXT:    %ne = kf.ne %xs_0, %cst
// CHECK:         %where = kf.where %gt_1, %xs_0, %xs_1 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK:         %where_1 = kf.where %gt_2, %scalar_tensor_1, %scalar_tensor : tensor<4x8xi1>, tensor<f32>, tensor<f32>
// CHECK:         %scalar_tensor_2 = kf.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %where_2 = kf.where %gt_3, %xs_2, %scalar_tensor_2 : tensor<4x8xi1>, tensor<4x8xi32>, tensor<i32>
// CHECK:         %cst_4 = kf.constant dense<false> : tensor<i1>
// CHECK-NEXT:    %bitwise_and = kf.where %gt_4, %gt_5, %cst_4 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<i1>
// CHECK:         %cst_5 = kf.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %bitwise_or = kf.where %gt_6, %cst_5, %gt_7
// CHECK:         %bitwise_not = kf.eq %gt_8, %cst_4 : tensor<4x8xi1>, tensor<i1>

// CHECK-LABEL: func.func @casts(
// CHECK:         kf.cast %xs_0 : tensor<4x8xf32> to i32
// CHECK-NEXT:    kf.cast %xs_1 : tensor<4x8xi32> to f32
// CHECK-NEXT:    kf.cast %xs_2 : tensor<4x8xi1> to f32
// CHECK-NEXT:    kf.cast %xs_0 : tensor<4x8xf32> to f16
// CHECK-NEXT:    %[[H:.*]] = kf.cast %xs_0 : tensor<4x8xf32> to f16
// CHECK-NEXT:    %[[B:.*]] = kf.cast %[[H]] : tensor<4x8xf16> to bf16
// CHECK-NEXT:    kf.cast %[[B]] : tensor<4x8xbf16> to f32
// CHECK-NEXT:    kf.cast %xs_1 : tensor<4x8xi32> to i64
// CHECK-NEXT:    kf.cast %xs_0 : tensor<4x8xf32> to i1
// CHECK-NEXT:    kf.cast %xs_2 : tensor<4x8xi1> to i64

// A sum of ints is i64, as torch.sum's; var/std carry their correction.
// CHECK-LABEL: func.func @reductions(
// CHECK:         %sum_1 = kf.sum %xs_0 dims [1] : tensor<2x3x8xf32>
// CHECK-NEXT:    %sum_2 = kf.sum %xs_0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %sum_3 = kf.sum %xs_0 dims [0, 2] keepdim : tensor<2x3x8xf32>
// CHECK-NEXT:    %sum_4 = kf.sum %xs_1 dims [1] : tensor<2x8xi32>
// CHECK-NEXT:    %mean = kf.mean %xs_0 dims [2] keepdim : tensor<2x3x8xf32>
// CHECK-NEXT:    %mean_1 = kf.mean %xs_0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %amax = kf.max %xs_0 dims [1] : tensor<2x3x8xf32>
// CHECK-NEXT:    %amin = kf.min %xs_0 dims [1, 2] : tensor<2x3x8xf32>
// CHECK-NEXT:    %max_1 = kf.max %xs_0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %min_1 = kf.min %xs_0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %var = kf.var %xs_0 dims [2] correction 0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %std = kf.std %xs_0 dims [1] correction 1 : tensor<2x3x8xf32>
// CHECK-NEXT:    %var_1 = kf.var %xs_0 correction 1 : tensor<2x3x8xf32>
// CHECK-NEXT:    %std_1 = kf.std %xs_0 dims [1, 2] correction 1 keepdim : tensor<2x3x8xf32>
// CHECK-NEXT:    return {{.*}} : tensor<2x8xf32>, tensor<f32>, tensor<1x3x1xf32>, tensor<2xi64>, tensor<2x3x1xf32>, tensor<f32>,

// max(dim) is two results: the values (kf.max) and the indices (kf.argmax).
// CHECK-LABEL: func.func @arg_reductions(
// CHECK:         %max_1_values = kf.max %xs_0 dims [1] : tensor<2x3x8xf32>
// CHECK-NEXT:    %max_1_indices = kf.argmax %xs_0 dim 1 : tensor<2x3x8xf32>
// CHECK-NEXT:    %min_1_values = kf.min %xs_0 dims [2] keepdim : tensor<2x3x8xf32>
// CHECK-NEXT:    %min_1_indices = kf.argmin %xs_0 dim 2 keepdim : tensor<2x3x8xf32>
// CHECK-NEXT:    %argmax = kf.argmax %xs_0 dim 2 : tensor<2x3x8xf32>
// CHECK-NEXT:    %argmin = kf.argmin %xs_0 dim 0 : tensor<2x3x8xf32>
// CHECK-NEXT:    %argmax_1 = kf.argmax %xs_1 dim 1 : tensor<2x8xi32>
// CHECK-NEXT:    %argmax_2 = kf.argmax %xs_0 : tensor<2x3x8xf32>
// CHECK-NEXT:    return {{.*}} : tensor<2x8xf32>, tensor<2x8xi64>, tensor<2x3x1xf32>, tensor<2x3x1xi64>, tensor<2x3xi64>, tensor<3x8xi64>, tensor<2xi64>, tensor<i64>

// any is a max over bool (kf's or), after a cast to i1 for other dtypes;
// torch.export writes all as not(any(not x)).
// CHECK-LABEL: func.func @any_all(
// CHECK:         %xs_0_i1 = kf.cast %xs_0 : tensor<4x6xf32> to i1
// CHECK-NEXT:    %any_1 = kf.max %xs_0_i1 dims [1] : tensor<4x6xi1>
// CHECK:         %logical_not = kf.eq %xs_2, %cst : tensor<3x4x5xi1>, tensor<i1>
// CHECK-NEXT:    %any_2 = kf.max %logical_not : tensor<3x4x5xi1>
// CHECK:         %any_3 = kf.max %gt dims [1] keepdim : tensor<4x6xi1>
// CHECK-NEXT:    %any_4 = kf.max %xs_2 dims [0, 1] : tensor<3x4x5xi1>
// CHECK:         return {{.*}} : tensor<4xi1>, tensor<i1>, tensor<4x1xi1>, tensor<5xi1>, tensor<6xi1>, tensor<i1>, tensor<4xi1>, tensor<3x4xi1>

// F.scaled_dot_product_attention imported as itself: q @ k^T (k read
// transposed), the scale D^-1/2 = 0.35355338 for D = 8, a softmax, @ v; the
// causal mask is the top-left triangle as a constant; a bool mask is a
// where, and a row it hides wholly gives zeros (its max is -inf); an
// additive mask is added after the given scale; GQA repeats each key head.
// CHECK-LABEL: func.func @attention(
// CHECK:         %[[KT:.*]] = kf.transpose %xs_1 [0, 1, 3, 2] : tensor<2x3x6x8xf32>
// CHECK-NEXT:    %[[S:.*]] = kf.matmul %xs_0, %[[KT]] : tensor<2x3x6x8xf32>, tensor<2x3x8x6xf32>
// CHECK-NEXT:    %[[SCALE:.*]] = kf.constant dense<0.35355338> : tensor<f32>
// CHECK-NEXT:    %[[SS:.*]] = kf.mul %[[S]], %[[SCALE]] : tensor<2x3x6x6xf32>, tensor<f32>
// CHECK-NEXT:    %[[P:.*]] = kf.softmax %[[SS]] dim 3 : tensor<2x3x6x6xf32>
// CHECK-NEXT:    %scaled_dot_product_attention = kf.matmul %[[P]], %xs_2 : tensor<2x3x6x6xf32>, tensor<2x3x6x8xf32>
// CHECK:         kf.constant dense<{{\[}}[true, false, false, false, false, false], [true, true, false, false, false, false],
// CHECK:         %[[INF:.*]] = kf.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT:    %scaled_dot_product_attention_1_causal_scores = kf.where %scaled_dot_product_attention_1_causal, %scaled_dot_product_attention_1_scaled, %[[INF]]
// CHECK:         %[[M:.*]] = kf.where %xs_3, %scaled_dot_product_attention_2_scaled, %[[INF]] : tensor<6x6xi1>, tensor<2x3x6x6xf32>, tensor<f32>
// CHECK-NEXT:    %[[P2:.*]] = kf.softmax %[[M]] dim 3
// CHECK-NEXT:    %[[MAX:.*]] = kf.max %[[M]] dims [3] keepdim : tensor<2x3x6x6xf32>
// CHECK-NEXT:    %[[HID:.*]] = kf.eq %[[MAX]], %[[INF]] : tensor<2x3x6x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[ZERO:.*]] = kf.constant dense<0.0> : tensor<f32>
// CHECK-NEXT:    %[[SAFE:.*]] = kf.where %[[HID]], %[[ZERO]], %[[P2]] : tensor<2x3x6x1xi1>, tensor<f32>, tensor<2x3x6x6xf32>
// CHECK-NEXT:    %scaled_dot_product_attention_2 = kf.matmul %[[SAFE]], %xs_2
// CHECK:         kf.constant dense<0.3> : tensor<f32>
// CHECK:         %scaled_dot_product_attention_4_masked = kf.add %scaled_dot_product_attention_4_scaled, %add : tensor<2x3x6x6xf32>, tensor<6x6xf32>
// CHECK:         %[[KH:.*]] = kf.reshape %{{.*}} [2, 1, 1, 6, 8] : tensor<2x1x6x8xf32>
// CHECK-NEXT:    %[[KR:.*]] = kf.broadcast_to %[[KH]] [2, 1, 3, 6, 8] : tensor<2x1x1x6x8xf32>
// CHECK-NEXT:    %{{.*}} = kf.reshape %[[KR]] [2, 3, 6, 8] : tensor<2x1x3x6x8xf32>
// CHECK:         %scaled_dot_product_attention_6_causal = kf.constant dense<{{\[}}[true, false, false, false, false, false], [true, true, false, false, false, false], [true, true, true, false, false, false], [true, true, true, true, false, false]]> : tensor<4x6xi1>
// CHECK:         return {{.*}} : tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x4x8xf32>

// Views are kf views (transpose, slice, broadcast_to) and reshapes; clone
// (.contiguous() of a view) is kf.contiguous; chunk is slices.
// CHECK-LABEL: func.func @views(
// CHECK:         %view = kf.reshape %xs_0 [4, 6] : tensor<2x3x4xf32>
// CHECK-NEXT:    %permute = kf.transpose %view [1, 0] : tensor<4x6xf32>
// CHECK-NEXT:    %permute_1 = kf.transpose %xs_0 [2, 0, 1] : tensor<2x3x4xf32>
// CHECK-NEXT:    %clone = kf.contiguous %permute_1 : tensor<4x2x3xf32>
// CHECK-NEXT:    %view_1 = kf.reshape %clone [12, 2] : tensor<4x2x3xf32>
// CHECK-NEXT:    %permute_2 = kf.transpose %xs_0 [1, 0, 2] : tensor<2x3x4xf32>
// CHECK-NEXT:    %clone_1 = kf.contiguous %permute_2 : tensor<3x2x4xf32>
// CHECK-NEXT:    %unsqueeze = kf.reshape %xs_0 [2, 1, 3, 4] : tensor<2x3x4xf32>
// CHECK-NEXT:    %squeeze = kf.reshape %unsqueeze [2, 3, 4] : tensor<2x1x3x4xf32>
// CHECK-NEXT:    %expand = kf.broadcast_to %squeeze [3, 2, 3, 4] : tensor<2x3x4xf32>
// CHECK-NEXT:    %slice_1 = kf.slice %xs_0 starts [0, 1, 0] ends [9223372036854775807, 9223372036854775807, 9223372036854775807] steps [1, 1, 1] : tensor<2x3x4xf32>
// CHECK-NEXT:    %slice_2 = kf.slice %slice_1 starts [0, 0, 0] ends [9223372036854775807, 9223372036854775807, 9223372036854775807] steps [1, 1, 2] : tensor<2x2x4xf32>
// CHECK-NEXT:    %select_slice = kf.slice %xs_0 starts [1, 0, 0] ends [2, 9223372036854775807, 9223372036854775807] steps [1, 1, 1] : tensor<2x3x4xf32>
// CHECK-NEXT:    %select = kf.reshape %select_slice [3, 4] : tensor<1x3x4xf32>
// CHECK:         %cat = kf.cat %xs_0, %mul dim 2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
// CHECK-NEXT:    %split_with_sizes_0 = kf.slice %xs_0 starts [0, 0, 0] ends [9223372036854775807, 9223372036854775807, 2] steps [1, 1, 1]
// CHECK-NEXT:    %split_with_sizes_1 = kf.slice %xs_0 starts [0, 0, 2] ends [9223372036854775807, 9223372036854775807, 4] steps [1, 1, 1]
// CHECK-NEXT:    %cat_1 = kf.cat %xs_0, %xs_0 dim 0

// Linear-algebra: 1-D operands reshaped around kf.matmul (it takes rank >= 2),
// addmm's alpha and beta as muls, a 3-D @ 2-D flattened to a 2-D matmul.
// CHECK-LABEL: func.func @matmuls(
// CHECK:         %mm = kf.matmul %xs_0, %xs_1 : tensor<4x8xf32>, tensor<8x6xf32>
// CHECK-NEXT:    %matmul = kf.matmul %xs_0, %xs_1 : tensor<4x8xf32>, tensor<8x6xf32>
// CHECK-NEXT:    %permute = kf.transpose %xs_3 [0, 2, 1] : tensor<2x4x6xf32>
// CHECK-NEXT:    %bmm = kf.matmul %xs_3, %permute : tensor<2x4x6xf32>, tensor<2x6x4xf32>
// CHECK-NEXT:    %reshape = kf.reshape %xs_2 [8, 1] : tensor<8xf32>
// CHECK-NEXT:    %matmul_1_mm = kf.matmul %xs_0, %reshape : tensor<4x8xf32>, tensor<8x1xf32>
// CHECK-NEXT:    %matmul_1 = kf.reshape %matmul_1_mm [4] : tensor<4x1xf32>
// CHECK-NEXT:    %reshape_1 = kf.reshape %xs_2 [1, 8] : tensor<8xf32>
// CHECK-NEXT:    %matmul_2_mm = kf.matmul %reshape_1, %xs_1 : tensor<1x8xf32>, tensor<8x6xf32>
// CHECK-NEXT:    %matmul_2 = kf.reshape %matmul_2_mm [6] : tensor<1x6xf32>
// CHECK-NEXT:    %mul = kf.mul %xs_2, %xs_2 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT:    %matmul_3 = kf.sum %mul : tensor<8xf32>
// CHECK:         %addmm_mm = kf.matmul %xs_0, %xs_1 : tensor<4x8xf32>, tensor<8x6xf32>
// CHECK-NEXT:    %cst = kf.constant dense<2.0> : tensor<f32>
// CHECK-NEXT:    %mul_1 = kf.mul %addmm_mm, %cst
// CHECK-NEXT:    %cst_1 = kf.constant dense<0.5> : tensor<f32>
// CHECK-NEXT:    %mul_2 = kf.mul %select, %cst_1
// CHECK-NEXT:    %addmm = kf.add %mul_1, %mul_2 : tensor<4x6xf32>, tensor<6xf32>
// CHECK-NEXT:    %permute_1 = kf.transpose %xs_1 [1, 0] : tensor<8x6xf32>
// CHECK-NEXT:    %matmul_4_2d = kf.reshape %xs_3 [-1, 6] : tensor<2x4x6xf32>
// CHECK-NEXT:    %matmul_4_mm = kf.matmul %matmul_4_2d, %permute_1 : tensor<8x6xf32>, tensor<6x8xf32>
// CHECK-NEXT:    %matmul_4 = kf.reshape %matmul_4_mm [2, 4, 8] : tensor<8x8xf32>

// Tensors made in forward() are constants: a literal tensor, arange, full.
// CHECK-LABEL: func.func @constants(
// CHECK:         %c_lifted_tensor_0 = kf.constant dense<[1.0, -1.0, 2.0, 0.5]> : tensor<4xf32>
// CHECK-NEXT:    %arange = kf.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
// CHECK-NEXT:    %add = kf.add %xs_0, %arange : tensor<2x4xf32>, tensor<4xi64>
// CHECK:         %full = kf.constant dense<3.0> : tensor<2x4xf32>

// Parameters and buffers are arguments, named in a comment; the composites
// stay whole (kf decomposes and fuses them itself).
// CHECK-LABEL: func.func @norms(
// CHECK-NEXT:    %p_ln_weight: tensor<8xf32>,        // arg0: ln.weight (parameter)
// CHECK:         %b_bn_running_mean: tensor<3xf32>,  // arg5: bn.running_mean (buffer)
// CHECK:         %y: tensor<4x3x5xf32>               // arg8: y (input)
// CHECK:         %layer_norm = kf.layer_norm %x weight %p_ln_weight : tensor<8xf32> bias %p_ln_bias : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<2x4x8xf32>
// CHECK-NEXT:    %layer_norm_1 = kf.layer_norm %x normalized_shape [8] eps 0.001 : tensor<2x4x8xf32>
// CHECK-NEXT:    %rms_norm = kf.rms_norm %x weight %p_rms_weight : tensor<8xf32> normalized_shape [8] eps 1.0e-06 : tensor<2x4x8xf32>
// CHECK-NEXT:    %rms_norm_1 = kf.rms_norm %x normalized_shape [8] : tensor<2x4x8xf32>
// CHECK-NEXT:    kf.batch_norm %y, %b_bn_running_mean, %b_bn_running_var weight %p_bn_weight : tensor<3xf32> bias %p_bn_bias : tensor<3xf32> eps 1.0e-05 : tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT:    %softmax = kf.softmax %x dim -1 : tensor<2x4x8xf32>
// CHECK-NEXT:    %log_softmax = kf.log_softmax %x dim 1 : tensor<2x4x8xf32>
// CHECK-NEXT:    %softmax_1 = kf.softmax %x dim 0 : tensor<2x4x8xf32>

// cross_entropy: log_softmax, then nll_loss with a one-hot mask (kf has no
// gather), ignored targets masked out, the mean over the targets kept.
// CHECK-LABEL: func.func @losses(
// CHECK:         %cross_entropy_loss_logp = kf.log_softmax %xs_0 dim 1 : tensor<6x5xf32>
// CHECK-NEXT:    %cross_entropy_loss_classes = kf.constant dense<{{\[\[}}0, 1, 2, 3, 4]]> : tensor<1x5xi64>
// CHECK-NEXT:    %cross_entropy_loss_target = kf.reshape %xs_1 [6, 1] : tensor<6xi64>
// CHECK-NEXT:    %cross_entropy_loss_onehot = kf.eq %cross_entropy_loss_classes, %cross_entropy_loss_target : tensor<1x5xi64>, tensor<6x1xi64>
// CHECK-NEXT:    %cst_1 = kf.constant dense<0.0> : tensor<f32>
// CHECK-NEXT:    %cross_entropy_loss_masked = kf.where %cross_entropy_loss_onehot, %cross_entropy_loss_logp, %cst_1 : tensor<6x5xi1>, tensor<6x5xf32>, tensor<f32>
// CHECK-NEXT:    %cross_entropy_loss_picked = kf.sum %cross_entropy_loss_masked dims [1] : tensor<6x5xf32>
// CHECK-NEXT:    %cross_entropy_loss_nll = kf.neg %cross_entropy_loss_picked : tensor<6xf32>
// CHECK-NEXT:    %cst_2 = kf.constant dense<-100> : tensor<i64>
// CHECK-NEXT:    %cross_entropy_loss_valid = kf.ne %xs_1, %cst_2 : tensor<6xi64>, tensor<i64>
// CHECK-NEXT:    %cross_entropy_loss_count = kf.cast %cross_entropy_loss_valid : tensor<6xi1> to f32
// CHECK-NEXT:    %cross_entropy_loss_kept = kf.where %cross_entropy_loss_valid, %cross_entropy_loss_nll, %cst_1
// CHECK-NEXT:    %cross_entropy_loss_sum = kf.sum %cross_entropy_loss_kept : tensor<6xf32>
// CHECK-NEXT:    %cross_entropy_loss_n = kf.sum %cross_entropy_loss_count : tensor<6xf32>
// CHECK-NEXT:    %cross_entropy_loss = kf.div %cross_entropy_loss_sum, %cross_entropy_loss_n : tensor<f32>, tensor<f32>
// nll_loss with class weights: the target's weight picked by the same mask.
// CHECK:         %[[W:.*]] = kf.reshape %xs_3 [1, 5] : tensor<5xf32>
// CHECK-NEXT:    %[[WM:.*]] = kf.where %nll_loss_nd_onehot, %[[W]], %cst_1 : tensor<6x5xi1>, tensor<1x5xf32>, tensor<f32>
// CHECK-NEXT:    %nll_loss_nd_wt = kf.sum %[[WM]] dims [1] : tensor<6x5xf32>

// var_mean is two reductions; trunc division of floats is written with
// where, ceil and floor (kf has no trunc); zeros_like is a constant.
// CHECK-LABEL: func.func @misc(
// CHECK:         %var_mean = kf.var %xs_0 dims [1] correction 0 : tensor<3x8xf32>
// CHECK-NEXT:    %var_mean_mean = kf.mean %xs_0 dims [1] : tensor<3x8xf32>
// CHECK:         %div_q = kf.div %xs_0, %xs_1 : tensor<3x8xf32>, tensor<3x8xf32>
// CHECK-NEXT:    %cst = kf.constant dense<0.0> : tensor<f32>
// CHECK-NEXT:    %div_neg = kf.lt %div_q, %cst
// CHECK-NEXT:    %ceil = kf.ceil %div_q
// CHECK-NEXT:    %floor = kf.floor %div_q
// CHECK-NEXT:    %div = kf.where %div_neg, %ceil, %floor : tensor<3x8xi1>, tensor<3x8xf32>, tensor<3x8xf32>
// CHECK-NEXT:    %full_like = kf.constant dense<0.0> : tensor<3x8xf32>
// CHECK:         %maximum = kf.maximum %xs_0, %sub
// CHECK-NEXT:    %clamp = kf.minimum %maximum, %xs_1
// CHECK-NEXT:    %std_mean = kf.std %xs_0 dims [0] correction 1 : tensor<3x8xf32>

// nn.Embedding, index_select and gather are kf.index_select and kf.gather
// (dim 0 for a table), never a one-hot matmul.
// CHECK-LABEL: func.func @gathers(
// CHECK:         %embedding = kf.index_select %p_wte_weight, %tok dim 0 : tensor<11x8xf32>, tensor<2x6xi64>
// CHECK:         %embedding_1 = kf.index_select %p_wpe_weight, %arange dim 0 : tensor<6x8xf32>, tensor<6xi64>
// CHECK:         %index_select = kf.index_select %x, %cols dim 1 : tensor<3x5xf32>, tensor<4xi64>
// CHECK-NEXT:    %gather = kf.gather %x, %expand dim 1 : tensor<3x5xf32>, tensor<3x4xi64>
// x[:, i] and w[tok] (aten.index with one index tensor) are index_select too.
// CHECK:         %index = kf.index_select %x, %view_1 dim 1 : tensor<3x5xf32>, tensor<2x2xi64>
// CHECK-NEXT:    %index_1 = kf.index_select %p_wte_weight, %tok dim 0 : tensor<11x8xf32>, tensor<2x6xi64>
// CHECK-NOT:     kf.matmul
// CHECK:         return {{.*}} : tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<3x2x2xf32>, tensor<2x6x8xf32>

// torch.cumsum is kf.cumsum along the dim given (negative made
// positive); ints give i64; dtype= casts first; a mask's .long() is a cast.
// CHECK-LABEL: func.func @scans(
// CHECK:         %cumsum = kf.cumsum %xs_0 dim 1 : tensor<2x3x8xf32>
// CHECK-NEXT:    %cumsum_1 = kf.cumsum %xs_0 dim 2 : tensor<2x3x8xf32>
// CHECK:         %cumsum_2 = kf.cumsum %mul dim 0 : tensor<2x3x8xf32>
// CHECK:         %_to_copy = kf.cast %xs_1 : tensor<3x16xi1> to i64
// CHECK-NEXT:    %cumsum_3 = kf.cumsum %_to_copy dim 1 : tensor<3x16xi64>
// CHECK:         %cumsum_4 = kf.cumsum %xs_2 dim 0 : tensor<4x5xi32>
// CHECK-NEXT:    %xs_2_f32 = kf.cast %xs_2 : tensor<4x5xi32> to f32
// CHECK-NEXT:    %cumsum_5 = kf.cumsum %xs_2_f32 dim 1 : tensor<4x5xf32>
// CHECK:         return {{.*}} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x16xi64>, tensor<4x5xi64>, tensor<4x5xf32>, tensor<f32>

// A convolution is an explicit GEMM: zero padding (kf.cat), one strided
// slice per kernel position (views), the im2col matrix (one kf.cat), the
// weight [F, K] times it, batched over the images (and the groups), its
// result NCHW as it is, the bias [F, 1] its epilogue. Pooling takes the same windows: max pooling pads with
// -inf and takes their kf.maximum; average pooling divides their sum by
// the window (count_include_pad=False: numpy's counts, a constant).
// CHECK-LABEL: func.func @convs(
// CHECK:         %convolution_pad = kf.cat %convolution_pad_edge, %x, %convolution_pad_edge dim 2 : tensor<2x3x1x16xf32>, tensor<2x3x15x16xf32>, tensor<2x3x1x16xf32>
// CHECK:         %convolution_win = kf.slice %convolution_pad_1 starts [0, 0, 0, 0] ends [9223372036854775807, 9223372036854775807, 15, 15] steps [1, 1, 2, 2] : tensor<2x3x17x18xf32>
// CHECK:         %convolution_im2col = kf.cat {{.*}} dim 2 : tensor<2x3x1x64xf32>,
// CHECK-NEXT:    %convolution_cols = kf.reshape %convolution_im2col [2, 27, 64] : tensor<2x3x9x64xf32>
// CHECK-NEXT:    %convolution_wmat = kf.reshape %p_c1_weight [8, 27] : tensor<8x3x3x3xf32>
// CHECK-NEXT:    %convolution_mm = kf.matmul %convolution_wmat, %convolution_cols : tensor<8x27xf32>, tensor<2x27x64xf32>
// CHECK-NEXT:    %convolution_bias = kf.reshape %p_c1_bias [8, 1] : tensor<8xf32>
// CHECK-NEXT:    %convolution_add = kf.add %convolution_mm, %convolution_bias : tensor<2x8x64xf32>, tensor<8x1xf32>
// CHECK-NEXT:    %convolution = kf.reshape %convolution_add [2, 8, 8, 8] : tensor<2x8x64xf32>
// The depthwise convolution: each kernel position's view times its weights
// [C, 1, 1] (a slice of the weight as [C, KH, KW]), summed (no im2col, no
// matmul).
// CHECK:         %convolution_1_taps = kf.reshape %p_dw_weight [8, 3, 3] : tensor<8x1x3x3xf32>
// CHECK:         %convolution_1_tap = kf.slice %convolution_1_taps starts [0, 0, 0] ends [9223372036854775807, 1, 1] steps [1, 1, 1] : tensor<8x3x3xf32>
// CHECK-NEXT:    %convolution_1_term = kf.mul %convolution_1_win, %convolution_1_tap : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>
// CHECK:         %convolution_1_sum = kf.add %convolution_1_term, %convolution_1_term_1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>
// CHECK:         %convolution_1_add = kf.add %convolution_1_sum_7, %convolution_1_bias : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>
// CHECK:         %convolution_2_mm = kf.matmul %convolution_2_wmat, %convolution_2_cols : tensor<2x3x12xf32>, tensor<2x2x12x64xf32>
// CHECK:         %max_pool2d_with_indices_pad_edge = kf.constant dense<0xFF800000> : tensor<2x8x1x8xf32>
// CHECK:         %max_pool2d_with_indices = kf.maximum
// CHECK:         %avg_pool2d_1_count = kf.constant dense<{{.*}}> : tensor<4x4xf32>
// CHECK:         %avg_pool2d_1 = kf.div %avg_pool2d_1_sum_7, %avg_pool2d_1_count : tensor<2x8x4x4xf32>, tensor<4x4xf32>
// A channel multiplier of 2 is an im2col GEMM batched over the groups.
// CHECK:         kf.matmul %{{.*}}_wmat, %{{.*}} : tensor<8x2x9xf32>, tensor<2x8x9x64xf32>
// A patch embedding (stride = kernel, no padding): the im2col matrix is
// the input's patches transposed, each element read once, no windows and
// no kf.cat. 4x4 patches of the 15x16 input: the last 3 rows dropped, 12
// positions (the rows form [N*P, K] against the weight read transposed);
// 1x2 patches: 120 positions (the columns form [N, K, P]).
// CHECK:         %convolution_8_whole = kf.slice %x starts [0, 0, 0, 0] ends [9223372036854775807, 9223372036854775807, 12, 16] steps [1, 1, 1, 1] : tensor<2x3x15x16xf32>
// CHECK-NEXT:    %convolution_8_patches = kf.reshape %convolution_8_whole [2, 3, 3, 4, 4, 4] : tensor<2x3x12x16xf32>
// CHECK-NEXT:    %convolution_8_patchesT = kf.transpose %convolution_8_patches [0, 2, 4, 1, 3, 5] : tensor<2x3x3x4x4x4xf32>
// CHECK-NEXT:    %convolution_8_rows = kf.reshape %convolution_8_patchesT [24, 48] : tensor<2x3x4x3x4x4xf32>
// CHECK-NOT:     kf.cat
// CHECK:         %convolution_9_patches = kf.reshape %x [2, 3, 15, 1, 8, 2] : tensor<2x3x15x16xf32>
// CHECK-NEXT:    %convolution_9_patchesT = kf.transpose %convolution_9_patches [0, 1, 3, 5, 2, 4] : tensor<2x3x15x1x8x2xf32>
// CHECK-NEXT:    %convolution_9_cols = kf.reshape %convolution_9_patchesT [2, 6, 120] : tensor<2x3x1x2x15x8xf32>
// CHECK-NEXT:    %convolution_9_wmat = kf.reshape %p_patch_wide_weight [5, 6] : tensor<5x3x1x2xf32>
// CHECK-NEXT:    %convolution_9_mm = kf.matmul %convolution_9_wmat, %convolution_9_cols : tensor<5x6xf32>, tensor<2x6x120xf32>
// CHECK-NOT:     kf.cat
// CHECK:         return {{.*}} : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>, tensor<2x6x8x8xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x1x1xf32>, tensor<2x8x2x4xf32>, tensor<2x5x5xf32>, tensor<2x8x4x4xf32>, tensor<2x16x8x8xf32>, tensor<2x4x9xf32>, tensor<2x8x1x1xf32>, tensor<2x8x3x4xf32>, tensor<2x5x15x8xf32>

// A torch.export.Dim is a '?'; reshapes keep it as -1.
// CHECK-LABEL: func.func @dynamic(
// CHECK:         %x: tensor<?x16xf32>            // arg2: x (input)
// CHECK-NEXT:  ) -> (tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x2x4xf32>, tensor<?x2x2xf32>) {
// CHECK-NEXT:    %view = kf.reshape %x [-1, 2, 8] : tensor<?x16xf32>
// CHECK-NEXT:    %p_fc_weight_t = kf.transpose %p_fc_weight [1, 0] : tensor<4x8xf32>
// The bias is added in the 2-D space, before the reshape back (as addmm):
// there it is the matmul's epilogue.
// CHECK-NEXT:    %linear_2d = kf.reshape %view [-1, 8] : tensor<?x2x8xf32>
// CHECK-NEXT:    %linear_mm = kf.matmul %linear_2d, %p_fc_weight_t : tensor<?x8xf32>, tensor<8x4xf32>
// CHECK-NEXT:    %linear_bias = kf.add %linear_mm, %p_fc_bias : tensor<?x4xf32>, tensor<4xf32>
// CHECK-NEXT:    %linear = kf.reshape %linear_bias [-1, 2, 4] : tensor<?x4xf32>
// A head split with the batch dynamic and a -1 in its sizes
// (view(x.shape[0], 2, -1, 4)): the -1 is read off the traced shape (2),
// the batch is kf's one -1.
// CHECK:         %view_1 = kf.reshape %x [-1, 2, 2, 4] : tensor<?x16xf32>
// CHECK:         %sum_2 = kf.sum %view_1 dims [3] : tensor<?x2x2x4xf32>

// CHECK-LABEL: func.func @bf16_f16(
// CHECK:         %cst = kf.constant dense<2.0> : tensor<bf16>
// CHECK-NEXT:    %mul = kf.mul %xs_0, %cst : tensor<4x8xbf16>, tensor<bf16>
// CHECK:         %sum_1 = kf.sum %mul_1 dims [1] : tensor<4x8xf16>
// CHECK-NEXT:    %softmax = kf.softmax %xs_0 dim -1 : tensor<4x8xbf16>
// CHECK-NEXT:    %layer_norm = kf.layer_norm %xs_1 normalized_shape [8] eps 1.0e-05 : tensor<4x8xf16>

// weights='constants': parameters and buffers are kf.constant values.
// CHECK-LABEL: func.func @weights_as_constants(
// CHECK-NEXT:    %x: tensor<3x2xf32>   // arg0: x (input)
// CHECK-NEXT:  ) -> tensor<3x2xf32> {
// CHECK-NEXT:    %p_w = kf.constant dense<{{\[\[}}1.0, 2.0], [3.0, -4.5]]> : tensor<2x2xf32>
// CHECK-NEXT:    %b_scale = kf.constant dense<0.25> : tensor<2xf32>
// CHECK-NEXT:    %matmul = kf.matmul %x, %p_w : tensor<3x2xf32>, tensor<2x2xf32>
