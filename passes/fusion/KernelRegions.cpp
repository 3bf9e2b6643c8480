//===- KernelRegions.cpp - kernels as kf.kernel regions -------------------===//
#include "passes/fusion/KernelRegions.h"
#include "passes/analysis/Views.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <numeric>
#include <queue>

using namespace mlir;

namespace kfuse::fusion {
namespace {

/// "pointwise_add_relu": the kernel's kind, then its ops in program order
/// (at most 8, as Inductor caps its kernel names).
std::string kernelName(ArrayRef<Operation *> members, KernelKind kind) {
  std::string name = kindName(kind).str();
  unsigned count = 0;
  for (Operation *op : members) {
    StringRef eagerOp = kf::getEagerOpName(op);
    if (eagerOp.empty())
      continue;
    if (eagerOp == kindName(kind))
      continue; // "matmul_add_0", not "matmul_matmul_add_0"
    // An attention's views (the head split's copies, read in place) are no
    // work of its own: "attention_matmul_div_add_...", what it computes.
    if (kind == KernelKind::Attention && kf::isView(op))
      continue;
    if (++count > 8) {
      name += "_etc";
      break;
    }
    name += "_" + eagerOp.str();
  }
  return name;
}

/// Ops that are no kernel and belong inside a region when everything they
/// feed is in it: tensor.empty, accumulator fills, reshapes, casts.
bool isFreeOp(Operation *op) {
  return isa<tensor::EmptyOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::CastOp, linalg::FillOp>(op);
}

} // namespace

/// Orders the ops of `body` so that each comes after what it reads (values
/// its regions use too: kernels capture), earliest first where there is a
/// choice, and ops with side effects in their original order. Upstream's
/// sortTopologically knows nothing of effects: it let a later call (a print
/// of one kernel result) overtake an earlier one that had to wait for the
/// kernel. Kahn's algorithm with a heap: n log n.
static LogicalResult restoreOrder(Block &body) {
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : body.without_terminator()) {
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  std::vector<SmallVector<unsigned>> next(ops.size());
  std::vector<unsigned> waiting(ops.size(), 0);
  std::optional<unsigned> lastEffect;
  for (auto [i, op] : llvm::enumerate(ops)) {
    llvm::SmallDenseSet<unsigned> after;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        Operation *def = v.getDefiningOp();
        Operation *owner = def ? body.findAncestorOpInBlock(*def) : nullptr;
        if (owner && owner != op && index.count(owner))
          after.insert(index[owner]);
      }
    });
    if (!isMemoryEffectFree(op)) {
      if (lastEffect)
        after.insert(*lastEffect);
      lastEffect = i;
    }
    for (unsigned a : after) {
      next[a].push_back(i);
      ++waiting[i];
    }
  }
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>> ready;
  for (unsigned i = 0; i < ops.size(); ++i)
    if (waiting[i] == 0)
      ready.push(i);
  SmallVector<Operation *> order;
  while (!ready.empty()) {
    unsigned i = ready.top();
    ready.pop();
    order.push_back(ops[i]);
    for (unsigned j : next[i])
      if (--waiting[j] == 0)
        ready.push(j);
  }
  if (order.size() != ops.size())
    return failure();
  Operation *end = body.getTerminator();
  for (Operation *op : order)
    op->moveBefore(end);
  return success();
}

