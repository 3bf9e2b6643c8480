//===- PointwiseKernels.cpp - pointwise kernels as flat gpu.launch -------===//
//
// The flat mapping: the kernel's iteration space flattened, `lanes`
// consecutive elements a thread, vector accesses where every access is
// contiguous. Also the serial launch (host runtime only) of a kernel no
// mapping serves.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/PointwiseKernels.h"
#include "passes/gpu/MappingUtils.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace kfuse::gpu {

// One thread runs the ops one after the other for its element, so they must
// share an iteration space and read each other's results only there.
LogicalResult checkFlatKernel(kfuse::kf::KernelOp kernel,
                              ArrayRef<linalg::LinalgOp> ops,
                              function_ref<InFlightDiagnostic()> refuse) {
  if (ops.empty())
    return refuse() << "it holds no linalg op";
  ArrayRef<int64_t> shape;
  bool first = true;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumReductionLoops() != 0)
      return refuse() << "it holds a " << op->getName().getStringRef();
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      if (!generic.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
      if (!first && shape != type.getShape())
        return refuse() << "its ops iterate over different shapes";
      shape = type.getShape();
      first = false;
    }
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (def && def->getParentOp() == kernel && isa<linalg::LinalgOp>(def) &&
          !generic.getMatchingIndexingMap(input).isIdentity())
        return refuse() << "an op reads another's result at other elements";
    }
  }
  return success();
}

} // namespace kfuse::gpu

namespace {
using kfuse::gpu::cloneBody;
using kfuse::gpu::delinearize;
using kfuse::gpu::indices;

/// The ops of one kernel, emitted for one thread's elements.
class KernelBody {
public:
  explicit KernelBody(ArrayRef<linalg::GenericOp> ops) : ops(ops) {}

  /// Computes the element at flat index `i`: loop indices by delinearizing
  /// over `sizes`; operands read through the ops' indexing maps.
  void scalar(OpBuilder &b, Location loc, Value i, ArrayRef<Value> sizes) {
    SmallVector<Value> ivs = delinearize(b, loc, i, sizes);
    llvm::DenseMap<Value, Value> stored; // buffer -> this element's value
    for (linalg::GenericOp op : ops) {
      IRMapping mapping;
      Block &body = op.getRegion().front();
      for (OpOperand &operand : op->getOpOperands()) {
        BlockArgument arg = body.getArgument(operand.getOperandNumber());
        if (arg.use_empty())
          continue; // an init that the body never reads
        AffineMap map = op.getMatchingIndexingMap(&operand);
        if (auto it = stored.find(operand.get());
            map.isIdentity() && it != stored.end()) {
          mapping.map(arg, it->second);
          continue;
        }
        mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(),
                                                indices(b, loc, map, ivs)));
      }
      SmallVector<Value> results = cloneBody(b, op, mapping, ivs);
      for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
        memref::StoreOp::create(
            b, loc, v, init.get(),
            indices(b, loc, op.getMatchingIndexingMap(&init), ivs));
        stored[init.get()] = v;
      }
    }
  }

  /// Computes `lanes` consecutive elements from flat index `i0` with one
  /// vector load or store per operand (every map is the identity, and
  /// `flat` holds 1-D views of the buffers).
  void vector(OpBuilder &b, Location loc, Value i0, unsigned lanes,
              const llvm::DenseMap<Value, Value> &flat) {
    llvm::DenseMap<Value, SmallVector<Value>> stored;
    for (linalg::GenericOp op : ops) {
      Block &body = op.getRegion().front();
      SmallVector<IRMapping> mappings(lanes);
      for (OpOperand &operand : op->getOpOperands()) {
        BlockArgument arg = body.getArgument(operand.getOperandNumber());
        if (arg.use_empty())
          continue;
        SmallVector<Value> values;
        if (auto it = stored.find(operand.get()); it != stored.end()) {
          values = it->second;
        } else {
          Value v = vector::LoadOp::create(b, loc, vectorType(arg.getType(), lanes),
                                           flat.lookup(operand.get()), i0);
          v.getDefiningOp()->setAttr("alignment", alignment(b, arg.getType(), lanes));
          for (unsigned k = 0; k < lanes; ++k)
            values.push_back(vector::ExtractOp::create(b, loc, v, k));
        }
        for (unsigned k = 0; k < lanes; ++k)
          mappings[k].map(arg, values[k]);
      }
      SmallVector<SmallVector<Value>> laneResults;
      for (unsigned k = 0; k < lanes; ++k) {
        // Lane k's loop indices are only needed by linalg.index ops.
        laneResults.push_back(cloneBody(b, op, mappings[k], {}));
      }
      for (auto [r, init] : llvm::enumerate(op.getDpsInitsMutable())) {
        SmallVector<Value> values;
        for (unsigned k = 0; k < lanes; ++k)
          values.push_back(laneResults[k][r]);
        Value v = vector::FromElementsOp::create(
            b, loc, vectorType(values.front().getType(), lanes), values);
        auto store = vector::StoreOp::create(b, loc, v, flat.lookup(init.get()), i0);
        store->setAttr("alignment", alignment(b, values.front().getType(), lanes));
        stored[init.get()] = values;
      }
    }
  }

