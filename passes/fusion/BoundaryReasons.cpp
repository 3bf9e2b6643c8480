//===- BoundaryReasons.cpp - why two kernels stay apart, in words ---------===//
#include "passes/fusion/FusionPolicy.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace kfuse::fusion {

std::string reasonCode(Reason r) {
  std::string code = kf::stringifyBoundaryReason(r).str();
  llvm::replace(code, '_', '-'); // the IR's fusion_off is the report's fusion-off
  return code;
}

std::string reasonWords(Reason r, StringRef rule) {
  switch (r) {
  case Reason::Fused: return ("fused (" + rule + ")").str();
  case Reason::Recomputed: return "producer recomputed in the consumer's kernel";
  case Reason::FusionOff: return "fusion is off (eager boundaries)";
  // The switch that turns the rule back on, as the user writes it (the
  // reason's code already says "rule-disabled").
  case Reason::RuleDisabled: return (rule + "=false").str();
  case Reason::ProducerReduction: return "producer is a reduction";
  case Reason::DuplicateReduction: return "would duplicate a reduction";
  case Reason::ReductionMismatch: return "reductions over different dims or sizes";
  case Reason::MatmulBoundary: return "matmul boundary";
  case Reason::NotInPlace:
    return "read at other elements (a broadcast, a view) and read elsewhere "
           "too: it cannot be computed at the element its reader needs";
  case Reason::Reshape: return "reshape changes the iteration space";
  case Reason::OpLimit: return "op limit reached";
  case Reason::Cycle: return "fusing would make a cycle between kernels";
  case Reason::AnchorConflict: return "a kernel holds one matmul or one family of reductions";
  case Reason::RowMismatch:
    return "an op would iterate over neither the reduction's rows nor its rows x columns";
  case Reason::OtherRow:
    return "reads the reduction's value of another row (one block owns a row)";
  case Reason::Materialize:
    return "kf.contiguous writes its value to memory: its readers read it there";
  case Reason::Gathered:
    return "read at indices loaded when it runs (a table): the whole "
           "value must be in memory before the kernel starts";
  case Reason::Unmappable:
    return ("no GPU mapping serves the fused kernel (" + rule + ")").str();
  }
  llvm_unreachable("unknown reason");
}

} // namespace kfuse::fusion
