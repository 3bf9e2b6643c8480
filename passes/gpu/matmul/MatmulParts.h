//===- MatmulParts.h - what a matmul kernel is made of ----------*- C++ -*-===//
//
// Shared by the matmul emitters (MatmulReference.cpp, MatmulSimt.cpp,
// MatmulTensorCore.cpp): the
// kernel's parts (fill, contraction, epilogue), how each operand is read,
// the batch loop over grid z, and the epilogue applied to an accumulator
// in registers.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_MATMUL_MATMULPARTS_H
#define KFUSE_PASSES_GPU_MATMUL_MATMULPARTS_H

#include "dialect/Kf/KfAttrs.h"
#include "passes/launch/LaunchTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <vector>

namespace kfuse::gpu::matmul {

/// A matmul kernel: a constant fill, a contraction accumulating into it
/// (linalg.matmul, or a batched linalg.generic with loops (batch..., m, n,
/// k) as kf-to-linalg writes a batched or batch-broadcast kf.matmul), and
/// elementwise ops over its result (the epilogue).
struct Parts {
  mutable mlir::linalg::FillOp fill; // op handles: const Parts still reads them
  mutable mlir::linalg::LinalgOp matmul;
  llvm::SmallVector<mlir::linalg::GenericOp> epilogue;
  /// Whether A is stored [.., k, m] and B [.., n, k] (read transposed in
  /// place).
  bool transposed[2] = {false, false};
  /// The number of batch loops (0 for linalg.matmul).
  unsigned batch = 0;
  /// Whether the matmul's own result must be stored: something after the
  /// kernel reads it (when only the epilogue reads it, it stays in
  /// registers).
  bool storeResult = true;

  /// The matmuls summed before this one (the matmul-chain rule,
  /// analysis/MatmulChain.h: `a @ b + c @ d`), in order, each with its own
  /// fill, layouts and K. One accumulator takes their products, then this
  /// one's; the epilogue (their sums first) reads their results as 0, as
  /// their products are in it. Empty for a single matmul.
  std::vector<Parts> chain;

  /// The contractions the accumulator takes, in order: the chain's, then
  /// this one.
  llvm::SmallVector<const Parts *> steps() const;
  mlir::Value a() const { return matmul.getDpsInputs()[0]; }
  mlir::Value b() const { return matmul.getDpsInputs()[1]; }
  mlir::Value c() const { return matmul.getDpsInits()[0]; }
};

/// Checks the (tensor) kernel `ops`; `refuse` says what does not fit.
mlir::LogicalResult analyze(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                            llvm::function_ref<mlir::InFlightDiagnostic()> refuse,
                            Parts &parts);

/// The parts of a bufferized kernel that analyze accepted on tensors.
Parts partsOf(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// Each step's K (Parts::steps: a chain's matmuls have their own), at `b`.
llvm::SmallVector<mlir::Value> stepKs(mlir::OpBuilder &b, mlir::Location loc,
                                      const Parts &parts);

/// The sizes of the contraction's loops (batch..., M, N, K), at `b`.
llvm::SmallVector<mlir::Value> loopSizes(mlir::OpBuilder &b, mlir::Location loc,
                                         const Parts &parts);

/// Where the batch loops are: the element (row, col) of the result of
/// batch `batchIvs` reads operand `o` (0: A, 1: B) at the indices of its
/// indexing map.
struct Access {
  const Parts &parts;
  llvm::SmallVector<mlir::Value> batchIvs;
  mlir::Value zero; // an index 0 for the loops an operand does not read

  /// The indices of operand `o` (0: A, 1: B, 2: C) at loop indices (m, n, k).
  llvm::SmallVector<mlir::Value> at(mlir::OpBuilder &b, mlir::Location loc, unsigned o,
                                    mlir::Value m, mlir::Value n, mlir::Value k) const;
  /// A[m, k] (as the matmul reads it), or `zero` outside [0, M) x [0, K).
  mlir::Value loadA(mlir::OpBuilder &b, mlir::Location loc, mlir::Value m, mlir::Value k,
                    mlir::Value M, mlir::Value K, mlir::Value zero) const;
  /// B[k, n], or `zero` outside [0, K) x [0, N).
  mlir::Value loadB(mlir::OpBuilder &b, mlir::Location loc, mlir::Value k, mlir::Value n,
                    mlir::Value K, mlir::Value N, mlir::Value zero) const;
  /// The epilogue at element (row, col) from the matmul's value `acc`
  /// there, in registers from op to op; stores every result (and the
  /// matmul's when storeResult).
  void finish(mlir::OpBuilder &b, mlir::Location loc, mlir::Value acc, mlir::Value row,
              mlir::Value col) const;
};

/// acc + a * b as the matmul's body computes it (widening f16/bf16).
mlir::Value multiplyAdd(mlir::OpBuilder &b, const Parts &parts, mlir::Value a, mlir::Value bv,
                        mlir::Value acc);

/// The accumulator's start: the first step's fill constant, at `b`.
mlir::Value initialValue(mlir::OpBuilder &b, mlir::Location loc, const Parts &parts);

/// max(ceil(n / tile), 1).
mlir::Value tilesOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value n, int64_t tile);

/// The grid z of a batched kernel: the product of the batch sizes, at most
/// CUDA's 65535 (blocks then loop over the rest); 1 without batch.
mlir::Value batchGrid(mlir::OpBuilder &b, mlir::Location loc,
                      llvm::ArrayRef<mlir::Value> sizes, const Parts &parts);

/// In the launch body at `b`: for z = blockIdx.z; z < batches; z +=
/// gridDim.z, calls `body` with the batch loop indices of z (none without
/// batch: `body` is then called once, with no loop).
void forEachBatch(mlir::OpBuilder &b, mlir::Location loc, mlir::gpu::LaunchOp launch,
                  llvm::ArrayRef<mlir::Value> sizes, const Parts &parts,
                  llvm::function_ref<void(llvm::ArrayRef<mlir::Value>)> body);

/// The reference kernel (MatmulReference.cpp): a 16x16 thread block per
/// 16x16 tile, or with `host` one thread a tile.
void mapReference(mlir::OpBuilder &b, mlir::StringAttr name, Parts &parts,
                  const launch::LaunchTarget &target);

/// The register-tiled SIMT kernel (MatmulSimt.cpp); whether `parts` suits
/// it (element types it can read as vectors).
bool simtFits(const Parts &parts);
void mapSimt(mlir::OpBuilder &b, mlir::StringAttr name, Parts &parts);

/// The tensor-core kernel (MatmulTensorCore.cpp, sm_80 and later: mma.sync,
/// ldmatrix, cp.async) built with `tiles`; whether `parts` suits it (f16 or bf16 operands
/// accumulated in f32; f32 ones as TF32 with `tf32`).
bool tensorCoreFits(const Parts &parts, bool tf32);

/// The Hopper kernel (MatmulWgmma.cpp, sm_90a: TMA, mbarriers, wgmma);
/// whether `parts` suits it (tensorCoreFits without tf32, A [M][K] and B
/// [K][N] as stored, no batch, a zero fill, static K and N multiples of 8:
/// the TMA's 16-byte rows).
bool wgmmaFits(const Parts &parts);
void mapWgmma(mlir::OpBuilder &b, mlir::StringAttr name, Parts &parts);
void mapTensorCore(mlir::OpBuilder &b, mlir::StringAttr name, Parts &parts,
                   kf::MatmulTilesAttr tiles);

} // namespace kfuse::gpu::matmul

#endif // KFUSE_PASSES_GPU_MATMUL_MATMULPARTS_H
