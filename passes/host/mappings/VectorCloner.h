//===- VectorCloner.h - the host's one vectorizer of linalg bodies -*- C++ -*-===//
//
// Every host mapping that runs a generic's body on vectors (flat kernels:
// HostVectorBody; a matmul's epilogue on its accumulators:
// HostMatmulEpilogue; a row's passes: HostRowEmitter) clones the body
// through this class: one rule for which ops have a vector form and one
// way to clone them. What an op computes is not the vectorizer's business:
// kf-host-math writes out the math functions whose libm forms would run a
// lane at a time or round badly (exp, expm1, tanh, rsqrt) for every host
// kernel, vector or scalar code alike, so an op's bits on the CPU do not
// depend on which kernel fusion put it in (before, only row kernels had a
// vector exp, and their scalar fallbacks and other kernels libm's).
// What differs between the mappings is handed in, as
// upstream's linalg::vectorize takes its hooks
// (mlir/lib/Dialect/Linalg/Transforms/Vectorization.cpp): the lane count,
// what the lanes past the data may hold (the lane rule), how each operand
// is read (the caller maps the body's arguments) and what linalg.index is.
//
// Upstream's vectorizer is not used: it vectorizes one op at a time to
// and from memory, while these mappings keep a kernel's values in
// registers from op to op (a softmax's exp feeding its sum, an epilogue
// on the matmul's accumulators).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_MAPPINGS_VECTORCLONER_H
#define KFUSE_PASSES_HOST_MAPPINGS_VECTORCLONER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kfuse::host {

/// What the lanes past the data hold where a vector covers the end of a
/// range (their results are dropped, but an op must not trap on them).
enum class TailLanes {
  /// No such lanes: every vector is whole (a scalar loop runs the tail).
  None,
  /// Masked loads fill them with 1 (the row passes).
  Ones,
  /// Masked loads fill them with 0 (a matmul tile's edge): no integer
  /// division, which would trap on a zero lane.
  Zeros,
};

class VectorCloner {
public:
  VectorCloner(mlir::OpBuilder &b, mlir::Location loc, int64_t lanes)
      : b(b), loc(loc), lanes(lanes) {}

  /// The lane rule: whether `op` of a body means the same on vectors, lane
  /// by lane, and lowers on them on the host: constants, and elementwise
  /// arith and math ops on scalars (math functions without a vector
  /// instruction become one libm call a lane); where `tail` lanes may be
  /// zeros, no integer division; memref.load of a contiguous buffer (an
  /// embedding's rows read at indices the body computes), as a gather with
  /// every lane's index clamped into the buffer.
  static bool vectorizes(mlir::Operation &op, TailLanes tail);
  /// Whether every op of `op`'s body vectorizes (linalg.index too, when
  /// `withIndex`: the caller then gives its value).
  static bool vectorizes(mlir::linalg::GenericOp op, TailLanes tail, bool withIndex = false);

  mlir::VectorType vectorOf(mlir::Type element) const;
  /// `v` as a vector: a scalar (the same in every lane) broadcast.
  mlir::Value broadcast(mlir::Value v);

  /// Clones the body of `op` at the builder, its block arguments mapped in
  /// `m` (vectors, or scalars the same in every lane), and returns the
  /// yielded values: an op whose operands are all scalars stays scalar
  /// (a constant, a value of the row), the others run on vectors. `index`
  /// gives linalg.index's value for a dim; `skip` is an op left out (a
  /// reduction's combiner, which the caller runs its own way).
  llvm::SmallVector<mlir::Value>
  cloneBody(mlir::linalg::GenericOp op, mlir::IRMapping &m,
            llvm::function_ref<mlir::Value(unsigned dim)> index = nullptr,
            mlir::Operation *skip = nullptr);

private:
  /// A memref.load whose `indices` are scalars but the last, the lanes'
  /// index along the vector loop: a masked vector load of the row; null
  /// for any other indices.
  mlir::Value rowRead(mlir::memref::LoadOp load, llvm::ArrayRef<mlir::Value> indices);
  /// A memref.load at vector `indices` (a lane each): a gather.
  mlir::Value gather(mlir::memref::LoadOp load, llvm::ArrayRef<mlir::Value> indices);
  /// `op` on vectors: the same op, its results `lanes` wide.
  mlir::Value cloneOnVectors(mlir::Operation &op, llvm::ArrayRef<mlir::Value> operands,
                             mlir::Type resultType);

  mlir::OpBuilder &b;
  mlir::Location loc;
  int64_t lanes;
};

} // namespace kfuse::host

#endif // KFUSE_PASSES_HOST_MAPPINGS_VECTORCLONER_H
