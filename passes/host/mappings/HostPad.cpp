//===- HostPad.cpp - a kernel that is one pad, by rows on the CPU --------===//
//
// Pads: cats of constants around one input, on one or more dims (two
// nested kf.cat that kernel formation fused, their constant inputs folded
// into the body): the input read at `(i - low) mod size` along each padded
// dim, the body picking it inside the box and the constant outside. As a
// flat kernel that is scalar code with a modulo a dim (ConvNeXt's 7 x 7
// pads: 5 ns an element); here each row of the result is the constant, or
// the constant, a row of the input and the constant. The input's dims may
// read the result's in another order (ConvNeXt pads an NHWC norm's result
// into NCHW, the permute fused in): its row is then copied element by
// element along the input dim the result's last one reads (191 -> 7.5 us).
// The value inside may also be computed from the inputs (ResNet's batch
// norm and ReLU fused with the pad): the body proves it is one value no
// index reaches, and the row's inside runs the body on vectors
// (computePadRow, below).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/flat/PointwiseBody.h"
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/HostVectorBody.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <functional>

using namespace mlir;

namespace {

/// Elements of the result a block writes (whole rows).
constexpr int64_t kChunkElements = 16384;

struct Pad {
  SmallVector<int64_t> low, size; // per dim of the result; size 0: not padded
  SmallVector<unsigned> source;   // the input's dim each result dim reads (copies)
  TypedAttr value;                // the constant outside
  bool copy = false; // inside, the one input itself (else a value computed from the inputs)
};

/// The body's value at indices `at`: 0 for the value inside the box, 1
/// for the constant, nullopt where it computes anything else (see
/// matchPad). The value inside is `inside`: one value of the body that no
/// index reaches (an input, or ops on the inputs: a batch norm and a ReLU
/// before the pad), the same at every point where it is picked.
std::optional<int> evalPadBody(Block &body, ArrayRef<int64_t> at, TypedAttr &value,
                               Value &inside) {
  llvm::DenseMap<Value, int64_t> ints; // indices and i1s computed here
  llvm::DenseMap<Value, int> picks;    // selects on indices: 0 inside, 1 the constant
  llvm::DenseSet<Value> indexed;       // what an index reaches
  // Constants may be defined in the body or above it.
  auto intOf = [&](Value v) -> std::optional<int64_t> {
    if (auto it = ints.find(v); it != ints.end())
      return it->second;
    return getConstantIntValue(v);
  };
  auto pickOf = [&](Value v) -> std::optional<int> {
    if (auto it = picks.find(v); it != picks.end())
      return it->second;
    if (indexed.contains(v))
      return std::nullopt;
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
      if (c.getType() != cast<linalg::YieldOp>(body.getTerminator()).getValues()[0].getType() ||
          (value && value != c.getValue()))
        return std::nullopt; // not a constant element, or a second value
      value = c.getValue();
      return 1;
    }
    if (inside && inside != v)
      return std::nullopt; // a second value inside
    inside = v;
    return 0;
  };
  for (Operation &op : body.without_terminator()) {
    bool reached = llvm::any_of(op.getOperands(), [&](Value v) { return indexed.contains(v); });
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      ints[index] = at[index.getDim()];
    } else if (isa<arith::ConstantOp>(op)) {
      continue; // read where used
    } else if (auto cmp = dyn_cast<arith::CmpIOp>(op); cmp && reached) {
      std::optional<int64_t> lhs = intOf(cmp.getLhs()), rhs = intOf(cmp.getRhs());
      if (cmp.getPredicate() != arith::CmpIPredicate::ult || !lhs || !rhs)
        return std::nullopt;
      ints[cmp] = uint64_t(*lhs) < uint64_t(*rhs);
    } else if (auto select = dyn_cast<arith::SelectOp>(op); select && reached) {
      std::optional<int64_t> cond = intOf(select.getCondition());
      std::optional<int> pick =
          cond ? pickOf(*cond ? select.getTrueValue() : select.getFalseValue()) : std::nullopt;
      if (!pick)
        return std::nullopt;
      picks[select] = *pick;
    } else if (reached) {
      return std::nullopt; // an index reaches a computation
    } else {
      continue; // the value inside, computed from the inputs
    }
    indexed.insert(op.getResult(0));
  }
  return pickOf(cast<linalg::YieldOp>(body.getTerminator()).getValues()[0]);
}

