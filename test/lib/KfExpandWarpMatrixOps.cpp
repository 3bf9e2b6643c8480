//===- KfExpandWarpMatrixOps.cpp - nvgpu warp ops as per-lane code --------===//
//
// The emulation (kf-emulate-gpu-launches) runs threads, not warps: it has
// no mma.sync, ldmatrix or cp.async. This rewrites them into what each lane
// computes, with the data exchanged between the lanes of a warp through
// gpu.shuffle idx, following the PTX ISA's fragment layouts, so that a run
// checks the kernel's real data movement (which lane supplies which row
// address, which register holds which element), not a rewrite of its math:
//   ldmatrix .x1/.x2/.x4: lane l supplies the address of row l % 8 of
//     matrix l / 8; lane l receives, of matrix j, row l / 4, columns
//     2 (l % 4) and the next (.trans: column l / 4 of rows 2 (l % 4) and
//     the next; on a 32-bit memref, the f32 column l % 4);
//   mma.sync.m16n8k16 (nvgpu's on f16, NVVM's on bf16; f32 accumulators;
//     m16n8k8 on tf32 alike, one element a register, k from 0 to 8):
//     a0 .. a7 of lane l are
//     A[g][2q..], A[g + 8][2q..], A[g][2q + 8..], A[g + 8][2q + 8..] (g = l
//     / 4, q = l % 4), b0 .. b3 are B[2q..][g], B[2q + 8..][g], c0 .. c3
//     C[g][2q..] and C[g + 8][2q..]; each lane gathers the rows of A and the
//     columns of B it needs from the lanes that hold them;
//   cp.async: a plain copy, zero past src-size (the kernel waits for its
//     groups before reading, nvgpu's or NVVM's wait; that order is not
//     checked);
//   dynamic shared memory (gpu.dynamic_shared_memory, viewed as the
//     kernel's buffer): a workgroup attribution, which the emulation
//     allocates.
//
//===----------------------------------------------------------------------===//
#include "test/lib/TestPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kfuse {
#define GEN_PASS_DEF_KFEXPANDWARPMATRIXOPS
#include "test/lib/TestPasses.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

struct Lane {
  OpBuilder &b;
  Location loc;
  Value lane; // index

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) { return arith::MulIOp::create(b, loc, x, idx(c)); }

  /// `v` (i32, i64, f32 or f64) of lane `source` (index).
  Value shuffle(Value v, Value source) {
    Value offset = arith::IndexCastOp::create(b, loc, b.getI32Type(), source);
    Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
    return gpu::ShuffleOp::create(b, loc, v, offset, width, gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }

  /// The elements of type `element` (two of 16 bits or one of 32) in
  /// 32-bit register `word`.
  SmallVector<Value> unpack(Value word, Type element) {
    int64_t n = 32 / element.getIntOrFloatBitWidth();
    Value v = vector::FromElementsOp::create(b, loc, VectorType::get({1}, b.getI32Type()),
                                             ValueRange{word});
    Value elements = vector::BitCastOp::create(b, loc, VectorType::get({n}, element), v);
    SmallVector<Value> result;
    for (int64_t i = 0; i < n; ++i)
      result.push_back(vector::ExtractOp::create(b, loc, elements, i));
    return result;
  }
};

/// The lane of the current thread (its flat id in the block, mod 32).
Value laneOf(OpBuilder &b, Location loc, gpu::LaunchOp launch) {
  gpu::KernelDim3 t = launch.getThreadIds(), s = launch.getBlockSize();
  Value flat = arith::AddIOp::create(
      b, loc, t.x,
      arith::MulIOp::create(
          b, loc, s.x,
          arith::AddIOp::create(b, loc, t.y, arith::MulIOp::create(b, loc, s.y, t.z))));
  return arith::RemUIOp::create(b, loc, flat, arith::ConstantIndexOp::create(b, loc, 32));
}

void expandLdMatrix(nvgpu::LdMatrixOp op, Lane &l) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  auto type = cast<VectorType>(op.getType());
  Value q = arith::RemUIOp::create(b, loc, l.lane, l.idx(4));
  Value g = arith::DivUIOp::create(b, loc, l.lane, l.idx(4));
  int64_t perLane = type.getDimSize(1); // 2 elements of 16 bits, 1 of 32
  SmallVector<Value> elements;
  for (int64_t j = 0; j < (int64_t)op.getNumTiles(); ++j)
    for (int64_t e = 0; e < perLane; ++e) {
      // The row of matrix j this element is on, the lane that has its
      // address, and the column in it.
      Value row = op.getTranspose() ? l.add(l.mul(q, 2), l.idx(e)) : g;
      Value column = op.getTranspose() ? g : l.add(l.mul(q, perLane), l.idx(e));
      Value source = l.add(l.idx(j * 8), row);
      SmallVector<Value> at;
      for (Value i : op.getIndices()) {
        Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
        at.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), l.shuffle(i64, source)));
      }
      at.back() = l.add(at.back(), column);
      elements.push_back(memref::LoadOp::create(b, loc, op.getSrcMemref(), at));
    }
  op.replaceAllUsesWith(vector::FromElementsOp::create(b, loc, type, elements).getResult());
  op.erase();
}

