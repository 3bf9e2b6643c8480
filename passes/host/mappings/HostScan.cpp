//===- HostScan.cpp - prefix scans along an outer dim, as vectors ---------===//
//
// The scan mapping (launch/ScanKernels.h) gives a thread a line. Along an
// outer dim (torch.cumsum(x, 0) of a matrix) a line is a column, and a
// thread walking one reads a float of each 64-byte cache line it touches,
// each row a stride apart: PyTorch and Inductor were 1.36 times faster.
// Here a block takes groups of kLanes adjacent lines (consecutive along
// the last dim, which the inputs and results are contiguous in) and walks
// them together: a masked vector load a row, the kernel's body on vectors
// (VectorCloner), the running sums a vector, in f64 for narrower floats as
// the shared emitter's Float64 policy. Kernels this does not serve (a scan
// along the last dim, f64 sums, an input read across the lanes other than
// contiguously) keep the shared emitter.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/VectorCloner.h"
#include "passes/launch/MappingUtils.h"
#include "passes/launch/ScanKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

/// Lines a group (16 f32: a 64-byte cache line of each row), elements a
/// block at least, blocks at most.
constexpr int64_t kLanes = 16, kBlockElements = 16384, kMaxBlocks = 64;

/// Whether `op` reads `in` in a way a group's lanes can: not along the
/// last loop (one value for every lane), or along it as the last index
/// only, contiguously (a vector).
bool readsByLanes(linalg::GenericOp op, OpOperand *in, unsigned last) {
  auto type = dyn_cast<MemRefType>(in->get().getType());
  if (!type)
    return true;
  AffineMap map = op.getMatchingIndexingMap(in);
  if (!map.isFunctionOfDim(last))
    return true;
  if (!type.isLastDimUnitStride() || map.getResults().back() != getAffineDimExpr(last, op.getContext()))
    return false;
  return llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(last); });
}

} // namespace