/// `op` as a pad, if it is one: inputs of static shape whose maps read
/// each input dim through at most one dim of the result: that dim itself,
/// a constant, or on a padded dim the result's index less the dim's low
/// pad (the least constant the body compares that dim's index with) over
/// the input's range; and a body of indices, compares and selects that
/// yields one value computed from the inputs (the inputs themselves, or a
/// batch norm and a ReLU of them) exactly inside the box and one constant
/// outside (evaluated on both sides of every bound it compares an index
/// with, and at the result's ends, on every dim). A copy (Pad::copy): one
/// input of the result's element type, its dims a permutation of the
/// result's, the value inside the input itself.
std::optional<Pad> matchPad(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  auto result = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!result.hasStaticShape())
    return std::nullopt;
  for (Value input : op.getDpsInputs())
    if (!cast<MemRefType>(input.getType()).hasStaticShape())
      return std::nullopt;
  unsigned rank = result.getRank();
  Block &body = op.getRegion().front();
  Pad pad{SmallVector<int64_t>(rank, 0), SmallVector<int64_t>(rank, 0), {}, TypedAttr()};
  // The bounds each dim's index is compared with (every compare must be
  // of an index with a constant: the body is then constant between the
  // bounds on every dim), and each dim's low pad, the least of them.
  SmallVector<SmallVector<int64_t>> cuts(rank);
  SmallVector<std::optional<int64_t>> lows(rank);
  for (Operation &inner : body.without_terminator()) {
    auto cmp = dyn_cast<arith::CmpIOp>(inner);
    if (!cmp)
      continue;
    auto index = cmp.getLhs().getDefiningOp<linalg::IndexOp>();
    std::optional<int64_t> c = getConstantIntValue(cmp.getRhs());
    if (!index || !c)
      return std::nullopt;
    cuts[index.getDim()].push_back(*c);
    lows[index.getDim()] = std::min(lows[index.getDim()].value_or(*c), *c);
  }
  // Each input dim reads at most one result dim (the maps may permute:
  // ConvNeXt pads an NHWC norm's result into NCHW): that dim itself, a
  // constant, or on a padded dim the result's index less its low pad over
  // the input's range.
  bool padded = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto input = cast<MemRefType>(operand->get().getType());
    AffineMap map = op.getMatchingIndexingMap(operand);
    for (unsigned k = 0; k < map.getNumResults(); ++k) {
      AffineExpr e = map.getResult(k);
      auto reads = llvm::to_vector(llvm::make_filter_range(
          llvm::seq<unsigned>(0, rank), [&](unsigned d) { return e.isFunctionOfDim(d); }));
      if (reads.size() > 1)
        return std::nullopt;
      if (reads.empty())
        continue; // a constant index
      unsigned i = reads[0];
      if (e == getAffineDimExpr(i, op.getContext())) {
        if (input.getDimSize(k) != result.getDimSize(i))
          return std::nullopt;
        continue;
      }
      if (!lows[i])
        return std::nullopt;
      int64_t low = *lows[i], size = input.getDimSize(k);
      if (low < 0 || low + size > result.getDimSize(i) ||
          (pad.size[i] && (pad.low[i] != low || pad.size[i] != size)))
        return std::nullopt;
      SmallVector<AffineExpr> at(rank, getAffineConstantExpr(0, op.getContext()));
      for (int64_t r = low; r < low + size; ++r) {
        at[i] = getAffineConstantExpr(r, op.getContext());
        auto c = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(e.replaceDims(at), rank, 0));
        if (!c || c.getValue() != r - low)
          return std::nullopt;
      }
      pad.low[i] = low;
      pad.size[i] = size;
      padded = true;
    }
  }
  if (!padded)
    return std::nullopt;
  // The body at every combination of each dim's telling indices: both
  // sides of every bound it is compared with, and the dim's ends, so that
  // every stretch on which the body is constant is seen (it is one value
  // a combination of stretches).
  SmallVector<SmallVector<int64_t>> points(rank);
  int64_t combinations = 1;
  for (unsigned i = 0; i < rank; ++i) {
    SmallVector<int64_t> telling{0, result.getDimSize(i) - 1};
    for (int64_t c : cuts[i])
      telling.append({c - 1, c});
    for (int64_t r : telling)
      if (r >= 0 && r < result.getDimSize(i) && !llvm::is_contained(points[i], r))
        points[i].push_back(r);
    combinations *= std::max<int64_t>(1, points[i].size());
    if (combinations > (1 << 14))
      return std::nullopt; // too many bounds to prove it cheaply
  }
  SmallVector<int64_t> at(rank, 0);
  Value insideValue; // what the body picks inside the box
  std::function<bool(unsigned)> check = [&](unsigned i) -> bool {
    if (i == rank) {
      bool inside = true;
      for (unsigned j = 0; j < rank; ++j)
        inside &= !pad.size[j] || (at[j] >= pad.low[j] && at[j] < pad.low[j] + pad.size[j]);
      std::optional<int> pick = evalPadBody(body, at, pad.value, insideValue);
      return pick && *pick == (inside ? 0 : 1);
    }
    for (int64_t r : points[i]) {
      at[i] = r;
      if (!check(i + 1))
        return false;
    }
    return true;
  };
  if (!check(0) || !pad.value || !insideValue)
    return std::nullopt;
  // A copy: the value inside is the one input, of the result's type, its
  // dims a permutation of the result's (each read once, as above).
  if (op.getNumDpsInputs() == 1 && insideValue == body.getArgument(0) &&
      cast<MemRefType>(op.getDpsInputs()[0].getType()).getElementType() ==
          result.getElementType()) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    pad.source.assign(rank, rank);
    bool permutes = map.getNumResults() == rank;
    for (unsigned k = 0; permutes && k < rank; ++k)
      for (unsigned i = 0; i < rank; ++i)
        if (map.getResult(k).isFunctionOfDim(i)) {
          permutes &= pad.source[i] == rank;
          pad.source[i] = k;
        }
    pad.copy = permutes && llvm::all_of(pad.source, [&](unsigned k) { return k < rank; });
  }
  return pad;
}

