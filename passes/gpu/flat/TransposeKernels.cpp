//===- TransposeKernels.cpp - transposes through shared-memory tiles ------===//
//
// A flat kernel that reads an operand transposed (`x.t().contiguous()`,
// `relu(x.permute(0, 2, 1))`) cannot be coalesced on both sides element by
// element: consecutive threads write consecutive outputs and read a column
// of the input, 32 sectors a warp. As in the CUDA samples' transpose and
// Triton's layout conversions, a block moves a 32 x 32 tile: its 32 x 8
// threads read the transposed operand's tile along its own last dim
// (coalesced) into shared memory, synchronize, and compute each output
// element reading that operand from the tile at the swapped place (the
// tile is padded to 32 x 33 so that a warp reading down a column of it
// touches 32 different banks). Other operands and the results are read
// and written along the output's last dim (coalesced). Each thread does 4
// elements, rows ty, ty + 8, ty + 16, ty + 24 of the tile.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/flat/TransposeKernels.h"
#include "passes/launch/MappingUtils.h"
#include "passes/gpu/flat/PointwiseBody.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

constexpr int64_t kTile = 32;    // the tile's side
constexpr int64_t kRows = 8;     // threads along the tile's rows
constexpr int64_t kPadded = 33;  // a tile row in shared memory

} // namespace

bool kfuse::gpu::isTiledTranspose(ArrayRef<linalg::GenericOp> ops) {
  std::optional<SmallVector<int64_t>> ranges = sharedLoops(ops);
  if (!ranges || ranges->size() < 2)
    return false;
  bool swapped = false;
  for (linalg::GenericOp op : ops) {
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      // Results along the output's layout; inputs so, broadcast along
      // the last loop, or swapped (staged through the tile).
      bool isInit = op.isDpsInit(&operand);
      if (isSwappedLastTwo(map) && !isInit) {
        swapped = true;
        continue;
      }
      if (isInit ? !map.isIdentity() : !map.isProjectedPermutation())
        return false;
      // An input that reads the second-to-last loop last would be strided.
      ArrayRef<AffineExpr> results = map.getResults();
      if (!results.empty() && results.back() != getAffineDimExpr(ranges->size() - 1, op.getContext()) &&
          llvm::is_contained(results, getAffineDimExpr(ranges->size() - 1, op.getContext())))
        return false;
    }
  }
  return swapped;
}

void kfuse::gpu::mapTransposeKernel(OpBuilder &b, StringAttr name,
                                    ArrayRef<linalg::GenericOp> ops) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = ops.front()->getLoc();
  MLIRContext *ctx = b.getContext();
  std::vector<SmallVector<Value>> opSizes = parallelSizes(b, loc, ops);
  ArrayRef<Value> sizes = opSizes.back();
  size_t rank = sizes.size();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value tile = arith::ConstantIndexOp::create(b, loc, kTile);
  SmallVector<Value> gridSizes(sizes.begin(), sizes.end() - 2);
  gridSizes.push_back(arith::CeilDivUIOp::create(b, loc, sizes[rank - 2], tile));
  gridSizes.push_back(arith::CeilDivUIOp::create(b, loc, sizes[rank - 1], tile));
  Value tiles = product(b, loc, gridSizes);
  Value grid = arith::MaxUIOp::create(b, loc, tiles, one);
  Value threadsX = tile, threadsY = arith::ConstantIndexOp::create(b, loc, kRows);

  // One padded tile a distinct operand read swapped.
  SmallVector<Value> staged;
  SmallVector<Type> tileTypes;
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  for (linalg::GenericOp op : ops)
    for (OpOperand *input : op.getDpsInputOperands())
      if (isSwappedLastTwo(op.getMatchingIndexingMap(input)) &&
          !llvm::is_contained(staged, input->get())) {
        staged.push_back(input->get());
        Type element = cast<MemRefType>(input->get().getType()).getElementType();
        tileTypes.push_back(MemRefType::get({kTile, kPadded}, element,
                                            MemRefLayoutAttrInterface(), workgroup));
      }
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {grid, one, one, threadsX, threadsY, one}, tileTypes);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  // Blocks past the tiles (an empty iteration space has one) do nothing,
  // but every thread reaches the barrier: the ids are clamped, the
  // accesses guarded.
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                    launch.getBlockIds().x, tiles);
  SmallVector<Value> ids = delinearize(b, loc, launch.getBlockIds().x, gridSizes);
  SmallVector<Value> outer(ids.begin(), ids.end() - 2);
  Value r0 = arith::MulIOp::create(b, loc, ids[rank - 2], tile);
  Value c0 = arith::MulIOp::create(b, loc, ids[rank - 1], tile);
  Value rows = sizes[rank - 2], cols = sizes[rank - 1];
  auto inside = [&](Value r, Value c) {
    Value inR = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r, rows);
    Value inC = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, cols);
    return arith::AndIOp::create(b, loc, any, arith::AndIOp::create(b, loc, inR, inC));
  };
  // Stage: thread (tx, ty) reads the operand at [outer, c0 + ty + 8j,
  // r0 + tx] (along its last dim) into tile[ty + 8j][tx].
  for (int64_t j = 0; j < kTile / kRows; ++j) {
    Value row = arith::AddIOp::create(b, loc, ty, arith::ConstantIndexOp::create(b, loc, j * kRows));
    Value c = arith::AddIOp::create(b, loc, c0, row);
    Value r = arith::AddIOp::create(b, loc, r0, tx);
    auto ifInside = scf::IfOp::create(b, loc, inside(r, c), /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inIf(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    SmallVector<Value> at(outer);
    at.append({c, r});
    for (auto [k, operand] : llvm::enumerate(staged)) {
      Value v = memref::LoadOp::create(b, loc, operand, at);
      memref::StoreOp::create(b, loc, v, launch.getWorkgroupAttributions()[k],
                              ValueRange{row, tx});
    }
  }
  ::mlir::gpu::BarrierOp::create(b, loc);
  // Compute: thread (tx, ty) computes [outer, r0 + ty + 8j, c0 + tx], the
  // staged operands read from tile[tx][ty + 8j].
  PointwiseBody body(ops, opSizes);
  Value tileRow; // of the element being emitted
  body.readOverride = [&](OpBuilder &b, Location loc, OpOperand &operand,
                          ArrayRef<Value>) -> Value {
    auto op = cast<linalg::GenericOp>(operand.getOwner());
    if (!isSwappedLastTwo(op.getMatchingIndexingMap(&operand)))
      return Value();
    auto it = llvm::find(staged, operand.get());
    Value tileBuffer = launch.getWorkgroupAttributions()[it - staged.begin()];
    return memref::LoadOp::create(b, loc, tileBuffer, ValueRange{tx, tileRow});
  };
  for (int64_t j = 0; j < kTile / kRows; ++j) {
    tileRow = arith::AddIOp::create(b, loc, ty, arith::ConstantIndexOp::create(b, loc, j * kRows));
    Value r = arith::AddIOp::create(b, loc, r0, tileRow);
    Value c = arith::AddIOp::create(b, loc, c0, tx);
    auto ifInside = scf::IfOp::create(b, loc, inside(r, c), /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inIf(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    SmallVector<Value> ivs(outer);
    ivs.append({r, c});
    body.scalarAt(b, loc, ivs);
  }
  finishLaunch(b, loc, launch);
}