/// The 32-bit registers of a fragment (vector<R x 2 x T>): its rows.
SmallVector<Value> registers(Lane &l, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> regs;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value pair = vector::ExtractOp::create(l.b, l.loc, fragment, i);
    Value word =
        vector::BitCastOp::create(l.b, l.loc, VectorType::get({1}, l.b.getI32Type()), pair);
    regs.push_back(vector::ExtractOp::create(l.b, l.loc, word, 0));
  }
  return regs;
}

/// d0 .. d3 of mma.sync.m16n8k16 (m16n8k8 on tf32) in this lane, from its
/// registers a0..a3 (b32: two elements of type `element` each, or one
/// f32), b0, b1 and c0 .. c3 (f32). On tf32 the hardware reads the
/// operands' top 19 bits: their low 13 mantissa bits are cleared here.
SmallVector<Value> mma(Lane &l, Type element, ArrayRef<Value> a, ArrayRef<Value> bRegs,
                       ArrayRef<Value> c) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value q = arith::RemUIOp::create(b, loc, l.lane, l.idx(4));
  Value g = arith::DivUIOp::create(b, loc, l.lane, l.idx(4));
  // as[q'][i]: element i of the A registers of lane 4 g + q' (rows g and
  // g + 8, columns 2 q' .. and 2 q' + 8 ..); bs[c][q'][i]: of the B
  // registers of lane 4 (2 q + c) + q' (column 2 q + c, rows 2 q' .. and
  // 2 q' + 8 ..).
  SmallVector<SmallVector<Value>> as, bs[2];
  int64_t perReg = 32 / element.getIntOrFloatBitWidth(), K = 8 * perReg;
  auto gather = [&](ArrayRef<Value> regs, Value source) {
    SmallVector<Value> elements;
    for (Value r : regs)
      llvm::append_range(elements, l.unpack(l.shuffle(r, source), element));
    return elements;
  };
  for (int64_t qq = 0; qq < 4; ++qq) {
    as.push_back(gather(a, l.add(l.mul(g, 4), l.idx(qq))));
    for (int64_t col = 0; col < 2; ++col)
      bs[col].push_back(gather(bRegs, l.add(l.mul(l.add(l.mul(q, 2), l.idx(col)), 4), l.idx(qq))));
  }
  auto f32 = [&](Value v) -> Value {
    if (!element.isF32())
      return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
    Value mask = arith::ConstantIntOp::create(b, loc, 0xFFFFE000, 32);
    return arith::BitcastOp::create(b, loc, b.getF32Type(),
                                    arith::AndIOp::create(b, loc, bits, mask));
  };
  SmallVector<Value> d;
  for (int64_t half = 0; half < 2; ++half) // rows g, g + 8
    for (int64_t col = 0; col < 2; ++col) {
      Value sum = c[half * 2 + col];
      for (int64_t k = 0; k < K; ++k) {
        // Lane q' of a row (column) holds its k in [q' p, q' p + p) and
        // the same + K / 2, p elements a register.
        int64_t qq = (k % (K / 2)) / perReg, e = k % perReg, high = k / (K / 2);
        // A[row][k]: register (row >= 8) + 2 (k >= K / 2), element e.
        Value av = as[qq][(half + 2 * high) * perReg + e];
        // B[k][col]: register k >= K / 2, element e.
        Value bv = bs[col][qq][high * perReg + e];
        sum = arith::AddFOp::create(b, loc, sum, arith::MulFOp::create(b, loc, f32(av), f32(bv)));
      }
      d.push_back(sum);
    }
  return d;
}

LogicalResult expandMma(nvgpu::MmaSyncOp op, Lane &l) {
  auto aType = cast<VectorType>(op.getMatrixA().getType());
  auto cType = cast<VectorType>(op.getMatrixC().getType());
  bool tf32 = aType.getElementType().isF32();
  if (op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, tf32 ? 8 : 16} ||
      aType.getShape() != ArrayRef<int64_t>{4, tf32 ? 1 : 2} || !cType.getElementType().isF32() ||
      tf32 != bool(op.getTf32EnabledAttr()))
    return op.emitError("kf-expand-warp-matrix-ops: only m16n8k16 (m16n8k8 on tf32) with f32 "
                        "accumulators");
  SmallVector<Value> c;
  for (int64_t i = 0; i < 4; ++i)
    c.push_back(
        vector::ExtractOp::create(l.b, l.loc, op.getMatrixC(), ArrayRef<int64_t>{i / 2, i % 2}));
  SmallVector<Value> d = mma(l, aType.getElementType(), registers(l, op.getMatrixA()),
                             registers(l, op.getMatrixB()), c);
  op.replaceAllUsesWith(vector::FromElementsOp::create(l.b, l.loc, cType, d).getResult());
  op.erase();
  return success();
}

