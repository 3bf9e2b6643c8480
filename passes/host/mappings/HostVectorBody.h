//===- HostVectorBody.h - a flat kernel's ops on vectors, for the CPU -*- C++ -*-===//
//
// What the host's flat mappings (HostPointwise.cpp, HostTranspose.cpp)
// emit for a run of consecutive elements: the generics' bodies cloned with
// vector types by the host's one vectorizer (VectorCloner.h), so that a
// CPU core runs them in its vector registers.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_MAPPINGS_HOSTVECTORBODY_H
#define KFUSE_PASSES_HOST_MAPPINGS_HOSTVECTORBODY_H

#include "passes/gpu/flat/PointwiseBody.h"
#include "passes/host/mappings/VectorCloner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

#include <functional>
#include <optional>

namespace kfuse::host {

/// The ops of one kernel computing `lanes` consecutive elements as vectors:
/// through 1-D views of the buffers (`flat`, every map the identity) from
/// flat index ivs[0], or at loop indices `ivs` whose `vectorLoop`-th (the
/// last by default) is the first lane's, each operand read as a vector
/// along its last dim or, where its map lacks that loop (a broadcast), as
/// one value broadcast. A result whose last dim is not that loop (a
/// kernel that reads along W and writes NHWC) is stored lane by lane.
class VectorBody {
public:
  VectorBody(llvm::ArrayRef<mlir::linalg::GenericOp> ops,
             const llvm::DenseMap<mlir::Value, mlir::Value> &flat, unsigned lanes,
             std::optional<unsigned> vectorLoop = std::nullopt)
      : ops(ops), flat(flat), lanes(lanes), vectorLoop(vectorLoop) {}

  /// Whether every body op has a vector form (VectorCloner's rule, whole
  /// vectors); linalg.index too where `withIndex` (rows: the loops' indices
  /// are known, a flat index is none of them).
  static bool supports(llvm::ArrayRef<mlir::linalg::GenericOp> ops, bool withIndex = false);

  void emit(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> ivs);

  /// An operand's vector from elsewhere than its buffer (a transposed
  /// block in registers), or null for a load.
  std::function<mlir::Value(mlir::OpOperand &)> readOverride;

private:
  llvm::ArrayRef<mlir::linalg::GenericOp> ops;
  const llvm::DenseMap<mlir::Value, mlir::Value> &flat;
  unsigned lanes;
  std::optional<unsigned> vectorLoop;

  unsigned vectorLoopOf(llvm::ArrayRef<mlir::Value> ivs) const {
    return vectorLoop ? *vectorLoop : ivs.size() - 1;
  }
  void store(mlir::OpBuilder &b, mlir::Location loc, mlir::Value result, mlir::AffineMap map,
             mlir::Value buffer, llvm::ArrayRef<mlir::Value> ivs);

  mlir::VectorType vectorOf(mlir::Type element) const;
  mlir::Value load(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::GenericOp op,
                   mlir::OpOperand &operand, mlir::Type element,
                   llvm::ArrayRef<mlir::Value> ivs);
};

/// The lanes of the host's vectors for `ops`: the widest element they
/// read or write (at least 8 bits) fills one register of kVectorBits;
/// narrower elements use part of it (LLVM splits a wider vector into
/// registers, which also works).
unsigned lanesFor(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// lanesFor(ops), doubled where a body holds a math function that
/// kf-host-math writes out as a long chain of dependent ops (exp, tanh,
/// erf, log, ...): the vectors of two registers, which LLVM splits op by
/// op, interleave two chains where one alone leaves the core waiting on
/// each op's latency (an erf GELU: ~70 dependent ops a vector; 65536 f32
/// on one core 81 -> 60 us). Cheap bodies keep one register a step.
unsigned interleavedLanesFor(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// A row's columns [from, to): `vector(c)` at c = from, from + lanes, ...
/// while a whole vector fits, then `scalar(c)` at each column left (the
/// rows of the rowwise mapping and of a computed pad).
void vectorsThenTail(mlir::OpBuilder &b, mlir::Location loc, mlir::Value from, mlir::Value to,
                     unsigned lanes, llvm::function_ref<void(mlir::Value)> vector,
                     llvm::function_ref<void(mlir::Value)> scalar);

/// Whether `e` is the loop `last`, or it shifted by a constant (a slice's
/// window read in place: x[..., w + 3]); such an operand is read as a
/// vector from its shifted first lane.
bool isShiftOf(mlir::AffineExpr e, mlir::AffineExpr last);

/// k where `e` is k * last + c, k >= 2 and c constants (a window of a
/// strided pool or convolution: x[..., 2 w + 1]), else 0. Such an input is
/// gathered, its lanes k elements apart (only the elements the lanes read:
/// a load of k x lanes and a shuffle would read past the row's last).
int64_t strideOf(mlir::AffineExpr e, mlir::AffineExpr last);

/// The period m where `e` is (last + a) mod m + c (a and c constants, either
/// absent), else 0: an input of a kf.cat along the row (rotate_half of a
/// rotary embedding: cat(-x[..., 8:], x[..., :8]) reads x at d mod 8 + 8
/// and d mod 8). Its lanes read consecutive elements while last + a does
/// not cross a multiple of m: lanesWithinPeriods says how many.
int64_t periodOf(mlir::AffineExpr e, mlir::AffineExpr last);

/// `lanes` reduced so that no vector along loop `v` crosses a period of an
/// input read as periodOf says, when vectors start at multiples of the
/// lanes: the greatest common divisor of the lanes, each period and each
/// period's shift a.
unsigned lanesWithinPeriods(llvm::ArrayRef<mlir::linalg::GenericOp> ops, unsigned v,
                            unsigned lanes);

/// Whether the kernel reads or writes an operand transposed (every op over
/// the same loops, rank >= 2, maps that are projected permutations, one a
/// permutation other than the identity).
bool isTranspose(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// Such a kernel as tiles of its last two loops (HostTranspose.cpp).
void mapTransposeKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                        llvm::ArrayRef<mlir::linalg::GenericOp> ops,
                        llvm::ArrayRef<mlir::Value> sizes, unsigned lanes,
                        kfuse::gpu::PointwiseBody &body);

} // namespace kfuse::host

#endif // KFUSE_PASSES_HOST_MAPPINGS_HOSTVECTORBODY_H
