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

//===----------------------------------------------------------------------===//
// MatmulTilesAttr
//===----------------------------------------------------------------------===//

int64_t MatmulTilesAttr::sharedBytes(int64_t elementBits) const {
  // A stage of an operand holds its mn x k tile in the operand's own
  // layout, [mn][k] or [k][mn], each row padded by one 16-byte chunk (the
  // 8 rows an ldmatrix reads then fall in different banks).
  int64_t chunk = 128 / elementBits, k = getK();
  auto stage = [&](int64_t mn) { return std::max(mn * (k + chunk), k * (mn + chunk)); };
  return getStages() * (stage(getM()) + stage(getN())) * elementBits / 8;
}

LogicalResult MatmulTilesAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t m,
                                      int64_t n, int64_t k, int64_t warpsM, int64_t warpsN,
                                      int64_t stages, int64_t groupM) {
  if (m <= 0 || n <= 0 || k <= 0 || warpsM <= 0 || warpsN <= 0)
    return emitError() << "matmul tiles must be positive";
  int64_t threads = 32 * warpsM * warpsN;
  if (threads > 1024)
    return emitError() << "matmul tiles: " << warpsM << " x " << warpsN
                       << " warps are more than a block's 1024 threads";
  // ldmatrix.x4 loads 16 rows (A) or 16 columns (two n8 tiles of B).
  if (m % (16 * warpsM) || n % (16 * warpsN))
    return emitError() << "matmul tiles: a warp's part of the " << m << " x " << n
                       << " tile must be a multiple of 16 x 16";
  // Past 128 accumulators a thread, ptxas spills (255 registers in all).
  if ((m / warpsM / 16) * (n / warpsN / 8) * 4 > 128)
    return emitError() << "matmul tiles: a warp's " << m / warpsM << " x " << n / warpsN
                       << " part needs more than 128 accumulators a thread";
  if (k % 16 || k > 128)
    return emitError() << "matmul tiles: k must be a multiple of 16 up to 128, got " << k;
  // Each thread copies the same number of 16-byte chunks (8 16-bit
  // elements; 4 f32 ones, twice as many) of each operand.
  if ((m * k / 8) % threads || (n * k / 8) % threads)
    return emitError() << "matmul tiles: the " << m << " x " << k << " and " << n << " x " << k
                       << " operand tiles do not split evenly into 16-byte chunks over "
                       << threads << " threads";
  if (stages < 2 || stages > 8)
    return emitError() << "matmul tiles: stages must be 2 to 8, got " << stages;
  if (groupM < 1 || groupM > 64)
    return emitError() << "matmul tiles: group_m must be 1 to 64, got " << groupM;
  return success();
}

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
