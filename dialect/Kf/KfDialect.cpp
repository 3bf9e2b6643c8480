//===- KfDialect.cpp - the kf dialect -------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kfuse::kf;

#include "dialect/Kf/KfDialect.cpp.inc"

void KfDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/Kf/KfOps.cpp.inc"
      >();
}

Operation *KfDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