/// Stores `value` to result[at..., c] for c in [from, to).
void fillRow(OpBuilder &b, Location loc, Value result, ArrayRef<Value> at, Value value,
             int64_t from, int64_t to) {
  auto type = cast<MemRefType>(result.getType());
  int64_t lanes = std::max<int64_t>(1, kfuse::host::kVectorBits / type.getElementTypeBitWidth());
  auto splat = VectorType::get({lanes}, type.getElementType());
  Value v = vector::BroadcastOp::create(b, loc, splat, value);
  int64_t whole = (to - from) / lanes * lanes, c = from;
  if (whole > 4 * lanes) {
    // A long stretch: a loop of vector stores.
    auto loop = scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, from),
                                   arith::ConstantIndexOp::create(b, loc, from + whole),
                                   arith::ConstantIndexOp::create(b, loc, lanes));
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> idx(at);
    idx.push_back(loop.getInductionVar());
    vector::StoreOp::create(b, loc, v, result, idx);
    c = from + whole;
  }
  for (; c + lanes <= to; c += lanes) {
    SmallVector<Value> idx(at);
    idx.push_back(arith::ConstantIndexOp::create(b, loc, c));
    vector::StoreOp::create(b, loc, v, result, idx);
  }
  for (; c < to; ++c) {
    SmallVector<Value> idx(at);
    idx.push_back(arith::ConstantIndexOp::create(b, loc, c));
    memref::StoreOp::create(b, loc, value, result, idx);
  }
}

} // namespace

