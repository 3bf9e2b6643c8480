//===- HostMatmulEpilogue.h - a host matmul kernel's parts ------*- C++ -*-===//
//
// Shared by HostMatmul.cpp (the blocked, register-tiled launch) and
// HostMatmulEpilogue.cpp (what the kernel is made of, and its epilogue
// applied to a row segment of the accumulator tile before it is stored).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_MAPPINGS_HOSTMATMULEPILOGUE_H
#define KFUSE_PASSES_HOST_MAPPINGS_HOSTMATMULEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace kfuse::host::matmul {

/// The f32 lanes of the host CPU's vector registers, the register tile's
/// unit: 8 (256 bits, AVX2's ymm: kVectorBits) or 16 (512 bits, AVX-512's
/// zmm, where kf-map-kernels-to-host's `vector-bits` says the CPU has
/// them: kfuse-compile sets it from the CPU it compiles for). A tile row
/// and a packed sliver of B are 2 vectors: 16 or 32 columns.
int64_t lanesOf(unsigned vectorBits);
/// The blocks a matmul launch asks for at least, where its size allows:
/// the host runtime spreads blocks over its threads, one block a thread at
/// a time (4: two each for 2 threads; each more block packs operands again).
constexpr int64_t kMinBlocks = 4;

/// A (bufferized) matmul kernel, as kf-assign-kernel-mappings accepted it
/// (kfuse::gpu::checkMatmulKernel).
struct Kernel {
  mlir::linalg::FillOp fill;
  /// linalg.matmul, or a batched matmul: the linalg.generic over loops
  /// (batch..., m, n, k) that kf-to-linalg writes for kf.matmul of rank > 2.
  mlir::linalg::LinalgOp matmul;
  /// The number of batch loops (0 for linalg.matmul). Each (batch index)
  /// is a 2-D matmul of the rank-reduced views of A and B at it; C and
  /// the epilogue are indexed (batch..., row, col).
  unsigned batch = 0;
  /// A's and B's indexing maps (their leading results: a batch loop, or
  /// 0 for a broadcast dim of size 1).
  mlir::AffineMap maps[2];
  llvm::SmallVector<mlir::linalg::GenericOp> epilogue;
  /// Whether A is stored [k, m] and B [n, k] (read transposed in place).
  bool transposed[2] = {false, false};
  /// Buffers the kernel writes that nothing outside it reads (allocated
  /// for it, only deallocated after): their values stay in registers.
  llvm::DenseSet<mlir::Value> scratch;
  /// Whether the epilogue runs on vectors (else element by element over
  /// the stored tile).
  bool vectorEpilogue = false;

  /// The matmul's operands and result.
  mlir::Value a, b, cBuffer;
  /// The matmuls summed before this one (`a @ b + c @ d`: the matmul-chain
  /// rule, analysis/MatmulChain.h), in order, each with its own operands,
  /// maps and layouts: the accumulator tile takes their panels, then this
  /// one's, and the epilogue reads their results as 0. Empty for one
  /// matmul.
  std::vector<Kernel> chain;

  /// The matmuls the accumulators take, in order: the chain's, then this.
  llvm::SmallVector<const Kernel *> steps() const;

  mlir::Value c() const { return cBuffer; }
  /// Whether `buffer`, written by the kernel, must be stored.
  bool stored(mlir::Value buffer) const { return !scratch.contains(buffer); }
};

/// The parts of `ops`, or failure where the vector path does not apply
/// (not f32 x f32 -> f32 with the plain multiply-add body, or a result
/// that is not contiguous in its last dim); the caller then takes the
/// simple per-element mapping.
mlir::LogicalResult analyze(llvm::ArrayRef<mlir::linalg::LinalgOp> ops, Kernel &kernel);

/// Stores `acc` (the matmul's values at (batch..., row, col .. col + L), L
/// its lanes: kLanes or a row of the tile, kNR) and the epilogue's results
/// there, computed on vectors of L lanes; `mask` (null when every lane is
/// inside the result) says which lanes are.
void finishVector(mlir::OpBuilder &b, mlir::Location loc, const Kernel &kernel,
                  mlir::ValueRange batch, mlir::Value acc, mlir::Value row, mlir::Value col,
                  mlir::Value mask);

/// The epilogue at element (row, col), the matmul's value read back from
/// its (stored) result: the scalar path for epilogues finishVector cannot
/// take.
void finishScalar(mlir::OpBuilder &b, mlir::Location loc, const Kernel &kernel,
                  mlir::ValueRange batch, mlir::Value row, mlir::Value col);

/// The rows and columns of C a block computes, chosen at launch (see
/// HostMatmulPanels.cpp), and the grid they make.
struct BlockShape {
  mlir::Value rows, cols, gridX, gridY;
};
/// The default (largest) block, the steps its sides are multiples of, and
/// the fewest rows a block is cut to.
struct BlockLimits {
  int64_t rows, cols, rowStep, colStep, minRows;
};
/// Blocks of C for an M x N matmul over `batches` (at least 1) matrices: the limits'
/// largest where that gives kMinBlocks blocks; else narrower (down to
/// colStep columns), then shorter (down to minRows rows) ones until it
/// does or the matrix runs out.
BlockShape chooseBlockShape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value M,
                            mlir::Value N, mlir::Value batches, BlockLimits limits);

/// Whether B, stored [n, k], can be packed through registers: 2-D, k
/// contiguous, elements of at most 32 bits.
bool packsTransposedInRegisters(mlir::Value B);
/// Packs sliver `sliver` (columns col .. col + width of C, rows past
/// lastRow of B read as lastRow) of Bp from B stored [n, k], for k0 .. k0 +
/// kcLen: Bp[sliver, kk, c] = B[col + c, k0 + kk] as f32, 8 x 8 squares
/// transposed in registers.
void packTransposedSliver(mlir::OpBuilder &b, mlir::Location loc, mlir::Value B,
                          mlir::Value Bp, mlir::Value sliver, mlir::Value col,
                          mlir::Value lastRow, mlir::Value k0, mlir::Value kcLen,
                          int64_t width);

/// Whether A's rows (stored [m, k], contiguous) are read in place by the
/// micro-kernel rather than packed: a static row stride at which at most 3
/// of a register tile's `tileRows` rows share an L1 set.
bool rowsReadInPlace(mlir::MemRefType a, int64_t tileRows);

/// The most of `tileRows` rows `rowBytes` apart whose lines fall in one L1
/// set (sets repeat every 4 KiB: 64 sets of 64-byte lines on x86's L1s).
int64_t rowsSharingAnL1Set(int64_t rowBytes, int64_t tileRows);

/// `operand` (A or B, indexed by `map`) at the block's batch indices: its
/// last two dims as a rank-reduced memref.subview (the operand itself when
/// it is 2-D). A leading index 0 is a broadcast dim.
mlir::Value matrixAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value operand,
                     mlir::AffineMap map, llvm::ArrayRef<mlir::Value> batch);

/// Stores `v` at `indices` of `buffer`, lanes of `mask` only when it is
/// not null.
void storeLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::Value buffer,
                mlir::ValueRange indices, mlir::Value mask);

/// `lanes` elements of `buffer` at `indices`, zero in the lanes off `mask`.
mlir::Value loadLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer,
                      mlir::ValueRange indices, mlir::Value mask, int64_t lanes);

} // namespace kfuse::host::matmul

#endif // KFUSE_PASSES_HOST_MAPPINGS_HOSTMATMULEPILOGUE_H
