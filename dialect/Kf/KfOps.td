//===- KfOps.td - kf op definitions -------------------------*- tablegen -*-===//
#ifndef KFUSE_KF_OPS_TD
#define KFUSE_KF_OPS_TD

include "dialect/Kf/KfDialect.td"
include "dialect/Kf/KfAttrs.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"

//===----------------------------------------------------------------------===//
// Types and traits
//===----------------------------------------------------------------------===//

def Kf_Tensor : RankedTensorOf<[F32, F16, BF16, F64, I32, I64, I1]>;
def Kf_FloatTensor : RankedTensorOf<[F32, F16, BF16, F64]>;

// Marks ops that apply a scalar function to broadcast operands: one
// linalg.generic with parallel iterators each.
def Kf_Elementwise : NativeOpTrait<"KfElementwise"> {
  let cppNamespace = "::kfuse::kf";
}

// The result type rule of each elementwise op, named after its C++ enum
// kfuse::kf::DtypeRule (KfTypeRules.h).
class Kf_InferBy<string kind, string rule> {
  code definition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::kfuse::kf::infer}] # kind # [{Result(loc, getOperationName(),
          adaptor.getOperands().getTypes(), ::kfuse::kf::DtypeRule::}]
          # rule # [{, types);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

class Kf_BinaryOp<string mnemonic, string rule, string torchName,
                  list<Trait> traits = []>
    : Kf_Op<mnemonic, traits # [Pure, Kf_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise `torch." # torchName # "` with broadcasting";
  let description = [{
    Applies `torch.}] # torchName # [{` to the broadcast operands. The result
    shape is the broadcast of both shapes and its dtype follows PyTorch's
    promotion rule (see the dialect description).

    ```mlir
    %c = kf.}] # mnemonic # [{ %a, %b : tensor<4x8xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$lhs, Kf_Tensor:$rhs);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let extraClassDefinition = Kf_InferBy<"Elementwise", rule>.definition;
}

def Kf_AddOp : Kf_BinaryOp<"add", "Promote", "add", [Commutative]> {
  let hasFolder = 1;
}
def Kf_SubOp : Kf_BinaryOp<"sub", "PromoteNoBool", "sub"> {
  let hasFolder = 1;
}
def Kf_MulOp : Kf_BinaryOp<"mul", "Promote", "mul", [Commutative]> {
  let hasFolder = 1;
}
def Kf_DivOp : Kf_BinaryOp<"div", "TrueDivide", "div"> {
  let hasFolder = 1;
}
def Kf_MaximumOp : Kf_BinaryOp<"maximum", "Promote", "maximum", [Commutative]>;
def Kf_MinimumOp : Kf_BinaryOp<"minimum", "Promote", "minimum", [Commutative]>;
def Kf_PowOp : Kf_BinaryOp<"pow", "PromoteNoBool", "pow">;
// Python's floor division and modulo (ints and floats; bool refused, as
// PyTorch's kernels do). An integer divisor of 0 gives 0 for both, as numpy
// does (PyTorch raises on the CPU); INT_MIN // -1 wraps to INT_MIN.
def Kf_RemainderOp : Kf_BinaryOp<"remainder", "PromoteNoBool", "remainder"> {
  let description = [{
    `torch.remainder(a, b)`: Python's modulo, `a - floor(a / b) * b`; a
    non-zero result has the sign of the divisor `b` (`-7 % 3 = 2`,
    `7 % -3 = -2`). Floats compute `fmod(a, b)`, then add `b` when the
    signs differ, as PyTorch does (`x % 0.0` is NaN). Integers: a divisor
    of 0 gives 0, as numpy does (PyTorch raises on the CPU). bool is
    refused. Operands broadcast and promote.

    ```mlir
    %r = kf.remainder %a, %b : tensor<4x8xi32>, tensor<8xi32>
    ```
  }];
}
def Kf_FloorDivideOp : Kf_BinaryOp<"floor_divide", "PromoteNoBool",
                                   "floor_divide"> {
  let description = [{
    `torch.floor_divide(a, b)`: the quotient rounded toward negative
    infinity (`-7 // 2 = -4`), as Python's `//`. Floats follow PyTorch's
    `div_floor`: `(a - fmod(a, b)) / b`, less one when the remainder's sign
    differs from `b`'s, then floored; a divisor of 0.0 gives `a / 0.0`
    (inf or NaN). Integers: a divisor of 0 gives 0, as numpy does (PyTorch
    raises on the CPU: kfuse picks a defined value rather than undefined
    behaviour), and `INT_MIN // -1` wraps to `INT_MIN`. bool is refused.

    ```mlir
    %q = kf.floor_divide %a, %b : tensor<4x8xf32>, tensor<f32>
    ```
  }];
}

