//===- AttentionEmitter.h - the attention launch's builder ------*- C++ -*-===//
//
// Private to passes/gpu/attention: the builder of an attention kernel's
// launch, shared by AttentionKernels.cpp (the launch, the GPU's threads:
// a query row each, state in registers) and AttentionHost.cpp (the host
// runtime's one thread a block: rows inside the tiles of keys, vectors of
// keys).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_ATTENTION_ATTENTIONEMITTER_H
#define KFUSE_PASSES_GPU_ATTENTION_ATTENTIONEMITTER_H

#include "passes/analysis/Attention.h"
#include "passes/launch/LaunchTarget.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu::attention {

using namespace mlir;
using analysis::AttentionParts;

/// Query rows a block: a thread each on the GPU; on the host runtime's
/// one thread, rows one after the other.
inline constexpr int64_t kGpuRows = 64;
inline constexpr int64_t kHostRows = 16;
/// The host's tile of keys, a vector's lanes (GPT-2's block, B8 T512, on 2
/// Xeon cores: the attention at 8 keys 253 ms, 16 191 ms, 32 157 ms).
inline constexpr int64_t kHostKeys = 32;


/// Keys a tile: the scores of a tile live in registers next to q and the
/// output row (at most 160 values together, analysis/Attention.h).
inline int64_t keysPerTile(int64_t headDim, int64_t valueDim) {
  return headDim + valueDim <= 128 ? 32 : 16;
}

/// The value `op` produces (its init, on buffers).
inline mlir::Value produced(mlir::linalg::LinalgOp op) { return op.getDpsInits()[0]; }

/// Builds one attention kernel's launch (AttentionKernels.h).
class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, Location loc, AttentionParts p)
      : b(b), loc(loc), p(std::move(p)) {}

  void emit(StringAttr name, const launch::LaunchTarget &target);

private:
  OpBuilder &b;
  Location loc;
  AttentionParts p; // op handles: not const
  // Set in emit:
  SmallVector<Value> batchIvs;
  Value M, N, zero, one;
  int64_t headDim = 0, valueDim = 0, tileKeys = 0;
  /// k's tile, [keys][dim]; on the host [dim][keys], so that the scores of
  /// the tile's keys are one vector a dim.
  Value kTile, vTile;
  /// The host's per-row q and state ([rows][headDim], [rows][valueDim + 2]).
  Value qBuffer, stateBuffer;
  bool cooperative = false;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) { return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)); }
  Value fillValue(linalg::FillOp fill) {
    auto c = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
    return arith::ConstantOp::create(b, loc, c.getValue());
  }
  /// `op`'s body applied to `args` (its first block arguments; the rest,
  /// an elementwise op's unused out, get args[0]).
  Value apply(linalg::LinalgOp op, ArrayRef<Value> args, ArrayRef<Value> ivs = {}) {
    Block &body = op->getRegion(0).front();
    IRMapping mapping;
    for (BlockArgument arg : body.getArguments())
      mapping.map(arg, arg.getArgNumber() < args.size() ? args[arg.getArgNumber()] : args[0]);
    return cloneBody(b, op, mapping, ivs).front();
  }
  Value below(Value i, Value n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, n);
  }
  /// Operand `o` of contraction `op` at its loop indices (batch, m, n, k),
  /// read through the copies of views it is.
  Value load(linalg::LinalgOp op, unsigned o, Value m, Value n, Value k);
  /// `value` (zero outside) when `inside`, built by `make` in a branch.
  Value loadIf(Value inside, function_ref<Value()> make);
  void stage(Value j0, Value tid, Value threads, const launch::LaunchTarget &target);
  SmallVector<Value> tile(Value row, Value j0, ValueRange state, ArrayRef<Value> q);
  // AttentionHost.cpp
  Value vectorDots(ArrayRef<Value> q);
  Value vectorScores(Value dots, Value row, Value j0);
  Value scoreOperand(OpOperand &operand, AffineMap map, Value row, Value j0,
                     ArrayRef<Value> keys);
  Value vectorApply(linalg::LinalgOp op, ArrayRef<Value> args);
  void vectorAccumulate(Value r, Value rescale, ArrayRef<Value> probabilities);
  void accumulateDims(Value r, Value rescale, ArrayRef<Value> probabilities, int64_t d,
                      int64_t width);
  void hostTile(Value r, Value row, Value j0);
  SmallVector<Value> loadQ(Value row, Value valid);
  SmallVector<Value> initialState();
  void storeRow(Value row, ValueRange state);
  void emitRow(Value row, Value tid, Value threads, const launch::LaunchTarget &target);
  void emitHostRows(Value firstRow, int64_t rows, const launch::LaunchTarget &target);
};

} // namespace kfuse::gpu::attention

#endif // KFUSE_PASSES_GPU_ATTENTION_ATTENTIONEMITTER_H
