//===- HostCat.cpp - a kernel that is one kf.cat, as copies on the CPU ----===//
//
// kf.cat is one linalg.generic (ConcatToLinalg.cpp): over the result, every
// input read at `(i - offset) mod size` along the joined dim and the owner
// picked by a chain of selects on the index. As a pointwise kernel that
// is, for each element written, a load and an index modulo of every input:
// the im2col join of a 7 x 7 convolution read its 49 windows for every
// element (ResNet-18's kernels of one cat were 42% of its time on the
// CPU, 0.9 to 5 GB/s). Pads (cats of a constant, fused) are HostPad.cpp's.
//
// A kernel whose only op is such a cat (nothing fused into it, inputs of
// the result's element type) is mapped here as what it means: each input
// copied to its range of the result. A block is (input, part of its rows):
// grid x over the inputs (an scf.index_switch picks the block's), grid y
// over parts of about kChunkElements; a row of the input is copied as
// vectors where the input and the result are contiguous along their last
// dim, element by element otherwise (a strided window of a stride-2
// convolution).
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"


using namespace mlir;

namespace {

/// Elements a block copies at most (an input's rows are split into parts
/// of about this many), and the most parts an input is split into.
constexpr int64_t kChunkElements = 16384, kMaxParts = 64;

/// The joined dim and each input's offset along it, if `op` is a cat as
/// ConcatToLinalg writes it: a body of only the index, constants, compares
/// and selects that yields input k where the index along the joined dim is
/// below input k's end (checked select by select; the ends give the
/// offsets), maps that are the identity but along that dim, where each
/// input's index is the result's less its offset over its range (checked
/// at every index: `(i - offset) mod size`, or 0 for an input of size 1),
/// and no conversion of the elements.
std::optional<std::pair<unsigned, SmallVector<int64_t>>> matchCat(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 || op.getNumDpsInputs() < 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  auto result = cast<MemRefType>(op.getDpsInits()[0].getType());
  unsigned rank = result.getRank();
  size_t count = op.getNumDpsInputs();
  // The select chain, from the outermost: input k up to end k.
  Block &body = op.getRegion().front();
  Value v = cast<linalg::YieldOp>(body.getTerminator()).getValues()[0];
  std::optional<unsigned> dim;
  SmallVector<int64_t> offsets{0};
  for (size_t k = 0; k + 1 < count; ++k) {
    auto select = v.getDefiningOp<arith::SelectOp>();
    auto less = select ? select.getCondition().getDefiningOp<arith::CmpIOp>() : arith::CmpIOp();
    auto index = less ? less.getLhs().getDefiningOp<linalg::IndexOp>() : linalg::IndexOp();
    std::optional<int64_t> end = less ? getConstantIntValue(less.getRhs()) : std::nullopt;
    if (!index || less.getPredicate() != arith::CmpIPredicate::ult || (dim && index.getDim() != *dim) ||
        !end || *end <= offsets.back() || select.getTrueValue() != body.getArgument(k))
      return std::nullopt;
    dim = index.getDim();
    offsets.push_back(*end);
    v = select.getFalseValue();
  }
  if (v != body.getArgument(count - 1))
    return std::nullopt;
  if (!dim) // one input: its own dim sizes say nothing; left to the flat mapping
    return std::nullopt;
  if (result.isDynamicDim(*dim) || result.getDimSize(*dim) <= offsets.back())
    return std::nullopt;
  // Nothing else in the body (the chain's compares, selects and constants).
  for (Operation &inner : body.without_terminator())
    if (!isa<linalg::IndexOp, arith::CmpIOp, arith::SelectOp, arith::ConstantOp>(inner))
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    size_t k = input->getOperandNumber();
    int64_t offset = offsets[k];
    int64_t end = k + 1 < count ? offsets[k + 1] : result.getDimSize(*dim);
    auto type = cast<MemRefType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    if (type.getElementType() != result.getElementType() || map.getNumResults() != rank ||
        type.isDynamicDim(*dim) || type.getDimSize(*dim) != end - offset)
      return std::nullopt;
    for (unsigned i = 0; i < rank; ++i) {
      AffineExpr e = map.getResult(i);
      if (i != *dim) {
        if (e != getAffineDimExpr(i, op.getContext()))
          return std::nullopt;
        continue;
      }
      // Along the joined dim, the result's index less the offset.
      for (unsigned j = 0; j < rank; ++j)
        if (j != i && e.isFunctionOfDim(j))
          return std::nullopt;
      SmallVector<AffineExpr> at(rank, getAffineConstantExpr(0, op.getContext()));
      for (int64_t r = offset; r < end; ++r) {
        at[i] = getAffineConstantExpr(r, op.getContext());
        auto c = dyn_cast<AffineConstantExpr>(
            simplifyAffineExpr(e.replaceDims(at), rank, 0));
        if (!c || c.getValue() != r - offset)
          return std::nullopt;
      }
    }
  }
  return std::make_pair(*dim, offsets);
}