def Kf_EqOp : Kf_BinaryOp<"eq", "Compare", "eq", [Commutative]>;
def Kf_NeOp : Kf_BinaryOp<"ne", "Compare", "ne", [Commutative]>;
def Kf_LtOp : Kf_BinaryOp<"lt", "Compare", "lt">;
def Kf_LeOp : Kf_BinaryOp<"le", "Compare", "le">;
def Kf_GtOp : Kf_BinaryOp<"gt", "Compare", "gt">;
def Kf_GeOp : Kf_BinaryOp<"ge", "Compare", "ge">;

def Kf_WhereOp : Kf_Op<"where", [Pure, Kf_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise `torch.where(cond, a, b)` with broadcasting";
  let description = [{
    Picks `a` where `cond` is true and `b` elsewhere. `cond` must be bool
    (i1); all three broadcast together and the result dtype is the promotion
    of `a` and `b`.

    ```mlir
    %r = kf.where %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$condition, Kf_Tensor:$lhs, Kf_Tensor:$rhs);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:`
    type($condition) `,` type($lhs) `,` type($rhs)
  }];
  let extraClassDefinition = Kf_InferBy<"Elementwise", "Select">.definition;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Kf_UnaryOp<string mnemonic, string rule, string torchName,
                 list<Trait> traits = []>
    : Kf_Op<mnemonic, traits # [Pure, Kf_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise `torch." # torchName # "`";
  let description = [{
    Applies `torch.}] # torchName # [{` to every element.

    ```mlir
    %y = kf.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let extraClassDefinition = Kf_InferBy<"Elementwise", rule>.definition;
}

// Sign and magnitude ops keep the dtype and refuse bool, as PyTorch does.
def Kf_NegOp : Kf_UnaryOp<"neg", "SameNoBool", "neg"> { let hasFolder = 1; }
def Kf_AbsOp : Kf_UnaryOp<"abs", "SameNoBool", "abs">;
def Kf_ReluOp : Kf_UnaryOp<"relu", "SameNoBool", "relu">;
// Transcendental ops compute integer and bool inputs as f32.
def Kf_ExpOp : Kf_UnaryOp<"exp", "FloatOrF32", "exp">;
def Kf_LogOp : Kf_UnaryOp<"log", "FloatOrF32", "log">;
def Kf_SqrtOp : Kf_UnaryOp<"sqrt", "FloatOrF32", "sqrt">;
def Kf_RsqrtOp : Kf_UnaryOp<"rsqrt", "FloatOrF32", "rsqrt">;
def Kf_TanhOp : Kf_UnaryOp<"tanh", "FloatOrF32", "tanh">;
def Kf_SigmoidOp : Kf_UnaryOp<"sigmoid", "FloatOrF32", "sigmoid">;
def Kf_SinOp : Kf_UnaryOp<"sin", "FloatOrF32", "sin">;
def Kf_CosOp : Kf_UnaryOp<"cos", "FloatOrF32", "cos">;
def Kf_ReciprocalOp : Kf_UnaryOp<"reciprocal", "FloatOrF32", "reciprocal">;
def Kf_Exp2Op : Kf_UnaryOp<"exp2", "FloatOrF32", "exp2">;
def Kf_Log1pOp : Kf_UnaryOp<"log1p", "FloatOrF32", "log1p"> {
  let description = [{
    `log(1 + x)`, accurate for small `x` (libm's `log1p` on the CPU,
    libdevice's `__nv_log1p` on the GPU). Integer and bool inputs compute in
    f32.

    ```mlir
    %y = kf.log1p %x : tensor<4x8xf32>
    ```
  }];
}
def Kf_Expm1Op : Kf_UnaryOp<"expm1", "FloatOrF32", "expm1"> {
  let description = [{
    `exp(x) - 1`, accurate for small `x` (tiny and denormal `x` give `x`):
    libdevice's `__nv_expm1f` on the GPU; on the CPU, f64 arithmetic rounded
    once (`kf-host-math`: within 0.5 ulp and a hair for f32, see
    docs/reference/accuracy.md), f64 inputs libm's `expm1`. Integer and bool
    inputs compute in f32.

    ```mlir
    %y = kf.expm1 %x : tensor<4x8xf32>
    ```
  }];
}
def Kf_ErfOp : Kf_UnaryOp<"erf", "FloatOrF32", "erf">;
// Rounding ops keep the dtype: an integer input is its own result (as
// PyTorch's floor/ceil/round of an int tensor); bool is refused.
def Kf_FloorOp : Kf_UnaryOp<"floor", "SameNoBool", "floor"> { let hasFolder = 1; }
def Kf_CeilOp : Kf_UnaryOp<"ceil", "SameNoBool", "ceil"> { let hasFolder = 1; }
def Kf_RoundOp : Kf_UnaryOp<"round", "SameNoBool", "round"> {
  let hasFolder = 1;
  let description = [{
    `torch.round(x)` (`decimals=0`): to the nearest integer, halves to the
    even one (`0.5 -> 0`, `1.5 -> 2`, `-2.5 -> -2`). An integer input is its
    own result; bool is refused.

    ```mlir
    %y = kf.round %x : tensor<4x8xf32>
    ```
  }];
}

def Kf_ClampOp : Kf_Op<"clamp", [Pure, Kf_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise `torch.clamp(x, min, max)` with scalar bounds";
  let description = [{
    `min(max(x, min), max)` with scalar bounds, either of which may be
    absent (not both). A bound is an integer (`2`) or a float (`2.0`)
    attribute, and the result dtype is PyTorch's for a tensor and a Python
    scalar: a float bound on an integer tensor gives f32, otherwise the
    tensor's dtype is kept (an integer bound must fit it). bool is refused.
    Floats compare and select, as PyTorch's `min(max(x, min), max)`: an
    element equal to a bound is kept, so `clamp(-0.0, 0.0, 6.0)` is `-0.0`.
    NaN propagates as in torch.clamp: a NaN element, or a NaN bound, gives
    NaN; with `min > max` every element is `max`. Tensor bounds are
    `kf.maximum`/`kf.minimum`.

    ```mlir
    %y = kf.clamp %x min(0.0) max(6.0) : tensor<4x8xf32>   // relu6
    %z = kf.clamp %i min(-3) : tensor<8xi32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input,
                       OptionalAttr<AnyAttrOf<[I64Attr, F64Attr]>>:$min,
                       OptionalAttr<AnyAttrOf<[I64Attr, F64Attr]>>:$max);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = [{
    $input (`min` `(` $min^ `)`)? (`max` `(` $max^ `)`)? attr-dict `:` type($input)
  }];
}
// Activations that PyTorch implements for floating types only.
def Kf_GeluOp : Kf_UnaryOp<"gelu", "FloatOnly", "nn.functional.gelu"> {
  let description = [{
    The exact GELU (`approximate='none'`): `0.5 * x * (1 + erf(x / sqrt(2)))`.
    Floating-point inputs only.
  }];
}
def Kf_SiluOp : Kf_UnaryOp<"silu", "FloatOnly", "nn.functional.silu"> {
  let description = "`x * sigmoid(x)`. Floating-point inputs only.";
}

def Kf_CastOp : Kf_Op<"cast", [Pure, Kf_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise conversion to another dtype (`Tensor.to(dtype)`)";
  let description = [{
    Converts every element to `dtype` as PyTorch does: floats to integers
    truncate toward zero, anything to bool is `x != 0`, bool to a number is
    0 or 1.

    ```mlir
    %y = kf.cast %x : tensor<4xf32> to i32
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, TypeAttr:$dtype);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` $dtype";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Kf_ConstantOp : Kf_Op<"constant",
    [ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "a constant tensor (dense or splat; 0-d for scalars)";
  let description = [{
    A constant launches no kernel: it lowers to `arith.constant`.

    ```mlir
    %zero = kf.constant dense<0.0> : tensor<f32>
    %w = kf.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Kf_ReduceOp<string mnemonic, string rule, string torchName>
    : Kf_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch." # torchName # "` over a list of dims";
  let description = [{
    Reduces over `dims` (negative dims count from the end; no dims means
    every dim). With `keepdim` the reduced dims stay as size 1.

    ```mlir
    %s = kf.}] # mnemonic # [{ %x dims [1] keepdim : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, OptionalAttr<DenseI64ArrayAttr>:$dims,
                       UnitAttr:$keepdim);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = [{
    $input (`dims` $dims^)? (`keepdim` $keepdim^)? attr-dict `:` type($input)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::kfuse::kf::inferReductionResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getDims(),
          adaptor.getKeepdim(), ::kfuse::kf::DtypeRule::}] # rule # [{, types);
    }
    ::llvm::SmallVector<int64_t> $cppClass::getReducedDims() {
      return ::kfuse::kf::normalizeReduceDims(getInput().getType().getRank(),
                                              getDims());
    }
  }];
  let extraClassDeclaration = [{
    /// The reduced dims, non-negative and sorted.
    ::llvm::SmallVector<int64_t> getReducedDims();
  }];
}

def Kf_SumOp : Kf_ReduceOp<"sum", "SumPromote", "sum">;
def Kf_MeanOp : Kf_ReduceOp<"mean", "FloatOnly", "mean">;
def Kf_MaxOp : Kf_ReduceOp<"max", "Same", "amax">;
def Kf_MinOp : Kf_ReduceOp<"min", "Same", "amin">;

class Kf_ArgExtremeOp<string mnemonic, string extreme, string reduction>
    : Kf_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch." # mnemonic # "(x, dim, keepdim)`, a composite";
  let description = [{
    The index (i64) of the first }] # extreme # [{ along `dim`; without
    `dim`, of the flattened tensor (a 0-d result; with `keepdim`, every dim
    1). NaN counts as the }] # extreme # [{, as in PyTorch: a row holding
    NaN gives the index of its first NaN. Integer and float inputs; bool is
    refused, and so are an empty dim and a dynamic one (its index constant
    needs the size).

    `kf-decompose` writes it as two reductions over the same rows: `m =
    kf.}] # reduction # [{(x, dim, keepdim)`, then `min(where(x == m or x != x,
    iota, n), dim)` with `iota` a constant `[0, n)` along `dim`. kfuse
    counts 6 eager kernels for a float input (the }] # reduction # [{, `x == m`,
    the NaN test `x != x`, their `or`, the `where`, the `min`) and 4 for an
    integer one (no NaN test), where PyTorch launches 1; both reductions
    run over the same rows, so over the last dim they fuse into one row
    kernel.

    ```mlir
    %i = kf.}] # mnemonic # [{ %x dim 1 : tensor<4x8xf32>   // tensor<4xi64>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, OptionalAttr<I64Attr>:$dim,
                       UnitAttr:$keepdim);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = [{
    $input (`dim` $dim^)? (`keepdim` $keepdim^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Kf_ArgmaxOp : Kf_ArgExtremeOp<"argmax", "maximum", "max">;
def Kf_ArgminOp : Kf_ArgExtremeOp<"argmin", "minimum", "min">;

def Kf_CumsumOp : Kf_Op<"cumsum", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.cumsum(x, dim)`: running sums along one dim";
  let description = [{
    `out[..., i, ...] = x[..., 0, ...] + ... + x[..., i, ...]` along `dim`
    (negative counts from the end). The dtype is torch.cumsum's: floats
    keep theirs (f16 and bf16 accumulate in f32, rounded once per element),
    integers and bool give i64. A 0-d input is refused (there is no dim to
    scan; PyTorch returns the input).

    kf-to-linalg writes it as a `linalg.generic` any mapping can run: a
    reduction over a second loop `j` along `dim`, each term kept where `j
    <= i` (`select`), so element `i` sums the `i + 1` first terms. That form
    does `n (n + 1) / 2` additions a line; the kernel mapping `scan`
    (kf-assign-kernel-mappings, on both targets) recognizes it and runs
    each line once, in order, with a compensated running sum: `n`
    additions. Elementwise producers fuse into it (computed in its body,
    at each term); any other op in its kernel is refused by the mapping,
    and the kernel formed again with the scan alone.

    ```mlir
    %c = kf.cumsum %x dim 1 : tensor<4x8xf32>        // tensor<4x8xf32>
    %p = kf.cumsum %mask dim -1 : tensor<2x16xi1>    // tensor<2x16xi64>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, I64Attr:$dim);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input `dim` $dim attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    /// `dim`, non-negative.
    int64_t getScannedDim() {
      int64_t rank = getInput().getType().getRank();
      int64_t dim = static_cast<int64_t>(getDim()); // I64Attr reads as uint64_t
      return dim < 0 ? dim + rank : dim;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Kf_ReshapeOp : Kf_Op<"reshape", [Pure, InferTypeOpAdaptor]> {
  let summary = "`Tensor.reshape(shape)`; one dim may be -1";
  let description = [{
    Tensors in kfuse are contiguous, so a reshape moves no data and launches
    no kernel: it lowers to `tensor.collapse_shape`/`tensor.expand_shape`.

    ```mlir
    %y = kf.reshape %x [2, -1] : tensor<8xf32>   // tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input $shape attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Kf_TransposeOp : Kf_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "`Tensor.permute(perm)`, a view";
  let description = [{
    Result dim `i` is input dim `perm[i]`; as in PyTorch's permute, a
    negative dim counts from the end (`-1` is the last). A view, as in
    PyTorch: it launches no kernel. The elementwise ops and reductions that
    read it read its input in place, through a permuted indexing map
    (kf-to-linalg folds it into them); only a transpose that must exist as a
    tensor of its own (returned, or read by an op that needs contiguous
    data) is a copy kernel, as `.contiguous()` after a permute is.

    ```mlir
    %y = kf.transpose %x [1, 0] : tensor<4x8xf32>   // tensor<8x4xf32>
    %z = kf.transpose %x [-1, 0] : tensor<4x8xf32>  // the same
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input $permutation attr-dict `:` type($input)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The permutation with negative dims counted from the end (what every
    /// reader of the op uses; the attribute keeps what the user wrote).
    ::llvm::SmallVector<int64_t> getNormalizedPermutation() {
      ::llvm::SmallVector<int64_t> perm(getPermutation());
      int64_t rank = getInput().getType().getRank();
      for (int64_t &p : perm)
        if (p < 0)
          p += rank;
      return perm;
    }
  }];
}

def Kf_SliceOp : Kf_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "`x[start:end:step, ...]`, a view";
  let description = [{
    Basic slicing with a start, an end and a step per dim, as Python's:
    negative `start`/`end` count from the end, both are clamped to the dim,
    `step` is at least 1 (PyTorch refuses others); the result dim has
    `ceil((end - start) / step)` elements (0 when `end <= start`). A view,
    as in PyTorch: no kernel; its readers read the input through the map
    `i -> start + i * step` (kf-to-linalg folds it into them), and a slice
    that must exist as a tensor of its own is a copy kernel.

    A dynamic dim can only be kept whole (`start` 0, `step` 1 and `end`
    9223372036854775807, PyTorch's "to the end").

    ```mlir
    // x[1:, ::2] of a 4x8 tensor: tensor<3x4xf32>
    %y = kf.slice %x starts [1, 0] ends [9223372036854775807, 8] steps [1, 2] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = [{
    $input `starts` $starts `ends` $ends `steps` $steps attr-dict `:` type($input)
  }];
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The start of each dim, after counting from the end and clamping.
    ::llvm::SmallVector<int64_t> getNormalizedStarts();
  }];
}

def Kf_ContiguousOp : Kf_Op<"contiguous", [Pure, SameOperandsAndResultType]> {
  let summary = "`Tensor.contiguous()`: an explicit materialization";
  let description = [{
    Writes its input to memory as a tensor of its own: a copy kernel that
    reads a view (transpose, slice) in its layout and writes it contiguous.
    A barrier for kernel fusion: the ops that compute its input may fuse
    into its kernel (it writes their result in the view's layout), but the
    ops that read it read memory (boundary `materialize`).

    ```mlir
    %t = kf.transpose %x [1, 0] : tensor<4x8xf32>
    %c = kf.contiguous %t : tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Kf_BroadcastToOp : Kf_Op<"broadcast_to", [Pure, InferTypeOpAdaptor]> {
  let summary = "`Tensor.expand(shape)`; -1 keeps a dim";
  let description = [{
    Broadcasts to `shape` by the usual rule (leading dims added, static 1
    dims stretched). An elementwise consumer reads through it with an
    indexing map (the canonicalizer folds it into the consumer), so it costs
    no kernel there; only a broadcast that must exist as a tensor of its own
    is materialised.

    ```mlir
    %y = kf.broadcast_to %x [4, 8] : tensor<8xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$input $shape attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Kf_CatOp : Kf_Op<"cat", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.cat(tensors, dim)`: one eager kernel";
  let description = [{
    Joins the tensors along `dim` (negative counts from the end): every
    other dim must be equal (a dynamic dim is checked at run time), and the
    dtypes promote as `torch.cat` promotes them (`torch.result_type` over
    the list). 0-d tensors are refused, as PyTorch refuses them. One eager
    kernel: kf-to-linalg writes it as one `linalg.generic` over the result
    (tagged `cat`) that reads every input through a clamped index and picks
    the input that owns each element, so kernel formation sees one op and
    the flat GPU mapping runs it.

    ```mlir
    %c = kf.cat %a, %b dim 0 : tensor<2x8xf32>, tensor<3x8xf32>   // tensor<5x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Kf_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$inputs `dim` $dim attr-dict `:` type($inputs)";
}

//===----------------------------------------------------------------------===//
// Gathers: elements read at indices known only when the program runs
//===----------------------------------------------------------------------===//

def Kf_IndexTensor : RankedTensorOf<[I32, I64]>;

def Kf_IndexSelectOp : Kf_Op<"index_select", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.index_select(input, dim, index)` and `F.embedding`";
  let description = [{
    Picks the slices of `input` along `dim` that `index` names, for an
    index of any rank (numpy's `take`): the result's shape is
    `input.shape[:dim] + index.shape + input.shape[dim + 1:]`. With a 1-D
    index it is `torch.index_select`; with `dim = 0` it is
    `F.embedding(index, input)` (rows of a table for tokens of any shape).

    `input` holds floats and is static along `dim` (a table: weights).
    PyTorch raises an error on an index outside `[0, input.shape[dim])`;
    a kernel cannot, so such an index gives NaN elements, which every later
    op carries to the result: never a read outside the input, never a
    silent value. Integer and bool inputs are not supported yet (they have
    no NaN to show a bad index with).

    One eager kernel: kf-to-linalg writes it as a `linalg.generic` over
    the result that reads `index` through its indexing map and `input` at
    the loaded index (`tensor.extract` in the body), so consumers fuse
    into it as into any elementwise op; kernel formation keeps a kernel
    that computes `input` apart from the one that gathers from it
    (boundary `gathered`).

    ```mlir
    // tokens of a 2x5 batch looked up in a 100x16 table: tensor<2x5x16xf32>
    %e = kf.index_select %table, %tokens dim 0 : tensor<100x16xf32>, tensor<2x5xi64>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input, Kf_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $index `dim` $dim attr-dict `:` type($input) `,` type($index)
  }];
}

def Kf_GatherOp : Kf_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.gather(input, dim, index)`";
  let description = [{
    Reads one element of `input` for each element of `index` (of the same
    rank): along `dim` at the position `index` holds, along every other dim
    at the index element's own position, as `torch.gather`:
    `out[i][j] = input[index[i][j]][j]` for `dim = 0`. The result has the
    index's shape; each dim of it other than `dim` must be at most the
    input's (checked at run time where dynamic).

    As for `kf.index_select`: float inputs, static along `dim`, and an index
    outside `[0, input.shape[dim])` gives NaN; one eager kernel, a
    `linalg.generic` over the index that reads `input` in its body.

    ```mlir
    %g = kf.gather %x, %i dim 1 : tensor<4x8xf32>, tensor<4x3xi64>   // tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input, Kf_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $index `dim` $dim attr-dict `:` type($input) `,` type($index)
  }];
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

def Kf_MatmulOp : Kf_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.matmul` for 2-D and batched operands";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`; the batch dims broadcast.
    Operands of rank below 2 are refused. Dtypes promote; bool is refused.

    ```mlir
    %c = kf.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Kf_Tensor:$lhs, Kf_Tensor:$rhs);
  let results = (outs Kf_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

//===----------------------------------------------------------------------===//
// Composites (rewritten into primitives by kf-decompose)
//===----------------------------------------------------------------------===//

class Kf_SoftmaxLikeOp<string mnemonic, string torchName>
    : Kf_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch." # torchName # "(x, dim)`, a composite";
  let arguments = (ins Kf_FloatTensor:$input, I64Attr:$dim);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = "$input `dim` $dim attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Kf_SoftmaxOp : Kf_SoftmaxLikeOp<"softmax", "softmax"> {
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `dim`; `kf-decompose`
    writes it out in primitives.

    ```mlir
    %y = kf.softmax %x dim -1 : tensor<4x8xf32>
    ```
  }];
}
def Kf_LogSoftmaxOp : Kf_SoftmaxLikeOp<"log_softmax", "log_softmax"> {
  let description = [{
    `(x - max(x)) - log(sum(exp(x - max(x))))` along `dim`; `kf-decompose`
    writes it out in primitives.

    ```mlir
    %y = kf.log_softmax %x dim 1 : tensor<4x8xf32>
    ```
  }];
}

def Kf_LayerNormOp : Kf_Op<"layer_norm",
    [Pure, InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "`torch.nn.functional.layer_norm`, a composite";
  let description = [{
    Normalises over the trailing dims given by `normalized_shape` (which must
    match them): `(x - mean) * rsqrt(var + eps) * weight + bias`, with the
    biased variance, as PyTorch computes it. `weight` and `bias` are optional
    and have shape `normalized_shape`. On the CPU the mean, the variance and
    the normalization of f32, f16 and bf16 rows are computed in f64 and
    rounded to f32 before the weight and bias: a constant row of finite
    values is exactly 0, and rows of values up to f32's maximum normalize
    without overflow; the GPU computes in f32, as PyTorch's CUDA kernels.

    ```mlir
    %y = kf.layer_norm %x weight %w : tensor<8xf32> bias %b : tensor<8xf32>
           normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input,
                       Optional<Kf_FloatTensor>:$weight,
                       Optional<Kf_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$normalized_shape, F64Attr:$eps);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` $weight^ `:` type($weight))?
    (`bias` $bias^ `:` type($bias))?
    `normalized_shape` $normalized_shape `eps` $eps attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

class Kf_VarianceLikeOp<string mnemonic, string formula>
    : Kf_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch." # mnemonic # "(x, dims, correction, keepdim)`, a composite";
  let description = [{
    }] # formula # [{ over `dims` (all dims when absent), with `s` the sum of
    squared deviations from the mean and `n` the number of reduced elements;
    `correction` defaults to 1 (Bessel's), 0 gives the biased estimate.
    When `n - correction <= 0` the divisor is 0, so the result is inf or NaN,
    as PyTorch's. Floating-point inputs only (as torch.var/std). On the
    CPU f32, f16 and bf16 compute in f64 and round once (PyTorch's CPU var
    accumulates in double): values past 1.8e19, whose f32 squares overflow,
    or below 1e-19, whose squares underflow, keep their variance
    (`std([1e30, 0, 0], correction=0)` is 4.7e29). The GPU computes f32 in
    f32 (as PyTorch's CUDA kernels), f16 and bf16 in f32. `kf-decompose`
    writes it out two-pass, as layer_norm's moments: `mean`, `x - mean`,
    its square, `sum`, the
    division (and `sqrt`): over the last dim the five (six) eager kernels
    fuse into one row kernel. A dynamic reduced dim makes `n` a count taken
    in kf, `sum(x == x or x != x)` (true for NaN too), cast, less the
    correction, `relu`: 7 more eager kernels, in the same row kernel.

    ```mlir
    %v = kf.}] # mnemonic # [{ %x dims [1] correction 0 keepdim : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$dims,
                       DefaultValuedAttr<I64Attr, "1">:$correction,
                       UnitAttr:$keepdim);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`dims` $dims^)? (`correction` $correction^)? (`keepdim` $keepdim^)?
    attr-dict `:` type($input)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::kfuse::kf::inferReductionResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getDims(),
          adaptor.getKeepdim(), ::kfuse::kf::DtypeRule::FloatOnly, types);
    }
  }];
}

