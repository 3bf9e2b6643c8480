//===- WarpShuffles.cpp - combining values across a warp's lanes ----------===//
#include "passes/launch/WarpShuffles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

Value kfuse::launch::combineWith(OpBuilder &b, Operation *combiner, Value a, Value c) {
  IRMapping m;
  m.map(combiner->getOperand(0), a);
  m.map(combiner->getOperand(1), c);
  return b.clone(*combiner, m)->getResult(0);
}

Value kfuse::launch::warpReduce(OpBuilder &b, Location loc, Operation *combiner, Value v) {
  Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
  for (int offset = 16; offset >= 1; offset /= 2) {
    Value off = arith::ConstantIntOp::create(b, loc, offset, 32);
    v = combineWith(b, combiner, v, shuffleXor(b, loc, v, off, width));
  }
  return v;
}

Value kfuse::launch::shuffleXor(OpBuilder &b, Location loc, Value v, Value offset,
                                Value width) {
  auto shuffle = [&](Value x) {
    return gpu::ShuffleOp::create(b, loc, x, offset, width, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  Type t = v.getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  if (t.getIntOrFloatBitWidth() == 32)
    return shuffle(v);
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
    return arith::TruncFOp::create(
        b, loc, t, shuffle(arith::ExtFOp::create(b, loc, b.getF32Type(), v)));
  if (t.isInteger() && t.getIntOrFloatBitWidth() < 32)
    return arith::TruncIOp::create(b, loc, t,
                                   shuffle(arith::ExtUIOp::create(b, loc, i32, v)));
  // 64 bits: the low and the high half.
  Value bits = t.isInteger() ? v : arith::BitcastOp::create(b, loc, i64, v).getResult();
  Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
  Value lo = shuffle(arith::TruncIOp::create(b, loc, i32, bits));
  Value hi = shuffle(arith::TruncIOp::create(b, loc, i32,
                                             arith::ShRUIOp::create(b, loc, bits, c32)));
  Value joined = arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, lo),
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi), c32));
  return t.isInteger() ? joined : arith::BitcastOp::create(b, loc, t, joined).getResult();
}
