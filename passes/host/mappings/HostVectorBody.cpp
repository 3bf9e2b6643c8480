//===- HostVectorBody.cpp - a flat kernel's ops on vectors, for the CPU ---===//
#include "passes/host/mappings/HostVectorBody.h"
#include "passes/host/mappings/HostMappings.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using kfuse::host::VectorBody;

unsigned kfuse::host::lanesFor(ArrayRef<linalg::GenericOp> ops) {
  unsigned widest = 8;
  for (linalg::GenericOp op : ops)
    for (Type t : op->getOperandTypes())
      if (auto memref = dyn_cast<MemRefType>(t))
        widest = std::max(widest, memref.getElementTypeBitWidth());
  return std::max(1u, kVectorBits / widest);
}

unsigned kfuse::host::interleavedLanesFor(ArrayRef<linalg::GenericOp> ops) {
  auto longChain = [](Operation *op) {
    return op->getDialect() && op->getDialect()->getNamespace() == "math" &&
           !isa<math::AbsFOp, math::AbsIOp, math::FmaOp, math::CopySignOp, math::SqrtOp,
                math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
                math::TruncOp>(op);
  };
  for (linalg::GenericOp op : ops)
    if (op.getRegion().front().walk([&](Operation *inner) {
          return longChain(inner) ? WalkResult::interrupt() : WalkResult::advance();
        }).wasInterrupted())
      return 2 * lanesFor(ops);
  return lanesFor(ops);
}

void kfuse::host::vectorsThenTail(OpBuilder &b, Location loc, Value from, Value to,
                                  unsigned lanes, function_ref<void(Value)> vector,
                                  function_ref<void(Value)> scalar) {
  OpBuilder::InsertionGuard guard(b);
  // Folded where the bounds are constants (a pad's row).
  Value width = arith::ConstantIndexOp::create(b, loc, lanes);
  Value whole = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, b.createOrFold<arith::SubIOp>(loc, to, from), width),
      width);
  Value tailStart = b.createOrFold<arith::AddIOp>(loc, from, whole);
  {
    OpBuilder::InsertionGuard inLoop(b);
    auto loop = scf::ForOp::create(b, loc, from, tailStart, width);
    b.setInsertionPointToStart(loop.getBody());
    vector(loop.getInductionVar());
  }
  auto tail = scf::ForOp::create(b, loc, tailStart, to, arith::ConstantIndexOp::create(b, loc, 1));
  b.setInsertionPointToStart(tail.getBody());
  scalar(tail.getInductionVar());
}

/// The constant of `e` = x + c (or c + x) and x, else 0 and e.
static std::pair<AffineExpr, int64_t> splitConstant(AffineExpr e) {
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(e); sum && sum.getKind() == AffineExprKind::Add) {
    if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS()))
      return {sum.getLHS(), c.getValue()};
    if (auto c = dyn_cast<AffineConstantExpr>(sum.getLHS()))
      return {sum.getRHS(), c.getValue()};
  }
  return {e, 0};
}

bool kfuse::host::isShiftOf(AffineExpr e, AffineExpr last) {
  return splitConstant(e).first == last;
}

int64_t kfuse::host::strideOf(AffineExpr e, AffineExpr last) {
  auto product = dyn_cast<AffineBinaryOpExpr>(splitConstant(e).first);
  if (!product || product.getKind() != AffineExprKind::Mul)
    return 0;
  for (auto [x, k] : {std::pair(product.getLHS(), product.getRHS()),
                      std::pair(product.getRHS(), product.getLHS())})
    if (auto c = dyn_cast<AffineConstantExpr>(k); c && x == last && c.getValue() >= 2)
      return c.getValue();
  return 0;
}

/// The period m and shift a of `e` = (last + a) mod m + c, or {0, 0}.
static std::pair<int64_t, int64_t> periodAndShift(AffineExpr e, AffineExpr last) {
  auto mod = dyn_cast<AffineBinaryOpExpr>(splitConstant(e).first);
  auto m = mod && mod.getKind() == AffineExprKind::Mod
               ? dyn_cast<AffineConstantExpr>(mod.getRHS())
               : AffineConstantExpr();
  if (!m || m.getValue() < 1 || !kfuse::host::isShiftOf(mod.getLHS(), last))
    return {0, 0};
  return {m.getValue(), splitConstant(mod.getLHS()).second};
}

int64_t kfuse::host::periodOf(AffineExpr e, AffineExpr last) {
  return periodAndShift(e, last).first;
}

unsigned kfuse::host::lanesWithinPeriods(ArrayRef<linalg::GenericOp> ops, unsigned v,
                                         unsigned lanes) {
  for (linalg::GenericOp op : ops)
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.getNumResults() == 0)
        continue;
      auto [m, a] = periodAndShift(map.getResults().back(), getAffineDimExpr(v, op.getContext()));
      if (m)
        lanes = std::gcd(std::gcd(int64_t(lanes), m), a % m);
    }
  return lanes;
}