LogicalResult kfuse::host::mapPadKernel(OpBuilder &b, StringAttr name,
                                        ArrayRef<linalg::GenericOp> ops) {
  if (ops.size() != 1)
    return failure();
  linalg::GenericOp op = ops.front();
  std::optional<Pad> pad = matchPad(op);
  if (!pad || (!pad->copy && !kfuse::host::padRowsAsVectors(op)))
    return failure();
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  Value result = op.getDpsInits()[0];
  // A computed value's rows: the body on vectors, then its scalar tail
  // (which keeps a reference to the sizes).
  std::vector<SmallVector<Value>> opSizes;
  std::optional<kfuse::gpu::PointwiseBody> scalar;
  if (!pad->copy) {
    opSizes = kfuse::gpu::parallelSizes(b, loc, ops);
    scalar.emplace(ops, opSizes);
  }
  auto type = cast<MemRefType>(result.getType());
  unsigned rank = type.getRank();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t width = shape.back(), rows = 1;
  for (int64_t s : shape.drop_back())
    rows *= s;
  int64_t perBlock = std::max<int64_t>(1, kChunkElements / std::max<int64_t>(width, 1));
  int64_t blocks = std::max<int64_t>(1, (rows + perBlock - 1) / perBlock);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = kfuse::gpu::buildKernelLaunch(
      b, loc, name.getValue(),
      {arith::ConstantIndexOp::create(b, loc, blocks), one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value first = arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                                      arith::ConstantIndexOp::create(b, loc, perBlock));
  Value last = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, first, arith::ConstantIndexOp::create(b, loc, perBlock)),
      arith::ConstantIndexOp::create(b, loc, rows));
  Value value = arith::ConstantOp::create(b, loc, pad->value);
  auto loop = scf::ForOp::create(b, loc, first, last, one);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> rowSizes;
  for (int64_t s : shape.drop_back())
    rowSizes.push_back(arith::ConstantIndexOp::create(b, loc, s));
  SmallVector<Value> at = kfuse::gpu::delinearize(b, loc, loop.getInductionVar(), rowSizes);
  // Inside the box on every padded dim but the last: the input's row.
  Value inside;
  SmallVector<Value> from(at);
  for (unsigned i = 0; i + 1 < rank; ++i) {
    if (!pad->size[i])
      continue;
    Value low = arith::ConstantIndexOp::create(b, loc, pad->low[i]);
    Value shifted = arith::SubIOp::create(b, loc, at[i], low);
    // Unsigned: below the low pad wraps around, past the size too.
    Value within = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, shifted,
                                         arith::ConstantIndexOp::create(b, loc, pad->size[i]));
    inside = inside ? arith::AndIOp::create(b, loc, inside, within).getResult() : within;
    from[i] = shifted;
  }
  if (!inside) // padded on the last dim only: every row holds a row of the input
    inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  int64_t lowCol = pad->size[rank - 1] ? pad->low[rank - 1] : 0;
  int64_t cols = pad->size[rank - 1] ? pad->size[rank - 1] : width;
  auto branch = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  fillRow(b, loc, result, at, value, 0, lowCol);
  // The input's row [0, cols) to columns [lowCol, lowCol + cols) (copyRows
  // on one row, whose indices `from` are the input's).
  if (!pad->copy) { // a value computed from the inputs: the body on the row
    kfuse::host::computePadRow(b, loc, ops, at, lowCol, cols, kfuse::host::lanesFor(ops),
                               *scalar);
  } else if (pad->source[rank - 1] == rank - 1) { // the input's rows: copies
    Value input = op.getDpsInputs()[0];
    SmallVector<Value> inAt(rank - 1), outAt(at);
    for (unsigned i = 0; i + 1 < rank; ++i)
      inAt[pad->source[i]] = from[i];
    kfuse::host::copyRow(b, loc, input, result, inAt, outAt, lowCol,
                         arith::ConstantIndexOp::create(b, loc, cols));
  } else { // the row runs along another dim of the input: element by element
    Value input = op.getDpsInputs()[0];
    auto loop = scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                                   arith::ConstantIndexOp::create(b, loc, cols), one);
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> inAt(rank), outAt(at);
    for (unsigned i = 0; i + 1 < rank; ++i)
      inAt[pad->source[i]] = from[i];
    inAt[pad->source[rank - 1]] = loop.getInductionVar();
    outAt.push_back(arith::AddIOp::create(b, loc, loop.getInductionVar(),
                                          arith::ConstantIndexOp::create(b, loc, lowCol)));
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, input, inAt), result, outAt);
  }
  fillRow(b, loc, result, at, value, lowCol + cols, width);
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  fillRow(b, loc, result, at, value, 0, width);
  kfuse::gpu::finishLaunch(b, loc, launch);
  return success();
}