FailureOr<FormedKernels> formKernelRegions(func::FuncOp func,
                                           const KernelGraph &graph,
                                           const FusionPlan &plan,
                                           unsigned &nextIndex) {
  Block &body = func.getBody().front();
  // Member ops per group, recomputed producers cloned into their consumers.
  std::vector<llvm::SetVector<Operation *>> members(plan.groups.size());
  for (auto [gid, nodes] : llvm::enumerate(plan.groups))
    for (unsigned n : nodes) {
      members[gid].insert(graph.nodes[n].op);
      if (Operation *finish = graph.nodes[n].finish)
        members[gid].insert(finish);
    }
  for (unsigned e : plan.recomputed) {
    const Edge &edge = graph.edges[e];
    Operation *consumer = graph.nodes[edge.consumer].op;
    Operation *producer = graph.nodes[edge.producer].op;
    OpBuilder b(consumer);
    Operation *clone = b.clone(*producer);
    members[plan.groupOf[edge.consumer]].insert(clone);
    // The consumer may read the producer through views (reshapes, casts:
    // a stretched unit dim collapsed away): the copy is read through
    // copies of them, or the consumer's indexing map would not fit.
    SmallVector<Operation *> views;
    for (Value v = edge.read; v.getDefiningOp() != producer;
         v = analysis::viewSource(v))
      views.push_back(v.getDefiningOp());
    IRMapping mapping;
    mapping.map(producer->getResults(), clone->getResults());
    for (Operation *view : llvm::reverse(views))
      members[plan.groupOf[edge.consumer]].insert(b.clone(*view, mapping));
    // This operand only: the consumer may read the producer at other
    // operands too, each recomputing it at the elements it reads.
    consumer->getOpOperand(edge.operand).set(mapping.lookupOrDefault(edge.read));
  }

  FormedKernels formed;
  formed.kernelOfNode.assign(graph.nodes.size(), 0);
  // Order groups by their last member, so kernels appear in program order.
  std::vector<unsigned> order(plan.groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<Operation *> lastOf(plan.groups.size());
  for (auto [gid, ops] : llvm::enumerate(members)) {
    lastOf[gid] = ops.front();
    for (Operation *op : ops)
      if (lastOf[gid]->isBeforeInBlock(op))
        lastOf[gid] = op;
  }
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return lastOf[a]->isBeforeInBlock(lastOf[b]);
  });

  for (unsigned gid : order) {
    llvm::SetVector<Operation *> &region = members[gid];
    // Pull in the free ops whose users are all in the region (inits,
    // fills, reshapes between members), until nothing changes. A free op
    // between members that is also read outside (a keepdim reshape of a
    // reduction that another kernel reads too) is cloned: the region gets
    // its own copy, so the kernel never reads a value made from its own
    // result outside it.
    //
    // Only a free op that some member reads can be pulled in, so each pass
    // looks at those (in program order, as a walk of the whole function
    // would meet them: what one pass pulls in decides what the next may),
    // not at the whole function: one walk per kernel made formation
    // quadratic in the length of the function.
    for (bool changed = true; changed;) {
      changed = false;
      llvm::SetVector<Operation *> candidates;
      for (Operation *member : region)
        for (Value v : member->getOperands())
          if (Operation *def = v.getDefiningOp())
            if (def->getBlock() == &body && !region.contains(def) &&
                isFreeOp(def) && !def->use_empty())
              candidates.insert(def);
      SmallVector<Operation *> inOrder(candidates.begin(), candidates.end());
      llvm::sort(inOrder, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      for (Operation *candidate : inOrder) {
        Operation &op = *candidate;
        if (region.contains(&op) || !isFreeOp(&op) || op.use_empty())
          continue;
        auto inRegion = [&](Operation *u) { return region.contains(u); };
        if (llvm::all_of(op.getUsers(), inRegion)) {
          changed |= region.insert(&op);
          continue;
        }
        if (llvm::none_of(op.getUsers(), inRegion))
          continue;
        // Clone the chain of free ops from the region's values to here.
        IRMapping mapping;
        std::function<bool(Operation *)> derived = [&](Operation *f) {
          bool any = false;
          for (Value v : f->getOperands()) {
            Operation *def = v.getDefiningOp();
            if (!def)
              continue;
            if (region.contains(def)) {
              any = true;
            } else if (isFreeOp(def) && derived(def)) {
              any = true;
              if (!mapping.contains(def->getResult(0))) {
                OpBuilder cb(def);
                Operation *c = cb.clone(*def, mapping);
                region.insert(c);
              }
            }
          }
          return any;
        };
        if (!derived(&op))
          continue;
        OpBuilder b(&op);
        Operation *copy = b.clone(op, mapping);
        for (auto [from, to] : llvm::zip(op.getResults(), copy->getResults()))
          from.replaceUsesWithIf(to, [&](OpOperand &use) {
            return region.contains(use.getOwner());
          });
        region.insert(copy);
        changed = true;
      }
    }
    SmallVector<Operation *> ops(region.begin(), region.end());
    llvm::sort(ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    Operation *last = ops.back();

    // The kernel's results: region values used outside the region.
    SmallVector<Value> outputs;
    for (Operation *op : ops)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(),
                         [&](Operation *u) { return !region.contains(u); }))
          outputs.push_back(r);

    KernelKind kind = plan.groupKinds[gid];
    std::string name =
        kernelName(ops, kind) + "_" + std::to_string(nextIndex++);
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    // The kf ops it holds, in program order: the names survive the merging
    // of its linalg ops.
    SmallVector<StringRef> opNames;
    for (Operation *op : ops)
      if (StringRef eagerOp = kf::getEagerOpName(op); !eagerOp.empty())
        opNames.push_back(eagerOp);
    auto kernel = kf::KernelOp::create(
        b, last->getLoc(), ValueRange(outputs).getTypes(), name, kind,
        /*mapping=*/nullptr, /*variant=*/nullptr, /*tiles=*/nullptr,
        b.getStrArrayAttr(opNames));
    Block *kbody = b.createBlock(&kernel.getBody());
    for (Operation *op : ops)
      op->moveBefore(kbody, kbody->end());
    b.setInsertionPointToEnd(kbody);
    kf::YieldOp::create(b, kernel.getLoc(), outputs);
    for (auto [v, r] : llvm::zip(outputs, kernel.getResults()))
      v.replaceUsesWithIf(r, [&](OpOperand &use) {
        return !kernel->isProperAncestor(use.getOwner());
      });
    for (unsigned n : plan.groups[gid])
      formed.kernelOfNode[n] = formed.kernels.size();
    formed.kernels.push_back(kernel);
    formed.names.push_back(name);
  }
  // Each kernel sits where its last member was. When groups interleave, a
  // kernel may now come before one it reads, or an op between two members
  // before the kernel it reads: a stable topological sort restores
  // dominance. The plan has no cycle between kernels, so such an order
  // exists.
  // A kernel whose every reader recomputes its ops is dead: erased here,
  // before anything else would (the greedy driver of body merging).
  for (kf::KernelOp &kernel : formed.kernels)
    if (kernel->use_empty()) {
      kernel.erase();
      kernel = nullptr;
    }
  if (failed(restoreOrder(body)))
    return func.emitError("kf-form-kernels: the kernels depend on each other "
                          "in a cycle");
  return formed;
}

