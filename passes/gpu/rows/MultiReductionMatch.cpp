//===- MultiReductionMatch.cpp - which kernels are multi-reductions -------===//
//
// The one reading of a multi-reduction kernel (RowKernels.h:
// MultiReduction), for kf-assign-kernel-mappings on tensors and for the
// emitter (MultiReductions.cpp) on buffers.
//
//===----------------------------------------------------------------------===//
#include "passes/analysis/AxisReductions.h"
#include "passes/gpu/rows/RowEmitter.h"

#include "llvm/ADT/DenseSet.h"

namespace kfuse::gpu {

using namespace rows;

namespace {

/// The value through which later ops read what `op` writes: its result on
/// tensors, its init on buffers.
Value writtenBy(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() ? op->getResult(0) : op.getDpsInits()[0];
}

/// `v` with reshapes and casts looked through (a kernel's value read through
/// a view is still the kernel's value).
Value viewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp,
            memref::SubViewOp, memref::ReinterpretCastOp>(def))
      v = def->getOperand(0);
    else
      break;
  }
  return v;
}

/// Whether every result of `map` is a parallel loop of `op` or the
/// constant 0 (a keepdim unit dim).
bool indexedByParallelLoops(linalg::GenericOp op, AffineMap map) {
  auto iterators = op.getIteratorTypesArray();
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (iterators[d.getPosition()] != utils::IteratorType::parallel)
        return false;
    } else if (auto c = dyn_cast<AffineConstantExpr>(e); !c || c.getValue() != 0) {
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<MultiReduction> matchMultiReduction(ArrayRef<linalg::LinalgOp> ops) {
  MultiReduction m;
  llvm::DenseMap<Value, bool> familyOf; // a value the kernel writes -> over rows?
  llvm::DenseSet<Value> written;
  for (linalg::LinalgOp op : ops)
    for (Value v : op.hasPureTensorSemantics() ? ValueRange(op->getResults())
                                               : ValueRange(op.getDpsInits()))
      written.insert(v);
  // The reductions' input, and the ops of the kernel that compute it (its
  // prologue: elementwise ops over the input's elements).
  llvm::DenseMap<Value, Operation *> writerOf;
  for (linalg::LinalgOp op : ops)
    if (isa<linalg::GenericOp>(op.getOperation()) && op.getNumDpsInits() == 1)
      writerOf[writtenBy(cast<linalg::GenericOp>(op.getOperation()))] = op;
  for (linalg::LinalgOp op : ops)
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()); generic && isReduction(op))
      if (std::optional<analysis::AxisReduction> axis = analysis::axisReductionOf(generic)) {
        m.input = axis->input;
        break;
      }
  if (!m.input)
    return std::nullopt;
  llvm::DenseSet<Operation *> prologue;
  for (SmallVector<Value> work{m.input}; !work.empty();)
    if (Operation *writer = writerOf.lookup(work.pop_back_val());
        writer && prologue.insert(writer).second)
      llvm::append_range(work, cast<linalg::LinalgOp>(writer).getDpsInputs());
  auto inputShape = cast<ShapedType>(m.input.getType()).getShape();
  bool rows = false, cols = false;
  for (linalg::LinalgOp op : ops) {
    if (isa<linalg::FillOp>(op.getOperation()))
      continue; // each reduction's is checked below
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumDpsInits() != 1)
      return std::nullopt;
    if (prologue.contains(op)) {
      // Over the input's elements, in order (its loops are the input's
      // dims), reading the prologue's values at the same element.
      // Its result's shape is the input's (on buffers one side may have
      // been made static where the other is still dynamic).
      auto shape = cast<ShapedType>(generic.getDpsInits()[0].getType()).getShape();
      bool sameShape = shape.size() == inputShape.size() &&
                       llvm::all_of(llvm::zip(shape, inputShape), [](auto d) {
                         auto [a, b] = d;
                         return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
                       });
      if (isReduction(op) || !sameShape ||
          !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)).isIdentity() ||
          !generic.getRegion().front().getArguments().back().use_empty())
        return std::nullopt;
      for (OpOperand *input : generic.getDpsInputOperands())
        if (written.contains(viewRoot(input->get())) &&
            (!prologue.contains(writerOf.lookup(input->get())) ||
             !generic.getMatchingIndexingMap(input).isIdentity()))
          return std::nullopt;
      m.prologue.push_back(generic);
      continue;
    }
    if (isReduction(op)) {
      std::optional<analysis::AxisReduction> axis = analysis::axisReductionOf(generic);
      if (!axis || (m.input && axis->input != m.input) || (m.split && m.split != axis->split))
        return std::nullopt;
      m.input = axis->input;
      m.split = axis->split;
      bool overRows = axis->overRows;
      Operation *combine = combinerOf(generic);
      arith::ConstantOp init = initialValue(generic, ops);
      if (!combine || !init || !isIdentityOf(combine, init) ||
          !indexedByParallelLoops(generic,
                                  generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))))
        return std::nullopt;
      (overRows ? rows : cols) = true;
      m.reductions.push_back({generic, overRows});
      familyOf[writtenBy(generic)] = overRows;
      continue;
    }
    // An op over one family's results, at their own elements; what else
    // it reads comes from outside the kernel.
    std::optional<bool> family;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto it = familyOf.find(input->get());
      if (it == familyOf.end()) {
        if (written.contains(viewRoot(input->get())))
          return std::nullopt; // a value of the kernel read through a view
        continue;
      }
      if (!generic.getMatchingIndexingMap(input).isIdentity() ||
          (family && *family != it->second))
        return std::nullopt;
      family = it->second;
    }
    if (!family || !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)).isIdentity())
      return std::nullopt; // an op before the reductions: not served
    m.epilogues.push_back({generic, *family});
    familyOf[writtenBy(generic)] = *family;
  }
  if (!rows || !cols || (written.contains(viewRoot(m.input)) && !writerOf.count(m.input)))
    return std::nullopt;
  return m;
}

} // namespace kfuse::gpu