/// Copies rows [first, last) of `input` (rows: all dims but the last) to
/// `result`, shifted by `offset` along `dim`.
void copyRows(OpBuilder &b, Location loc, Value input, Value result, unsigned dim,
              int64_t offset, ArrayRef<Value> rowSizes, Value cols, Value first, Value last) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto rows = scf::ForOp::create(b, loc, first, last, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rows.getBody());
  SmallVector<Value> at = kfuse::gpu::delinearize(b, loc, rows.getInductionVar(), rowSizes);
  SmallVector<Value> to(at);
  bool lastDim = dim + 1 == cast<MemRefType>(result.getType()).getRank();
  if (!lastDim)
    to[dim] = arith::AddIOp::create(b, loc, to[dim], arith::ConstantIndexOp::create(b, loc, offset));
  kfuse::host::copyRow(b, loc, input, result, at, to, lastDim ? offset : 0, cols);
}

} // namespace

/// Copies input[inAt..., j] to result[outAt..., j + colOffset] for j in
/// [0, cols): vectors where both are contiguous along their last dim, then
/// element by element.
void kfuse::host::copyRow(OpBuilder &b, Location loc, Value input, Value result,
                          ArrayRef<Value> inAt, ArrayRef<Value> outAt, int64_t colOffset,
                          Value cols) {
  auto inType = cast<MemRefType>(input.getType());
  auto outType = cast<MemRefType>(result.getType());
  unsigned bits = inType.getElementTypeBitWidth();
  bool vectors = inType.isLastDimUnitStride() && outType.isLastDimUnitStride() && bits >= 8 &&
                 inType.getElementType().isIntOrFloat();
  int64_t lanes = vectors ? std::max<int64_t>(1, kfuse::host::kVectorBits / bits) : 1;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value shift = arith::ConstantIndexOp::create(b, loc, colOffset);
  auto place = [&](Value col) {
    SmallVector<Value> from(inAt), to(outAt);
    from.push_back(col);
    to.push_back(colOffset ? arith::AddIOp::create(b, loc, col, shift).getResult() : col);
    return std::make_pair(from, to);
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value tailStart = zero;
  if (lanes > 1) {
    Value width = arith::ConstantIndexOp::create(b, loc, lanes);
    tailStart = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, cols, width), width);
    auto loop = scf::ForOp::create(b, loc, zero, tailStart, width);
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    auto [from, to] = place(loop.getInductionVar());
    auto type = VectorType::get({lanes}, inType.getElementType());
    Value v = vector::LoadOp::create(b, loc, type, input, from);
    vector::StoreOp::create(b, loc, v, result, to);
  }
  auto tail = scf::ForOp::create(b, loc, tailStart, cols, one);
  OpBuilder::InsertionGuard inTail(b);
  b.setInsertionPointToStart(tail.getBody());
  auto [from, to] = place(tail.getInductionVar());
  memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, input, from), result, to);
}

LogicalResult kfuse::host::mapCatKernel(OpBuilder &b, StringAttr name,
                                        ArrayRef<linalg::GenericOp> ops) {
  if (ops.size() != 1)
    return failure();
  linalg::GenericOp op = ops.front();
  auto cat = matchCat(op);
  if (!cat)
    return failure();
  auto [dim, offsets] = *cat;
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  Value result = op.getDpsInits()[0];
  unsigned rank = cast<MemRefType>(result.getType()).getRank();
  // Each input's row sizes (all dims but the last), rows, columns.
  struct Input {
    Value buffer;
    SmallVector<Value> rowSizes;
    Value rows, cols;
  };
  SmallVector<Input> inputs;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value parts = one;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    Input in{operand->get(), {}, Value(), Value()};
    for (unsigned i = 0; i + 1 < rank; ++i)
      in.rowSizes.push_back(memref::DimOp::create(b, loc, in.buffer, i));
    in.cols = memref::DimOp::create(b, loc, in.buffer, rank - 1);
    in.rows = kfuse::gpu::product(b, loc, in.rowSizes);
    // The parts the largest input needs, at most kMaxParts.
    Value elements = arith::MulIOp::create(b, loc, in.rows, in.cols);
    Value need = arith::CeilDivUIOp::create(
        b, loc, elements, arith::ConstantIndexOp::create(b, loc, kChunkElements));
    parts = arith::MaxUIOp::create(b, loc, parts, need);
    inputs.push_back(in);
  }
  parts = arith::MinUIOp::create(b, loc, parts, arith::ConstantIndexOp::create(b, loc, kMaxParts));
  Value count = arith::ConstantIndexOp::create(b, loc, inputs.size());
  auto launch = kfuse::gpu::buildKernelLaunch(b, loc, name.getValue(),
                                              {count, parts, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value part = launch.getBlockIds().y;
  SmallVector<int64_t> cases;
  for (size_t k = 0; k < inputs.size(); ++k)
    cases.push_back(k);
  auto which = scf::IndexSwitchOp::create(b, loc, TypeRange{}, launch.getBlockIds().x, cases,
                                          cases.size());
  b.setInsertionPointToStart(&which.getDefaultRegion().emplaceBlock());
  scf::YieldOp::create(b, loc);
  for (auto [k, in] : llvm::enumerate(inputs)) {
    b.setInsertionPointToStart(&which.getCaseRegions()[k].emplaceBlock());
    // This block's rows of input k: an even share of them by part.
    Value first = arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, part, in.rows),
                                         parts);
    Value last = arith::DivUIOp::create(
        b, loc, arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, part, one), in.rows),
        parts);
    copyRows(b, loc, in.buffer, result, dim, offsets[k], in.rowSizes, in.cols, first, last);
    scf::YieldOp::create(b, loc);
  }
  b.setInsertionPointAfter(which);
  kfuse::gpu::finishLaunch(b, loc, launch);
  return success();
}
