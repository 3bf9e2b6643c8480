//===- PointwiseBody.h - the ops of a flat kernel for one element -*- C++ -*-===//
//
// What the GPU's flat mapping (PointwiseKernels.cpp) and the host's
// (host/mappings/HostPointwise.cpp) emit for an element, or for a run of
// consecutive elements, of a kernel's generics.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_FLAT_POINTWISEBODY_H
#define KFUSE_PASSES_GPU_FLAT_POINTWISEBODY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>

namespace kfuse::gpu {

/// The ops of one kernel, emitted for one thread's elements.
class PointwiseBody {
public:
  /// `sizes[k]`: the result sizes of ops[k] (its parallel loops): ops
  /// reshaped from one another share the linear index, not the indices.
  PointwiseBody(llvm::ArrayRef<mlir::linalg::GenericOp> ops,
                llvm::ArrayRef<llvm::SmallVector<mlir::Value>> sizes)
      : ops(ops), opSizes(sizes) {}

  /// Computes the element at flat index `i`: loop indices by delinearizing
  /// over `sizes`; operands read through the ops' indexing maps.
  void scalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i);

  /// Computes the element at loop indices `ivs`, which every op shares
  /// (the ops have one iteration space, not reshapes of one another).
  void scalarAt(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> ivs);

  /// Computes the element whose loop indices are `opIvs[k]` in ops[k]
  /// (each op's own indices of one flat index, over its own sizes: ops
  /// reshaped from one another have different ones).
  void scalarAtEach(mlir::OpBuilder &b, mlir::Location loc,
                    llvm::ArrayRef<llvm::SmallVector<mlir::Value>> opIvs);

  /// Where an operand is read from somewhere else than its buffer (a tile
  /// of shared memory): returns its value at loop indices `ivs`, or null
  /// for a plain load.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::OpOperand &,
                            llvm::ArrayRef<mlir::Value>)>
      readOverride;

  /// Computes `lanes` consecutive elements from flat index `i0` with one
  /// vector load or store per operand (every map is the identity, and
  /// `flat` holds 1-D views of the buffers); the arithmetic lane by lane.
  void vector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i0, unsigned lanes,
              const llvm::DenseMap<mlir::Value, mlir::Value> &flat);

private:
  llvm::ArrayRef<mlir::linalg::GenericOp> ops;

  /// scalar (`i`), scalarAt (`ivs`) or scalarAtEach (`opIvs`).
  void emit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i,
            llvm::ArrayRef<mlir::Value> ivs,
            llvm::ArrayRef<llvm::SmallVector<mlir::Value>> opIvs = {});
  llvm::ArrayRef<llvm::SmallVector<mlir::Value>> opSizes;

  /// Folds the terms of this thread's element of a small static reduction
  /// (checked by checkFlatKernel), unrolled in the order of the CPU's loop
  /// nest (loop order, the last reduction loop fastest), from the value its
  /// fill stored (or the buffer's). A float sum takes the compensated step
  /// the CPU lowering gives it (kf-compensated-sums): f32 sums are
  /// bit-equal to the CPU pipeline's.
  void smallReduction(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::GenericOp op,
                      llvm::ArrayRef<mlir::Value> resultIvs,
                      llvm::DenseMap<mlir::Value, mlir::Value> &stored);
};

/// Whether every access of the kernel is contiguous and in iteration
/// order, so that consecutive elements can be read as vectors.
bool isVectorizable(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// The static loop ranges every op of the kernel iterates over, when they
/// share them (one iteration space, at least one loop) with no reduction
/// loop and no linalg.index: the ops can then share their loop indices.
std::optional<llvm::SmallVector<int64_t>>
sharedLoops(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// Whether `map` reads the loops in order but the last two swapped (an
/// operand read transposed in its last two dims).
bool isSwappedLastTwo(mlir::AffineMap map);

/// Each op's result sizes (its parallel loops) at `b`.
std::vector<llvm::SmallVector<mlir::Value>>
parallelSizes(mlir::OpBuilder &b, mlir::Location loc,
              llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// 1-D views of the kernel's buffers (every map the identity).
llvm::DenseMap<mlir::Value, mlir::Value>
flatViews(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::linalg::GenericOp> ops);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_FLAT_POINTWISEBODY_H