namespace {

/// For each value a reduction kernel's ops write, the loop of the kernel's
/// first reduction that indexes each of its dims (-1: a unit or constant
/// dim), so that a later op's read of it says which of the op's loops are
/// which of the reduction's.
struct RowPlaces {
  mutable linalg::GenericOp first;   // the kernel's first reduction
  SmallVector<unsigned> rowLoops;    // its parallel loops, in order
  llvm::DenseMap<Value, SmallVector<int64_t>> places;
  /// The same for the tensors the first reduction reads from outside the
  /// kernel: where an op that shares one (a sibling) reads it in place.
  llvm::DenseMap<Value, SmallVector<int64_t>> inputPlaces;

  /// The reduction's loop that `op`'s loop `l` stands for: the same loop
  /// over rows x columns, the l-th row loop over the rows only.
  std::optional<unsigned> kernelLoop(linalg::GenericOp op, unsigned l) const {
    if (op.getNumLoops() == first.getNumLoops())
      return l;
    if (op.getNumLoops() == rowLoops.size())
      return rowLoops[l];
    return std::nullopt;
  }
  std::optional<unsigned> ownLoop(linalg::GenericOp op, unsigned k) const {
    if (op.getNumLoops() == first.getNumLoops())
      return k;
    auto it = llvm::find(rowLoops, k);
    if (op.getNumLoops() != rowLoops.size() || it == rowLoops.end())
      return std::nullopt;
    return it - rowLoops.begin();
  }
  void record(linalg::GenericOp op) {
    for (OpOperand &init : op.getDpsInitsMutable()) {
      SmallVector<int64_t> dims;
      for (AffineExpr e : op.getMatchingIndexingMap(&init).getResults()) {
        auto d = dyn_cast<AffineDimExpr>(e);
        std::optional<unsigned> k = d ? kernelLoop(op, d.getPosition()) : std::nullopt;
        dims.push_back(k ? (int64_t)*k : -1);
      }
      places[op->getResult(init.getOperandNumber() - op.getNumDpsInputs())] = dims;
    }
  }
  void recordInputs() {
    for (OpOperand *input : first.getDpsInputOperands()) {
      SmallVector<int64_t> dims;
      for (AffineExpr e : first.getMatchingIndexingMap(input).getResults()) {
        auto d = dyn_cast<AffineDimExpr>(e);
        dims.push_back(d ? (int64_t)d.getPosition() : -1);
      }
      inputPlaces[input->get()] = dims;
    }
  }
  /// The loop order (new loop i is old loop order[i]) in which every read
  /// `op` makes of a value the kernel wrote (or, with `siblings`, of a
  /// tensor the first reduction reads) is at that value's own element or
  /// row; nullopt when the reads disagree or say nothing.
  std::optional<SmallVector<unsigned>> order(linalg::GenericOp op, bool siblings) const {
    unsigned n = op.getNumLoops();
    SmallVector<int64_t> target(n, -1); // new loop -> old loop
    bool any = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      const SmallVector<int64_t> *at = nullptr;
      if (auto it = places.find(input->get()); it != places.end())
        at = &it->second;
      else if (auto in = inputPlaces.find(input->get()); siblings && in != inputPlaces.end())
        at = &in->second;
      if (!at)
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      for (auto [e, k] : llvm::zip(map.getResults(), *at)) {
        auto d = dyn_cast<AffineDimExpr>(e);
        if (!d || k < 0)
          continue;
        std::optional<unsigned> to = ownLoop(op, (unsigned)k);
        if (!to || (target[*to] >= 0 && target[*to] != (int64_t)d.getPosition()) ||
            (target[*to] < 0 && llvm::is_contained(target, (int64_t)d.getPosition())))
          return std::nullopt;
        target[*to] = d.getPosition();
        any = true;
      }
    }
    if (!any)
      return std::nullopt;
    // The loops no read placed keep their order in the free places.
    unsigned next = 0;
    SmallVector<unsigned> out;
    for (int64_t t : target) {
      if (t < 0) {
        while (llvm::is_contained(target, (int64_t)next))
          ++next;
        t = next++;
      }
      out.push_back(t);
    }
    return out;
  }
};

} // namespace