def Kf_VarOp : Kf_VarianceLikeOp<"var", "`s / (n - correction)`">;
def Kf_StdOp : Kf_VarianceLikeOp<"std", "`sqrt(s / (n - correction))`">;

def Kf_RmsNormOp : Kf_Op<"rms_norm", [Pure, InferTypeOpAdaptor]> {
  let summary = "`torch.nn.functional.rms_norm`, a composite";
  let description = [{
    `x * rsqrt(mean(x * x) + eps) [* weight]` (on the CPU the mean square
    and its rsqrt in f64 for f32, f16 and bf16, where f32 squares overflow
    past 1.8e19; the product in f32), the mean over the trailing
    dims given by `normalized_shape` (which must match them). `weight` is
    optional and has shape `normalized_shape` and the input's dtype. Without
    `eps`, `torch.finfo(dtype).eps` of the input's dtype (f32: 2^-23, f16:
    2^-10, bf16: 2^-7, f64: 2^-52), as the Python docs state. f16 and bf16
    compute in f32 and round once. `kf-decompose` writes it out: `mul`,
    `mean`, `add`, `rsqrt`, `mul` (and the weight's `mul`): 5 (6) eager
    kernels, one row kernel once fused.

    ```mlir
    %y = kf.rms_norm %x weight %w : tensor<8xf32> normalized_shape [8] : tensor<4x8xf32>
    %z = kf.rms_norm %x normalized_shape [8] eps 1.0e-06 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input,
                       Optional<Kf_FloatTensor>:$weight,
                       DenseI64ArrayAttr:$normalized_shape,
                       OptionalAttr<F64Attr>:$eps);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` $weight^ `:` type($weight))?
    `normalized_shape` $normalized_shape (`eps` $eps^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Kf_BatchNormOp : Kf_Op<"batch_norm",
    [Pure, InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "`torch.nn.functional.batch_norm(training=False)`, a composite";
  let description = [{
    Batch norm in inference form: `x` is `[N, C, ...]` (rank 2 or more),
    `running_mean`, `running_var` and the optional `weight` and `bias` are
    `[C]`, and `y = (x - mean[c]) * rsqrt(var[c] + eps) [* weight[c]]
    [+ bias[c]]` for the elements of channel `c` (`eps` defaults to 1e-5, as
    PyTorch's). The parameters are floats of any dtype (PyTorch allows f32
    statistics with an f16 input); the result has the input's dtype, f16 and
    bf16 computing in f32. `kf-decompose` writes it out with the
    parameters reshaped to `[C, 1, ...]`: `sub`, `add`, `rsqrt`, `mul` (and
    the weight's `mul`, the bias's `add`), 4 to 6 eager kernels (PyTorch: 1),
    one pointwise kernel once fused.

    ```mlir
    %y = kf.batch_norm %x, %mean, %var weight %w : tensor<3xf32> bias %b : tensor<3xf32>
           eps 1.0e-05 : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
    ```
  }];
  let arguments = (ins Kf_FloatTensor:$input, Kf_FloatTensor:$running_mean,
                       Kf_FloatTensor:$running_var,
                       Optional<Kf_FloatTensor>:$weight,
                       Optional<Kf_FloatTensor>:$bias,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$eps);
  let results = (outs Kf_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $running_mean `,` $running_var
    (`weight` $weight^ `:` type($weight))? (`bias` $bias^ `:` type($bias))?
    (`eps` $eps^)? attr-dict `:` type($input) `,` type($running_mean) `,`
    type($running_var)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernel regions (made by kf-form-kernels on linalg-on-tensors)
//===----------------------------------------------------------------------===//

// kf.kernel and kf.yield bufferize as scf.execute_region and scf.yield do
// (KfBufferization.cpp): the kernel survives bufferization, on buffers.
def Kf_KernelOp : Kf_Op<"kernel", [
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects, RecursivelySpeculatable,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["getAliasingOpOperands", "getBufferType", "bufferize"]>]> {
  let summary = "one GPU kernel: the ops that run in one launch";
  let description = [{
    A kernel region groups the linalg ops that kfuse runs as one kernel (in
    the spirit of IREE's dispatch regions): values defined inside never go
    to GPU memory unless they are results of the region. Counting kernels
    is counting `kf.kernel` ops. The region is not isolated from above: it
    reads the values it captures.

    `name` says what the kernel does (its kind and its ops in program
    order, then an index unique in the module), as in Inductor's
    `triton_poi_fused_add_relu_0`; `kind` is pointwise, reduction, matmul or
    transpose; `ops` lists the eager ops it holds, in program order (the
    report's); `mapping`, once decided (before bufferization), says how the
    kernel is launched: flat, row, grid_reduction, row_chain,
    multi_reduction, matmul, attention or serial; `variant`, decided with it for a mapping of several designs,
    which one (a GPU matmul: wgmma, tensor_core, simt or reference; a GPU row or
    row_chain kernel: on_chip or through_memory); `tiles`, with the
    tensor_core variant, its `#kf.matmul_tiles` (block tile, warps,
    stages, block order).

    ```mlir
    %c = kf.kernel "pointwise_add_relu_0" kind pointwise -> tensor<8xf32>
        attributes {ops = ["add", "relu"]} {
      %0 = linalg.generic ... // add
      %1 = linalg.generic ... // relu
      kf.yield %1 : tensor<8xf32>
    }
    ```

    The kernel survives bufferization: one-shot-bufferize makes the same
    region on buffers (its results memrefs, as scf.execute_region's);
    kf-hoist-kernel-buffers then allocates its buffers before it and
    drops its results, so that a bufferized kernel returns nothing and
    reads and writes buffers that exist before it, as its launch will:

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat {
      linalg.generic ... outs(%a : memref<8xf32>)
    }
    ```
  }];
  // `ops`: the eager ops it holds ("add", "relu"), in program order; they
  // outlive the merging of its linalg ops (kf-form-kernels).
  let arguments = (ins StrAttr:$sym_name, Kf_KernelKind:$kind,
                       OptionalAttr<Kf_KernelMapping>:$mapping,
                       OptionalAttr<Kf_KernelVariant>:$variant,
                       OptionalAttr<Kf_MatmulTilesAttr>:$tiles,
                       OptionalAttr<StrArrayAttr>:$ops);
  let results = (outs Variadic<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `kind` $kind (`mapping` $mapping^)? (`variant` $variant^)?
    (`tiles` $tiles^)? (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Kf_YieldOp : Kf_Op<"yield", [Pure, Terminator, HasParent<"KernelOp">,
                                 ReturnLike,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "mustBufferizeInPlace", "bufferize"]>]> {
  let summary = "the values a kernel writes to memory";
  let arguments = (ins Variadic<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ /* yields nothing */ }]>];
}

#endif // KFUSE_KF_OPS_TD