LogicalResult kfuse::host::mapScanKernelAsVectors(OpBuilder &b, StringAttr name,
                                                  ArrayRef<linalg::LinalgOp> ops) {
  std::optional<launch::ScanKernel> kernel = launch::matchScanKernel(ops);
  if (!kernel)
    return failure();
  linalg::GenericOp scan = kernel->scan;
  unsigned dim = kernel->dim, rank = scan.getNumLoops() - 1, last = rank - 1;
  Value acc = scan.getDpsInits()[0];
  auto accBuffer = cast<MemRefType>(acc.getType());
  Type accType = accBuffer.getElementType();
  if (dim == last || accType.isF64() || !accBuffer.isLastDimUnitStride() ||
      !VectorCloner::vectorizes(scan, TailLanes::Zeros, /*withIndex=*/true) ||
      !llvm::all_of(scan.getDpsInputOperands(),
                    [&](OpOperand *in) { return readsByLanes(scan, in, last); }))
    return failure();
  llvm::SmallPtrSet<Value, 8> atElement{acc};
  for (linalg::GenericOp op : kernel->epilogue) {
    if (!VectorCloner::vectorizes(op, TailLanes::Zeros) ||
        !cast<MemRefType>(op.getDpsInits()[0].getType()).isLastDimUnitStride())
      return failure();
    for (OpOperand *in : op.getDpsInputOperands())
      if (!atElement.contains(in->get()) && !readsByLanes(op, in, last))
        return failure();
    atElement.insert(op.getDpsInits()[0]);
  }

  OpBuilder::InsertionGuard guard(b);
  Location loc = scan.getLoc();
  auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
  SmallVector<Value> sizes = launch::resultSizes(b, loc, scan), outer;
  for (unsigned k = 0; k < last; ++k)
    if (k != dim)
      outer.push_back(sizes[k]);
  Value n = sizes[dim], cols = sizes[last], one = index(1), lanes = index(kLanes);
  Value groups = arith::CeilDivUIOp::create(b, loc, cols, lanes);
  Value items = arith::MulIOp::create(b, loc, gpu::product(b, loc, outer), groups);
  Value work = arith::MulIOp::create(b, loc, arith::MulIOp::create(b, loc, items, lanes), n);
  Value grid = arith::CeilDivUIOp::create(b, loc, work, index(kBlockElements));
  grid = arith::MinUIOp::create(b, loc, arith::MinUIOp::create(b, loc, grid, index(kMaxBlocks)), items);
  grid = arith::MaxUIOp::create(b, loc, grid, one);
  mlir::gpu::LaunchOp launch =
      gpu::buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value bid = launch.getBlockIds().x;
  Value first = arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, bid, items), grid);
  Value end = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, bid, one), items), grid);
  auto overItems = scf::ForOp::create(b, loc, first, end, one);
  b.setInsertionPointToStart(overItems.getBody());
  Value item = overItems.getInductionVar();
  SmallVector<Value> at = gpu::delinearize(b, loc, arith::DivUIOp::create(b, loc, item, groups), outer);
  Value col = arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, item, groups), lanes);
  auto maskType = VectorType::get({kLanes}, b.getI1Type());
  Value mask = vector::CreateMaskOp::create(
      b, loc, maskType, ValueRange{arith::SubIOp::create(b, loc, cols, col)});

  VectorCloner cloner(b, loc, kLanes);
  bool isFloat = isa<FloatType>(accType);
  Type sumType = isFloat ? b.getF64Type() : accType; // f16/bf16 accumulate in f32 already
  auto zeros = [&](Type element) -> Value {
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(cloner.vectorOf(element),
                                                                    b.getZeroAttr(element)));
  };
  auto along = scf::ForOp::create(b, loc, index(0), n, one, ValueRange{zeros(sumType)});
  b.setInsertionPointToStart(along.getBody());
  Value i = along.getInductionVar();
  SmallVector<Value> ivs;
  for (unsigned k = 0, l = 0; k < rank; ++k)
    ivs.push_back(k == dim ? i : k == last ? col : at[l++]);
  ivs.push_back(i); // j = i
  SmallVector<Value> outAt(ivs.begin(), ivs.begin() + rank);
  // An operand at these loop indices: a masked vector along the lanes, or
  // one value for all of them.
  auto read = [&](linalg::GenericOp op, OpOperand *in, ArrayRef<Value> loopIvs) -> Value {
    Value v = in->get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      return v;
    AffineMap map = op.getMatchingIndexingMap(in);
    SmallVector<Value> where = gpu::indices(b, loc, map, loopIvs);
    if (!map.isFunctionOfDim(last))
      return memref::LoadOp::create(b, loc, v, where);
    Type element = type.getElementType();
    return vector::MaskedLoadOp::create(b, loc, cloner.vectorOf(element), v, where, mask,
                                        zeros(element));
  };
  IRMapping terms;
  Block &body = scan.getRegion().front();
  for (OpOperand *in : scan.getDpsInputOperands())
    terms.map(body.getArgument(in->getOperandNumber()), read(scan, in, ivs));
  terms.map(body.getArguments().back(), zeros(accType));
  Value term = cloner.broadcast(cloner.cloneBody(scan, terms, [&](unsigned) { return i; })[0]);
  Value value, next;
  if (isFloat) {
    next = arith::AddFOp::create(b, loc, along.getRegionIterArgs()[0],
                                 arith::ExtFOp::create(b, loc, cloner.vectorOf(sumType), term));
    value = arith::TruncFOp::create(b, loc, cloner.vectorOf(accType), next);
  } else {
    next = value = arith::AddIOp::create(b, loc, along.getRegionIterArgs()[0], term);
  }
  vector::MaskedStoreOp::create(b, loc, acc, outAt, mask, value);
  DenseMap<Value, Value> here{{acc, value}};
  for (linalg::GenericOp op : kernel->epilogue) {
    IRMapping args;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = here.lookup(in->get());
      args.map(op.getRegion().front().getArgument(in->getOperandNumber()),
               v ? v : read(op, in, outAt));
    }
    Value result = cloner.broadcast(cloner.cloneBody(op, args)[0]);
    vector::MaskedStoreOp::create(b, loc, op.getDpsInits()[0], outAt, mask, result);
    here[op.getDpsInits()[0]] = result;
  }
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(overItems);
  gpu::finishLaunch(b, loc, launch);
  return success();
}
