//===- SplitFunctions.cpp - huge host functions cut into pieces -----------===//
#include "tools/kfuse-compile/SplitFunctions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace llvm;

namespace kfuse {
namespace {

unsigned lengthOf(const Function &f) {
  unsigned n = 0;
  for (const BasicBlock &bb : f)
    n += bb.size();
  return n;
}

/// Where `container`'s body starts: the function's entry block, or the one
/// successor of the loop's header inside the loop (null when there is not
/// exactly one, or the header is its own body).
BasicBlock *bodyEntry(Function &f, Loop *container) {
  if (!container)
    return &f.getEntryBlock();
  BasicBlock *entry = nullptr;
  for (BasicBlock *s : successors(container->getHeader())) {
    if (!container->contains(s))
      continue;
    if (entry && entry != s)
      return nullptr;
    entry = s;
  }
  return entry == container->getHeader() ? nullptr : entry;
}

/// One analysis of a function: the spans of one container (the function's
/// top level or a loop) that can become pieces, each a list of blocks whose
/// first is its only entry, and the block each span leaves to.
struct Span {
  SmallVector<BasicBlock *> blocks;
  BasicBlock *exit;
};

/// The spans of `container`, about `piece` instructions each; empty when
/// it cannot be cut into at least two. The cut points are the blocks
/// directly in the container that its body's entry dominates and that
/// post-dominate it: every run of the body passes them in order, so the
/// blocks from one cut point up to the next form a single-entry
/// single-exit region. The last one (the latch, or the return) stays.
SmallVector<Span> spansOf(Function &f, Loop *container, LoopInfo &loops,
                          DominatorTree &dt, PostDominatorTree &pdt,
                          unsigned piece) {
  BasicBlock *entry = bodyEntry(f, container);
  if (!entry)
    return {};
  auto inContainer = [&](BasicBlock *bb) {
    return !container || container->contains(bb);
  };
  SmallVector<BasicBlock *> points;
  // Not the function's entry block: a piece cannot begin there.
  auto consider = [&](BasicBlock *bb) {
    if (loops.getLoopFor(bb) == container && bb != &f.getEntryBlock() &&
        dt.dominates(entry, bb) && pdt.dominates(bb, entry))
      points.push_back(bb);
  };
  if (container)
    for (BasicBlock *bb : container->blocks())
      consider(bb);
  else
    for (BasicBlock &bb : f)
      consider(&bb);
  if (points.size() < 3)
    return {};
  llvm::sort(points, [&](BasicBlock *a, BasicBlock *b) {
    return dt.getNode(a)->getDFSNumIn() < dt.getNode(b)->getDFSNumIn();
  });
  for (size_t i = 1; i < points.size(); ++i)
    if (!dt.dominates(points[i - 1], points[i]))
      return {}; // not a chain: code this cut does not understand
  // The segment of a block: the last cut point that dominates it, found in
  // one walk of the dominator tree below the entry (-1: none does).
  DenseMap<BasicBlock *, int> cutIndex, segment;
  for (auto [i, bb] : llvm::enumerate(points))
    cutIndex[bb] = i;
  for (DomTreeNode *node : depth_first(dt.getNode(entry))) {
    BasicBlock *bb = node->getBlock();
    auto cut = cutIndex.find(bb);
    DomTreeNode *idom = node->getIDom();
    auto above = idom ? segment.find(idom->getBlock()) : segment.end();
    segment[bb] = cut != cutIndex.end() ? cut->second
                  : above != segment.end() ? above->second
                                           : -1;
  }
  // Consecutive segments, but never the last (it holds the latch or the
  // return), gathered into spans of about `piece` instructions.
  int last = points.size() - 1;
  SmallVector<unsigned> length(last + 1, 0);
  for (auto [bb, seg] : segment)
    if (seg >= 0 && inContainer(bb))
      length[seg] += bb->size();
  SmallVector<int> spanOf(last + 1, -1);
  int spans = 0;
  for (int k = 0, sum = 0; k < last; ++k) {
    spanOf[k] = spans;
    sum += length[k];
    if (sum >= (int)piece || k + 1 == last) {
      ++spans;
      sum = 0;
    }
  }
  if (spans < 2)
    return {};
  SmallVector<Span> result(spans);
  SmallVector<int> firstSegment(spans, -1);
  for (int k = 0; k < last; ++k) {
    if (firstSegment[spanOf[k]] < 0)
      firstSegment[spanOf[k]] = k;
  }
  for (int s = 0; s < spans; ++s) {
    result[s].blocks.push_back(points[firstSegment[s]]);
    result[s].exit = points[s + 1 < spans ? firstSegment[s + 1] : last];
  }
  for (BasicBlock &bb : f) {
    auto seg = segment.find(&bb);
    if (seg == segment.end() || seg->second < 0 || seg->second >= last ||
        !inContainer(&bb))
      continue;
    Span &span = result[spanOf[seg->second]];
    if (&bb != span.blocks.front())
      span.blocks.push_back(&bb);
  }
  return result;
}

/// True when control enters `span` only at its first block and leaves it
/// only to its exit.
bool singleEntryExit(const Span &span) {
  SmallPtrSet<BasicBlock *, 32> in(span.blocks.begin(), span.blocks.end());
  for (BasicBlock *bb : span.blocks) {
    for (BasicBlock *s : successors(bb))
      if (!in.contains(s) && s != span.exit)
        return false;
    if (bb != span.blocks.front())
      for (BasicBlock *p : predecessors(bb))
        if (!in.contains(p))
          return false;
  }
  return true;
}

/// Cuts `f` once: the spans of the outermost container that has at least
/// two, each extracted into a noinline function. Returns the pieces.
SmallVector<Function *> cutOnce(Function &f, unsigned piece) {
  DominatorTree dt(f);
  dt.updateDFSNumbers();
  PostDominatorTree pdt(f);
  LoopInfo loops(dt);
  SmallVector<Loop *> containers = {nullptr};
  llvm::append_range(containers, loops.getLoopsInPreorder());
  for (Loop *container : containers) {
    SmallVector<Span> spans = spansOf(f, container, loops, dt, pdt, piece);
    if (spans.empty())
      continue;
    // Valid across the extractions of one function (CodeExtractor.h).
    CodeExtractorAnalysisCache cache(f);
    SmallVector<Function *> pieces;
    for (const Span &span : spans) {
      if (!singleEntryExit(span))
        continue;
      CodeExtractor extractor(span.blocks, /*DT=*/nullptr, /*AggregateArgs=*/false,
                              nullptr, nullptr, nullptr, /*AllowVarArgs=*/false,
                              /*AllowAlloca=*/false, /*AllocationBlock=*/nullptr,
                              "kfuse_piece");
      if (!extractor.isEligible())
        continue;
      if (Function *extracted = extractor.extractCodeRegion(cache)) {
        extracted->addFnAttr(Attribute::NoInline);
        pieces.push_back(extracted);
      }
    }
    if (!pieces.empty())
      return pieces;
  }
  return {};
}

/// Inlines every internal function with more than `maxArguments` arguments
/// into its one caller, and erases it.
void inlineWideCallees(Module &m, unsigned maxArguments) {
  SmallVector<CallBase *> calls;
  for (Function &f : m) {
    if (f.isDeclaration() || !f.hasLocalLinkage() || f.arg_size() <= maxArguments ||
        !f.hasOneUse())
      continue;
    auto *call = dyn_cast<CallBase>(f.user_back());
    if (call && call->getCalledFunction() == &f)
      calls.push_back(call);
  }
  for (CallBase *call : calls) {
    Function *callee = call->getCalledFunction();
    InlineFunctionInfo info;
    if (InlineFunction(*call, info).isSuccess() && callee->use_empty())
      callee->eraseFromParent();
  }
}

} // namespace

unsigned splitHugeFunctions(Module &m, unsigned maxInstructions,
                            unsigned pieceInstructions) {
  SmallVector<Function *> work;
  inlineWideCallees(m, kMaxCallArguments);
  for (Function &f : m)
    if (!f.isDeclaration() && lengthOf(f) > maxInstructions)
      work.push_back(&f);
  unsigned made = 0;
  while (!work.empty()) {
    Function *f = work.pop_back_val();
    // A function is cut until it is short enough, or no container can be
    // cut, or a cut no longer shortens it (its spans were calls already).
    for (unsigned length = lengthOf(*f), round = 0;
         length > maxInstructions && round < 16; ++round) {
      SmallVector<Function *> pieces = cutOnce(*f, pieceInstructions);
      made += pieces.size();
      for (Function *p : pieces)
        if (lengthOf(*p) > maxInstructions)
          work.push_back(p);
      unsigned after = lengthOf(*f);
      if (pieces.empty() || after >= length)
        break;
      length = after;
    }
  }
  return made;
}

} // namespace kfuse