//===----------------------------------------------------------------------===//
// A pad's rows computed by its body. A pad of a computed value (ResNet's
// batch norm and ReLU fused with the pad before the next convolution:
// matchPad proves the body yields one value of the inputs inside the box
// and a constant outside): the row's inside columns run the kernel's own
// body on vectors along the row. As a flat kernel every element went
// through the body's modulo maps and index compares one at a time
// (ResNet-18's: 1.14 ms, 7% of it).
//===----------------------------------------------------------------------===//

/// Whether a computed pad's row runs as vectors: every input that reads
/// along the last dim reads it only in its last index (the loop, shifted,
/// or (c - low) mod size), from memory contiguous along that index.
bool kfuse::host::padRowsAsVectors(linalg::GenericOp op) {
  unsigned last = op.getNumLoops() - 1;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto type = cast<MemRefType>(operand->get().getType());
    ArrayRef<AffineExpr> results = op.getMatchingIndexingMap(operand).getResults();
    for (unsigned k = 0; k + 1 < results.size(); ++k)
      if (results[k].isFunctionOfDim(last))
        return false;
    if (!results.empty() && results.back().isFunctionOfDim(last) &&
        (!type.isLastDimUnitStride() || !type.getElementType().isIntOrFloat() ||
         type.getElementTypeBitWidth() < 8))
      return false;
  }
  return kfuse::host::VectorBody::supports({op}, /*withIndex=*/true);
}

/// Columns [from, from + cols) of the row at `at`, inside the box, computed
/// by the kernel's own body: whole vectors (kfuse::host::VectorBody along
/// the last loop; an input read at (c - low) mod size is a vector from the
/// first lane's index, since inside the box the lanes do not wrap), then
/// element by element.
void kfuse::host::computePadRow(OpBuilder &b, Location loc, ArrayRef<linalg::GenericOp> ops,
                                ArrayRef<Value> at, int64_t from, int64_t cols, unsigned lanes,
                                kfuse::gpu::PointwiseBody &scalar) {
  linalg::GenericOp op = ops.front();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  unsigned last = at.size();
  auto ivsAt = [&](Value col) {
    SmallVector<Value> ivs(at);
    ivs.push_back(col);
    return ivs;
  };
  kfuse::host::vectorsThenTail(
      b, loc, index(from), index(from + cols), lanes,
      [&](Value col) {
        SmallVector<Value> ivs = ivsAt(col);
        llvm::DenseMap<Value, Value> noViews;
        kfuse::host::VectorBody body(ops, noViews, lanes);
        body.readOverride = [&](OpOperand &operand) -> Value {
          AffineMap map = op.getMatchingIndexingMap(&operand);
          if (!map.getNumResults() || !map.getResults().back().isFunctionOfDim(last) ||
              kfuse::host::isShiftOf(map.getResults().back(), b.getAffineDimExpr(last)))
            return nullptr; // VectorBody's own load
          auto type = cast<MemRefType>(operand.get().getType());
          return vector::LoadOp::create(b, loc, VectorType::get({lanes}, type.getElementType()),
                                        operand.get(), kfuse::gpu::indices(b, loc, map, ivs));
        };
        body.emit(b, loc, ivs);
      },
      [&](Value col) { scalar.scalarAt(b, loc, ivsAt(col)); });
}

