//===- KfDialect.cpp - the kf dialect -------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kfuse::kf;

#include "dialect/Kf/KfDialect.cpp.inc"
#include "dialect/Kf/KfEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialect/Kf/KfAttrs.cpp.inc"

void KfDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/Kf/KfOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/Kf/KfAttrs.cpp.inc"
      >();
}

/// The discardable attributes declared in KfDialect.td, each of its type:
/// a pass that reads one can rely on it.
LogicalResult KfDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitError("'") << name << "' must be " << what << ", got "
                              << value;
  };
  auto arrayOf = [&](auto isElement) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && llvm::all_of(array, isElement);
  };
  if (name == FinishesAttrHelper::getNameStr() ||
      name == StableShiftAttrHelper::getNameStr() ||
      name == ViewAttrHelper::getNameStr())
    return expect(isa<UnitAttr>(value), "a unit attribute");
  if (name == OpAttrHelper::getNameStr() ||
      name == HostKernelAttrHelper::getNameStr() ||
      name == LaunchNameAttrHelper::getNameStr())
    return expect(isa<StringAttr>(value), "a string");
  if (name == BoundariesAttrHelper::getNameStr())
    return expect(arrayOf([](Attribute a) { return isa<BoundaryAttr>(a); }),
                  "an array of #kf.boundary");
  return op->emitError("'") << name << "' is not an attribute of the kf dialect";
}

//===----------------------------------------------------------------------===//
// The discardable attributes, by name only here (the generated helpers').
//===----------------------------------------------------------------------===//

namespace kfuse::kf {

StringRef getEagerOpName(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(KfDialect::OpAttrHelper::getNameStr());
  return name ? name.getValue() : StringRef();
}

void setEagerOpName(Operation *op, StringRef name) {
  KfDialect::OpAttrHelper(op->getContext())
      .setAttr(op, StringAttr::get(op->getContext(), name));
}

bool isFinisher(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(KfDialect::FinishesAttrHelper::getNameStr());
}

void setFinisher(Operation *op) {
  KfDialect::FinishesAttrHelper(op->getContext())
      .setAttr(op, UnitAttr::get(op->getContext()));
}

bool isView(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(KfDialect::ViewAttrHelper::getNameStr());
}

void setView(Operation *op) {
  KfDialect::ViewAttrHelper(op->getContext())
      .setAttr(op, UnitAttr::get(op->getContext()));
}

bool isStableShift(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(
      KfDialect::StableShiftAttrHelper::getNameStr());
}

void setStableShift(Operation *op) {
  KfDialect::StableShiftAttrHelper(op->getContext())
      .setAttr(op, UnitAttr::get(op->getContext()));
}

SmallVector<BoundaryAttr> getBoundaries(Operation *func) {
  auto all = func->getAttrOfType<ArrayAttr>(
      KfDialect::BoundariesAttrHelper::getNameStr());
  if (!all)
    return {};
  // The dialect's verifier has checked that each is a #kf.boundary.
  return llvm::to_vector(all.getAsRange<BoundaryAttr>());
}

void setBoundaries(Operation *func, ArrayRef<BoundaryAttr> all) {
  SmallVector<Attribute> attrs(all.begin(), all.end());
  KfDialect::BoundariesAttrHelper(func->getContext())
      .setAttr(func, ArrayAttr::get(func->getContext(), attrs));
}

void removeBoundaries(Operation *op) {
  StringRef name = KfDialect::BoundariesAttrHelper::getNameStr();
  op->walk([&](Operation *nested) {
    if (nested->getNumRegions()) // functions and modules, not their bodies' ops
      nested->removeAttr(name);
  });
}

StringRef getHostKernel(Operation *func) {
  auto name = func->getAttrOfType<StringAttr>(
      KfDialect::HostKernelAttrHelper::getNameStr());
  return name ? name.getValue() : StringRef();
}

void setHostKernel(Operation *func, StringRef kernel) {
  KfDialect::HostKernelAttrHelper(func->getContext())
      .setAttr(func, StringAttr::get(func->getContext(), kernel));
}

} // namespace kfuse::kf

Operation *KfDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