/// NVVM's mma.sync (the kernel's bf16 multiply): its operands are the
/// registers already.
LogicalResult expandNvvmMma(NVVM::MmaOp op, Lane &l) {
  NVVM::MMAShapeAttr shape = op.getShape();
  if (shape.getM() != 16 || shape.getN() != 8 || shape.getK() != 16 ||
      op.getMultiplicandAPtxType() != NVVM::MMATypes::bf16 ||
      op.getLayoutA() != NVVM::MMALayout::row || op.getLayoutB() != NVVM::MMALayout::col)
    return op.emitError("kf-expand-warp-matrix-ops: only m16n8k16 row.col on bf16");
  SmallVector<Value> a(op.getOperandA()), bRegs(op.getOperandB()), c(op.getOperandC());
  SmallVector<Value> d = mma(l, l.b.getBF16Type(), a, bRegs, c);
  Value s = LLVM::PoisonOp::create(l.b, l.loc, op.getType());
  for (auto [i, v] : llvm::enumerate(d))
    s = LLVM::InsertValueOp::create(l.b, l.loc, s, v, ArrayRef<int64_t>{(int64_t)i});
  op.replaceAllUsesWith(s);
  op.erase();
  return success();
}

void expandCopy(nvgpu::DeviceAsyncCopyOp op, Lane &l) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Type element = cast<MemRefType>(op.getDst().getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  int64_t n = op.getDstElements().getZExtValue();
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<Value> from(op.getSrcIndices()), to(op.getDstIndices());
    from.back() = l.add(from.back(), l.idx(i));
    to.back() = l.add(to.back(), l.idx(i));
    Value v;
    if (Value count = op.getSrcElements()) {
      auto inside = scf::IfOp::create(
          b, loc, element,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, l.idx(i), count), true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
      scf::YieldOp::create(b, loc, memref::LoadOp::create(b, loc, op.getSrc(), from).getResult());
      b.setInsertionPointToStart(&inside.getElseRegion().front());
      scf::YieldOp::create(b, loc, zero);
      v = inside.getResult(0);
    } else {
      v = memref::LoadOp::create(b, loc, op.getSrc(), from);
    }
    memref::StoreOp::create(b, loc, v, op.getDst(), to);
  }
}

/// The emulation allocates workgroup attributions, not dynamic shared
/// memory: each view of it (at offset 0, as the tensor-core kernel takes
/// it) becomes an attribution of the view's type.
LogicalResult attributeDynamicSharedMemory(gpu::LaunchOp launch) {
  SmallVector<gpu::DynamicSharedMemoryOp> raws;
  launch.getBody().walk([&](gpu::DynamicSharedMemoryOp op) { raws.push_back(op); });
  for (gpu::DynamicSharedMemoryOp raw : raws) {
    for (Operation *user : llvm::make_early_inc_range(raw->getUsers())) {
      auto view = dyn_cast<memref::ViewOp>(user);
      std::optional<int64_t> shift = view ? getConstantIntValue(view.getByteShift()) : std::nullopt;
      if (!view || shift != 0 || !view.getSizes().empty())
        return user->emitError("kf-expand-warp-matrix-ops: dynamic shared memory used other "
                               "than by a static view at offset 0");
      view.replaceAllUsesWith(launch.addWorkgroupAttribution(view.getType(), view.getLoc()));
      view.erase();
    }
    raw.erase();
  }
  if (!raws.empty())
    launch.getDynamicSharedMemorySizeMutable().clear();
  return success();
}

struct KfExpandWarpMatrixOpsPass
    : kfuse::impl::KfExpandWarpMatrixOpsBase<KfExpandWarpMatrixOpsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      if (failed(attributeDynamicSharedMemory(launch)))
        return signalPassFailure();
      SmallVector<Operation *> ops;
      launch.getBody().walk([&](Operation *op) {
        if (isa<nvgpu::NVGPUDialect>(op->getDialect()) ||
            isa<NVVM::MmaOp, NVVM::CpAsyncWaitGroupOp>(op))
          ops.push_back(op);
      });
      if (ops.empty())
        continue;
      OpBuilder b(launch.getContext());
      b.setInsertionPointToStart(&launch.getBody().front());
      Lane l{b, launch.getLoc(), laneOf(b, launch.getLoc(), launch)};
      SmallVector<Operation *> tokens;
      for (Operation *op : ops) {
        b.setInsertionPoint(op);
        if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(op)) {
          expandLdMatrix(ld, l);
        } else if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
          if (failed(expandMma(mma, l)))
            return signalPassFailure();
        } else if (auto nvvmMma = dyn_cast<NVVM::MmaOp>(op)) {
          if (failed(expandNvvmMma(nvvmMma, l)))
            return signalPassFailure();
        } else if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
          expandCopy(copy, l);
          tokens.push_back(op);
        } else if (isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp,
                       NVVM::CpAsyncWaitGroupOp>(op)) {
          tokens.push_back(op);
        } else {
          op->emitError("kf-expand-warp-matrix-ops: ") << op->getName() << " is not expanded";
          return signalPassFailure();
        }
      }
      // Waits, then groups, then copies: users before what they use.
      for (Operation *op : llvm::reverse(tokens))
        op->erase();
    }
  }
};

} // namespace