void readRowValuesInRowOrder(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](kf::KernelOp kernel) {
    if (kernel.getKind() != KernelKind::Reduction)
      return;
    RowPlaces rows;
    for (Operation &op : kernel.getBody().front())
      if (auto generic = dyn_cast<linalg::GenericOp>(op);
          generic && generic.getNumReductionLoops() > 0) {
        rows.first = generic;
        break;
      }
    if (!rows.first)
      return;
    for (auto [i, type] : llvm::enumerate(rows.first.getIteratorTypesArray()))
      if (type == utils::IteratorType::parallel)
        rows.rowLoops.push_back(i);
    rows.recordInputs();
    SmallVector<linalg::GenericOp> ops;
    for (Operation &op : kernel.getBody().front())
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        ops.push_back(generic);
    // An op that reads nothing the kernel wrote and that no reduction
    // reads (a sibling of the reductions; not a prologue, which must stay
    // in the order its reduction reads it) follows the tensor it shares
    // with the first reduction.
    auto sibling = [&](linalg::GenericOp op) {
      return llvm::none_of(op.getDpsInputs(), [&](Value v) { return rows.places.contains(v); }) &&
             llvm::none_of(op->getUsers(), [](Operation *user) {
               auto reader = dyn_cast<linalg::GenericOp>(user);
               return reader && reader.getNumReductionLoops() > 0;
             });
    };
    for (linalg::GenericOp generic : ops) {
      if (generic.getNumReductionLoops() == 0 && generic != rows.first) {
        std::optional<SmallVector<unsigned>> order = rows.order(generic, sibling(generic));
        if (order && !llvm::equal(*order, llvm::seq<unsigned>(0, order->size()))) {
          rewriter.setInsertionPoint(generic);
          FailureOr<linalg::GenericOp> swapped =
              linalg::interchangeGenericOp(rewriter, generic, *order);
          if (succeeded(swapped))
            generic = *swapped;
        }
      }
      // Only the reduction's own family and ops over its loops or rows
      // are placed; others keep what they are (the mappings decide).
      if (generic.getNumReductionLoops() == 0 ||
          generic.getIteratorTypesArray() == rows.first.getIteratorTypesArray())
        rows.record(generic);
    }
  });
}

} // namespace kfuse::fusion