private:
  ArrayRef<linalg::GenericOp> ops;

  static VectorType vectorType(Type element, unsigned lanes) {
    return VectorType::get({lanes}, element);
  }

  /// The alignment a vector access may promise: the buffers are at least
  /// 16-byte aligned (kfuse's allocations) and i0 is a multiple of `lanes`.
  static IntegerAttr alignment(OpBuilder &b, Type element, unsigned lanes) {
    unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8) * lanes;
    return b.getI64IntegerAttr(std::min(bytes, 16u));
  }

};

/// Whether every access of the kernel is contiguous and in iteration
/// order, so that consecutive threads' elements can be read as vectors.
bool isVectorizable(ArrayRef<linalg::GenericOp> ops) {
  for (linalg::GenericOp op : ops) {
    if (op.getNumLoops() == 0 || llvm::any_of(op.getBody()->getOps<linalg::IndexOp>(),
                                              [](auto) { return true; }))
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = cast<MemRefType>(operand.get().getType());
      // i1 is a byte per element in memory but a bit per lane in an LLVM
      // vector: bool buffers are accessed element by element.
      if (!op.getMatchingIndexingMap(&operand).isIdentity() ||
          !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementType().getIntOrFloatBitWidth() < 8)
        return false;
    }
  }
  return true;
}

/// Maps the generics of one kernel (in program order, one iteration space,
/// checked by kf-assign-kernel-mappings) to one launch. Each thread computes
/// `lanes` consecutive elements: with vector loads and stores when it has
/// all of them and every access is contiguous, else element by element up
/// to the end (the masked tail). Values one op stores and the next reads at
/// the same element pass in registers.
} // namespace

LogicalResult kfuse::gpu::mapPointwiseKernel(OpBuilder &b, StringAttr name,
                                             ArrayRef<linalg::GenericOp> ops,
                                             unsigned blockSize, unsigned vectorWidth) {
  linalg::GenericOp first = ops.front(), last = ops.back();
  for (linalg::GenericOp op : ops)
    if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0)
      return op.emitError("kf-map-kernels-to-gpu: kernel '")
             << name.getValue() << "' is not a bufferized pointwise op";
  OpBuilder::InsertionGuard guard(b);
  Location loc = first.getLoc();
  unsigned lanes = vectorWidth > 1 && isVectorizable(ops) ? vectorWidth : 1;

  // Loop sizes, their product n, and the grid: ceil(n / (block * lanes)).
  SmallVector<Value> sizes;
  for (Range r : cast<linalg::LinalgOp>(last.getOperation()).createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value s : sizes)
    n = arith::MulIOp::create(b, loc, n, s);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value block = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value width = arith::ConstantIndexOp::create(b, loc, lanes);
  Value perBlock = arith::MulIOp::create(b, loc, block, width);
  Value grid = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, n, perBlock), one);
  // Contiguous buffers are read through 1-D views of the same memory.
  llvm::DenseMap<Value, Value> flat;
  if (lanes > 1)
    for (linalg::GenericOp op : ops)
      for (Value v : op->getOperands()) {
        auto type = cast<MemRefType>(v.getType());
        if (flat.count(v))
          continue;
        if (type.getRank() == 1) {
          flat[v] = v;
          continue;
        }
        ReassociationIndices all;
        for (int64_t d = 0; d < type.getRank(); ++d)
          all.push_back(d);
        flat[v] = memref::CollapseShapeOp::create(
            b, loc, v, ArrayRef<ReassociationIndices>{all});
      }
  auto launch =
      buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, block, one, one});

  b.setInsertionPointToStart(&launch.getBody().front());
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, block),
      launch.getThreadIds().x);
  Value i0 = arith::MulIOp::create(b, loc, thread, width);
  KernelBody body(ops);
  if (lanes == 1) {
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i0, n);
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    body.scalar(b, loc, i0, sizes);
  } else {
    Value end = arith::AddIOp::create(b, loc, i0, width);
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, n);
    auto guard = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    body.vector(b, loc, i0, lanes, flat);
    // The tail: the elements left past the last whole vector, one by one.
    b.setInsertionPointToStart(&guard.getElseRegion().front());
    Value stop = arith::MinUIOp::create(b, loc, end, n);
    auto loop = scf::ForOp::create(b, loc, i0, stop, one);
    b.setInsertionPointToStart(loop.getBody());
    body.scalar(b, loc, loop.getInductionVar(), sizes);
  }
  b.setInsertionPointToEnd(&launch.getBody().front());
  mlir::gpu::TerminatorOp::create(b, loc);
  return success();
}

/// Runs the ops of a kernel no mapping serves (the serial mapping, host CPU
/// only) as one launch of one thread: the ops move into the launch
/// unchanged and become loops later.
void kfuse::gpu::mapSerialKernel(RewriterBase &b, StringAttr name,
                                 ArrayRef<linalg::LinalgOp> ops) {
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch =
      buildKernelLaunch(b, loc, name.getValue(), {one, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  for (linalg::LinalgOp op : ops)
    b.moveOpBefore(op, terminator);
}
