//===- KfDialect.td - the kf tensor dialect ----------------*- tablegen -*-===//
#ifndef KFUSE_KF_DIALECT_TD
#define KFUSE_KF_DIALECT_TD

include "mlir/IR/OpBase.td"

def Kf_Dialect : Dialect {
  let name = "kf";
  let cppNamespace = "::kfuse::kf";
  let summary = "PyTorch-like tensor ops with broadcasting and dtype promotion";
  let description = [{
    `kf` models the tensor programs that eager PyTorch runs one kernel per op.
    Operands and results are ranked tensors (static or dynamic dims) of f32,
    f16, bf16, f64, i32, i64 or i1 (bool). Result types are inferred the way
    PyTorch infers them:

    * Shapes broadcast as in NumPy/PyTorch: dims align from the right, a
      static 1 stretches to the other size. A dynamic dim (`?`) is never taken
      to be a broadcast 1: against a static N it is N (checked at run time by
      the lowering), against another `?` it must be equal (checked at run
      time), against a static 1 it stays `?`.
    * Dtypes promote as `torch.result_type` does: bool < integers < floats;
      within a category the wider type wins; f16 with bf16 gives f32. A 0-d
      tensor (a scalar) only decides the dtype when it is of a higher
      category than every dimensioned operand: `f32[8] + f64[]` is f32,
      `i32[8] + f32[]` is f32.

    Every op that launches a kernel in eager PyTorch lowers to exactly one
    linalg op (see `kf-to-linalg`), so the eager kernel count can be read off
    the linalg IR.
  }];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let useDefaultAttributePrinterParser = 1;
  // Every attribute below is checked by verifyOperationAttribute.
  let hasOperationAttrVerify = 1;
  // The attributes the passes leave on ops they do not own, with generated
  // accessors (KfDialect::FinishesAttrHelper, ...): no name is spelled out
  // as a string anywhere else.
  // `kf.finishes` marks the elementwise linalg op that completes a reduction
  // or matmul in the same eager kernel: mean's division by the count, and
  // the rounding of an f32 accumulator to f16/bf16. Kernel formation keeps
  // it with the op it finishes.
  // `kf.stable_shift` marks the max that kf-decompose subtracts in softmax
  // and log_softmax: over an empty dim it may give -inf (nothing reads it)
  // instead of the run-time error a user's max over an empty dim gets.
  // `kf.op` names the eager op (PyTorch's) a linalg op stands for: "add",
  // "sum", ... (kf-to-linalg); kernel names and the report use it.
  // (A kernel lists them in its inherent `ops`, in program order.)
  // `kf.view` marks the copy linalg.generic of a view (transpose, slice):
  // kf-to-linalg folds it into the generics that read it; one left over is
  // a copy kernel.
  // `kf.boundaries` lists a function's `#kf.boundary`s (kf-form-kernels).
  // `kf.host_kernel` names the kernel a host function runs one block of
  // (kf-host-kernels, read by kf-host-kernel-abi).
  // `kf.launch_name` is the kernel name a gpu.launch_func had before
  // kf-share-kernel-code pointed it at another kernel of the same code;
  // kf-alias-shared-kernels gives it back.
  let discardableAttrs = (ins "::mlir::UnitAttr":$finishes,
                              "::mlir::UnitAttr":$stable_shift,
                              "::mlir::StringAttr":$op,
                              "::mlir::UnitAttr":$view,
                              "::mlir::ArrayAttr":$boundaries,
                              "::mlir::StringAttr":$host_kernel,
                              "::mlir::StringAttr":$launch_name);
}

// Every tensor of a kf op (and of its function's signature) has at most
// 2^63 - 1 elements and bytes (KfTypeRules.h, verifyTensorSizes).
def Kf_SizesFit : NativeOpTrait<"SizesFit"> {
  let cppNamespace = "::kfuse::kf";
}

class Kf_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kf_Dialect, mnemonic, traits # [Kf_SizesFit]>;

#endif // KFUSE_KF_DIALECT_TD