bool VectorBody::supports(ArrayRef<linalg::GenericOp> ops, bool withIndex) {
  // Whole vectors only: the scalar loop runs the tail.
  return llvm::all_of(ops, [&](linalg::GenericOp op) {
    return VectorCloner::vectorizes(op, TailLanes::None, withIndex);
  });
}

void VectorBody::emit(OpBuilder &b, Location loc, ArrayRef<Value> ivs) {
  llvm::DenseMap<Value, Value> stored; // buffer -> its vector here
  for (linalg::GenericOp op : ops) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      if (arg.use_empty())
        continue;
      bool same = op.getMatchingIndexingMap(&operand).isIdentity();
      Value v = same ? stored.lookup(operand.get()) : Value();
      mapping.map(arg, v ? v : load(b, loc, op, operand, arg.getType(), ivs));
    }
    VectorCloner cloner(b, loc, lanes);
    // linalg.index (rows only: a flat index is no loop's): the row's
    // index, or the lanes' along the vector loop.
    auto index = [&](unsigned dim) -> Value {
      if (dim != vectorLoopOf(ivs))
        return ivs[dim];
      SmallVector<int64_t> steps = llvm::to_vector(llvm::seq<int64_t>(0, lanes));
      auto type = VectorType::get({int64_t(lanes)}, b.getIndexType());
      return arith::AddIOp::create(b, loc, cloner.broadcast(ivs[dim]),
                                   arith::ConstantOp::create(
                                       b, loc, DenseElementsAttr::get(type, ArrayRef(steps))));
    };
    SmallVector<Value> results =
        flat.empty() ? cloner.cloneBody(op, mapping, index) : cloner.cloneBody(op, mapping);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
      Value result = cloner.broadcast(v);
      if (Value view = flat.lookup(init.get())) {
        vector::StoreOp::create(b, loc, result, view, ivs[0]);
      } else {
        store(b, loc, result, op.getMatchingIndexingMap(&init), init.get(), ivs);
      }
      if (op.getMatchingIndexingMap(&init).isIdentity())
        stored[init.get()] = result;
    }
  }
}

VectorType VectorBody::vectorOf(Type element) const {
  return VectorType::get({lanes}, element);
}

Value VectorBody::load(OpBuilder &b, Location loc, linalg::GenericOp op, OpOperand &operand,
           Type element, ArrayRef<Value> ivs) {
  if (Value v = readOverride ? readOverride(operand) : Value())
    return v;
  if (Value view = flat.lookup(operand.get()))
    return vector::LoadOp::create(b, loc, vectorOf(element), view, ivs[0]);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> at = kfuse::gpu::indices(b, loc, map, ivs);
  AffineExpr along = b.getAffineDimExpr(vectorLoopOf(ivs));
  // A period's lanes (lanesWithinPeriods) are consecutive elements too.
  if (map.getNumResults() && (isShiftOf(map.getResults().back(), along) ||
                              periodOf(map.getResults().back(), along)))
    return vector::LoadOp::create(b, loc, vectorOf(element), operand.get(), at);
  if (int64_t k = map.getNumResults() ? strideOf(map.getResults().back(), along) : 0) {
    auto indexType = VectorType::get({int64_t(lanes)}, b.getIndexType());
    SmallVector<int64_t> apart;
    for (unsigned lane = 0; lane < lanes; ++lane)
      apart.push_back(k * lane);
    Value offsets =
        arith::ConstantOp::create(b, loc, DenseElementsAttr::get(indexType, ArrayRef(apart)));
    Value all = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(VectorType::get({int64_t(lanes)}, b.getI1Type()), true));
    Value zeros = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(vectorOf(element))));
    return vector::GatherOp::create(b, loc, vectorOf(element), operand.get(), at, offsets, all,
                                    zeros);
  }
  // The same in every lane: a scalar, which the body keeps scalar until an
  // op meets a vector (an embedding's index checked once a vector, and its
  // row read as one: VectorCloner::rowRead).
  return memref::LoadOp::create(b, loc, operand.get(), at);
}

void VectorBody::store(OpBuilder &b, Location loc, Value result, AffineMap map, Value buffer,
                       ArrayRef<Value> ivs) {
  unsigned v = vectorLoopOf(ivs);
  if (map.getNumResults() && isShiftOf(map.getResults().back(), b.getAffineDimExpr(v))) {
    vector::StoreOp::create(b, loc, result, buffer, kfuse::gpu::indices(b, loc, map, ivs));
    return;
  }
  // Along another dim of the buffer: a lane an element (the lanes of
  // consecutive rows land in the same cache lines).
  SmallVector<Value> at(ivs);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    at[v] = lane ? arith::AddIOp::create(b, loc, ivs[v], arith::ConstantIndexOp::create(b, loc, lane))
                       .getResult()
                 : ivs[v];
    memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, result, int64_t(lane)),
                            buffer, kfuse::gpu::indices(b, loc, map, at));
  }
}
