//===- MatmulTensorCoreFragments.cpp - ldmatrix and mma.sync --------------===//
//
// The tensor-core matmul's fragments (MatmulTensorCore.cpp describes the
// kernel): per mma.sync's K, each warp loads its A and B fragments from
// the staged tiles with ldmatrix.x4 (.trans for a 16-bit operand stored
// [k][mn]; TF32 fragments of such an operand an element at a time) and
// issues its 8 mma.sync (nvgpu's for f16 and tf32, NVVM's for bf16).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulTensorCore.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kfuse::gpu::matmul::tc {

/// The 32-bit registers of a fragment: its rows (two 16-bit elements or
/// one f32).
SmallVector<Value> Emitter::registers(Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> regs;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value pair = vector::ExtractOp::create(b, loc, fragment, i);
    Value word = vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()), pair);
    regs.push_back(vector::ExtractOp::create(b, loc, word, 0));
  }
  return regs;
}

/// mma.sync.m16n8k16 on bf16 as NVVM's op: nvgpu.mma.sync lowers f16,
/// tf32 and integers only. The registers as the PTX instruction takes
/// them (A 4 x b32, B 2 x b32, C and D 4 x f32).
Value Emitter::mmaBf16(Value a, Value bFrag, Value c) {
  Type f32 = b.getF32Type();
  SmallVector<Value> cs;
  for (int64_t i = 0; i < 4; ++i)
    cs.push_back(vector::ExtractOp::create(b, loc, c, ArrayRef<int64_t>{i / 2, i % 2}));
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, result, registers(a), registers(bFrag), cs, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  SmallVector<Value> ds;
  for (int64_t i = 0; i < 4; ++i)
    ds.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  auto row = VectorType::get({2}, f32);
  return rows(cast<VectorType>(c.getType()),
              {vector::FromElementsOp::create(b, loc, row, ValueRange{ds[0], ds[1]}),
               vector::FromElementsOp::create(b, loc, row, ValueRange{ds[2], ds[3]})});
}

/// A 2-D vector of `type` from its rows: inserted into a constant (the
/// NVVM lowering converts n-D vector ops that map to LLVM's arrays of
/// vectors only, not n-D slices or from_elements).
Value Emitter::rows(VectorType type, ArrayRef<Value> values) {
  Value v = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  for (auto [i, row] : llvm::enumerate(values))
    v = vector::InsertOp::create(b, loc, row, v, (int64_t)i);
  return v;
}

/// 32-bit fragments (TF32) of an operand stored [k][mn]: ldmatrix has
/// no .trans for them, so each lane loads its elements: register i of
/// lane (g, q) = (lane / 4, lane % 4) is the element at mn row g (+ 8 for
/// the odd registers of A) and k q (+ 4 from the third register of A,
/// the second of B), of each n8 tile in turn for B.
Value Emitter::loadScalars(unsigned o, Value stage, Value mn, int64_t kk, int64_t count) {
  Value g = div(lane, 4), q = rem(lane, 4);
  Type element = elementOf(smem);
  SmallVector<Value> regs;
  for (int64_t i = 0; i < count; ++i) {
    int64_t dm = o == 0 ? (i % 2) * 8 : (i / 2) * 8, dk = o == 0 ? (i / 2) * 4 : (i % 2) * 4;
    Value v = memref::LoadOp::create(
        b, loc, smem, ValueRange{at(o, stage, add(q, kk + dk), add(mn, add(g, dm)))});
    regs.push_back(vector::FromElementsOp::create(b, loc, VectorType::get({1}, element), v));
  }
  return rows(VectorType::get({count, 1}, element), regs);
}

/// The fragments of one mma.sync's K at kk from `stage`, and the warp's
/// 8 mma.sync.
void Emitter::multiply(Value stage, int64_t kk, SmallVectorImpl<Value> &acc) {
  Type element = elementOf(smem);
  auto fragType = VectorType::get({4, z.perReg}, element);
  int64_t half = z.mmaK / 2; // the k of the 2nd 8x8 (b16) matrix
  // ldmatrix: lane l gives the address of row l % 8 of 8x8 (b16) matrix
  // l / 8; .trans (16 bits only) for an operand stored [k][mn].
  Value j = div(lane, 8), r = rem(lane, 8);
  Value jLow = rem(j, 2), jHigh = div(j, 2);
  bool scalarA = !kLast(0) && z.perReg == 1, scalarB = !kLast(1) && z.perReg == 1;
  SmallVector<Value> as, bs;
  for (int64_t mi = 0; mi < z.fragsM; ++mi) {
    // Matrices (rows 0-7, k 0..), (8-15, 0..), (0-7, half..), (8-15,
    // half..): a0 .. a3 of mma.m16n8k16 (or of m16n8k8 on tf32).
    Value m = add(wm, mi * 16), row, col;
    if (scalarA) {
      as.push_back(loadScalars(0, stage, m, kk, 4));
      continue;
    }
    if (kLast(0)) {
      row = add(m, add(mul(jLow, 8), r));
      col = add(mul(jHigh, half), idx(kk));
    } else {
      row = add(mul(jHigh, 8), add(r, kk));
      col = add(m, mul(jLow, 8));
    }
    as.push_back(nvgpu::LdMatrixOp::create(b, loc, fragType, smem,
                                           ValueRange{at(0, stage, row, col)},
                                           /*transpose=*/!kLast(0), 4));
  }
  for (int64_t nj = 0; nj < z.fragsN / 2; ++nj) {
    // Matrices (n 0-7, k 0..), (0-7, half..), (8-15, 0..), (8-15,
    // half..): b0 b1 (b0 on tf32) and b2 b3 (b1) of two n8 tiles.
    Value n = add(wn, nj * 16), row, col;
    if (scalarB) {
      bs.push_back(loadScalars(1, stage, n, kk, 4));
      continue;
    }
    if (kLast(1)) {
      row = add(n, add(mul(jHigh, 8), r));
      col = add(mul(jLow, half), idx(kk));
    } else {
      row = add(mul(jLow, 8), add(r, kk));
      col = add(n, mul(jHigh, 8));
    }
    bs.push_back(nvgpu::LdMatrixOp::create(b, loc, fragType, smem,
                                           ValueRange{at(1, stage, row, col)},
                                           /*transpose=*/!kLast(1), 4));
  }
  for (int64_t mi = 0; mi < z.fragsM; ++mi)
    for (int64_t ni = 0; ni < z.fragsN; ++ni) {
      Value bFrag = rows(VectorType::get({2, z.perReg}, element),
                         {vector::ExtractOp::create(b, loc, bs[ni / 2], (ni % 2) * 2),
                          vector::ExtractOp::create(b, loc, bs[ni / 2], (ni % 2) * 2 + 1)});
      Value &c = acc[mi * z.fragsN + ni];
      if (element.isBF16())
        c = mmaBf16(as[mi], bFrag, c);
      else
        c = nvgpu::MmaSyncOp::create(b, loc, as[mi], bFrag, c, ArrayRef<int64_t>{16, 8, z.mmaK},
                                     element.isF32());
    }
}

} // namespace kfuse::gpu::matmul::tc
