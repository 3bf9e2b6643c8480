// REQUIRES: torch
// Import-time folding (importer/kfuse_import/fold.py): an op kf refuses whose
// every input is a constant (arange of a static size, a non-persistent buffer)
// is computed by PyTorch at import and enters the program as a kf.constant;
// a buffer that only folded ops read is no longer an argument. Expected values
// by hand: cumsum([0, 1, 2, 3, 4]) = [0, 1, 3, 6, 10]; types [0, 1, 1, 0, 1]
// gathered at [4, 3, 2, 1, 0] = [1, 0, 1, 1, 0].
// RUN: %torch-python %s.py > %t.mlir
// RUN: FileCheck %s < %t.mlir
// The folded programs are valid kf.
// RUN: sed -n '/^func.func @positions/,/^}/p;/^func.func @token_types/,/^}/p;/^func.func @causal_mask/,/^}/p' %t.mlir | kfuse-opt -o /dev/null

// CHECK-LABEL: func.func @positions(
// CHECK:         %cumsum = kf.constant dense<[0, 1, 3, 6, 10]> : tensor<5xi64>  // aten.cumsum.default of constants, folded at import
// CHECK-NEXT:    %add = kf.add %x, %cumsum : tensor<2x5xi64>, tensor<5xi64>

// CHECK-LABEL: func.func @token_types(
// CHECK-NEXT:    %p_table_weight: tensor<2x3xf32>,  // arg0: table.weight (parameter)
// CHECK-NEXT:    %x: tensor<2x5x3xf32>              // arg1: x (input)
// CHECK:         %gather = kf.constant dense<{{\[}}[1, 0, 1, 1, 0]]> : tensor<1x5xi64>  // aten.gather.default of constants, folded at import
// CHECK-NEXT:    %embedding = kf.index_select %p_table_weight, %gather dim 0

// A constant subgraph of ops kf has is computed at import too when its
// values are small (at most 2^16 elements: a causal mask over 4 positions,
// by hand the lower triangle): one constant where a lowered op reads it,
// none for the aranges and the compare before it.
// CHECK-LABEL: func.func @causal_mask(
// CHECK-NOT:     kf.ge
// CHECK:         %ge = kf.constant dense<{{\[}}[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]> : tensor<4x4xi1>  // aten.ge.Tensor of constants, folded at import
// CHECK:         kf.where %ge, %x,
// Over 300 positions the mask (90000 elements) is computed by the program;
// its small inputs (the aranges) are constants.
// CHECK-LABEL: func.func @large_mask(
// CHECK:         %ge = kf.ge %unsqueeze, %unsqueeze_1 : tensor<300x1xi64>, tensor<1x300xi64>

// A persistent buffer is a weight (an argument, so that new weights need no
// new import): an op of it is not folded; the cumsum runs in the program.
// CHECK-LABEL: func.func @weight_cumsum(
// CHECK:         %cumsum = kf.cumsum %b_w dim 0 : tensor<4xf32>
// A size of a dynamic dim is an input: not folded (and the arange of it
// is refused).
// CHECK: size_cumsum: UnsupportedOp op=aten.arange.start_step reason=a scalar computed from dynamic sizes
// An input: not folded.
// CHECK-LABEL: func.func @input_cumsum(
// CHECK:         %cumsum = kf.cumsum %x dim 0 : tensor<4xf32>
