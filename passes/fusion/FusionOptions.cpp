//===- FusionOptions.cpp - kernel fusion's words: switches and reasons ----===//
//
// The switches of kernel fusion, parsed and printed, and the reasons two
// kernels stay apart, in the report's words.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/FusionOptions.h"
#include "passes/fusion/FusionPolicy.h"
#include "passes/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kfuse;
using namespace kfuse::fusion;

namespace {

/// A rule's switch: its name (the pass option's) and its field.
struct RuleSwitch {
  FusionRule rule;
  llvm::StringLiteral name;
  bool FusionOptions::*field;
};

constexpr RuleSwitch kRules[] = {
#define FUSION_RULE(Enum, field, name, description)                           \
  {FusionRule::Enum, name, &FusionOptions::field},
#include "passes/fusion/FusionRules.def"
};

const RuleSwitch &switchOf(FusionRule rule) {
  const RuleSwitch *s =
      llvm::find_if(kRules, [&](const RuleSwitch &r) { return r.rule == rule; });
  assert(s != std::end(kRules) && "a rule without a switch");
  return *s;
}

} // namespace

bool FusionOptions::allows(FusionRule rule) const {
  return this->*(switchOf(rule).field);
}

StringRef fusion::ruleName(FusionRule rule) { return switchOf(rule).name; }

FailureOr<FusionOptions>
fusion::parseFusionOptions(StringRef spec,
                           function_ref<InFlightDiagnostic()> emitError) {
  FusionOptions options;
  SmallVector<StringRef> words;
  SplitString(spec, words, ", \t");
  for (StringRef word : words) {
    auto [key, value] = word.split('=');
    bool hasValue = word.contains('=');
    if (!hasValue && (key == "on" || key == "off")) {
      options.enabled = key == "on";
      continue;
    }
    if (key == "fusion" && (value == "on" || value == "off")) {
      options.enabled = value == "on";
      continue;
    }
    if (key == "fusion")
      return emitError() << "fusion must be 'on' or 'off' (eager "
                            "boundaries), got '" << value << "'";
    if (key == "max-ops") {
      std::optional<unsigned> limit = parseMaxOps(value);
      if (!hasValue || !limit)
        return emitError() << "max-ops must be a number of ops from 0 (no "
                              "limit) to 4294967295, got '" << value << "'";
      options.maxOps = *limit;
      continue;
    }
    if (key == "attention-min-scores") {
      std::optional<std::optional<uint64_t>> bytes = parseAttentionMinScores(value);
      if (!hasValue || !bytes || !*bytes)
        return emitError() << "attention-min-scores must be a number of bytes, got '"
                           << value << "'";
      options.attentionMinScores = **bytes;
      continue;
    }
    const RuleSwitch *rule = llvm::find_if(
        kRules, [&](const RuleSwitch &r) { return r.name == key; });
    if (rule == std::end(kRules)) {
      InFlightDiagnostic diag = emitError();
      diag << "unknown fusion option '" << word
           << "': expected on, off, max-ops=N, attention-min-scores=BYTES or a rule (";
      llvm::interleave(
          kRules, [&](const RuleSwitch &r) { diag << r.name; },
          [&] { diag << ", "; });
      return diag << ")=true|false";
    }
    if (value != "true" && value != "false")
      return emitError() << "fusion rule '" << key
                         << "' must be set to true or false, got '" << word
                         << "'";
    options.*(rule->field) = value == "true";
  }
  return options;
}

std::string fusion::toString(const FusionOptions &options) {
  std::string s = options.enabled ? "fusion=on" : "fusion=off";
  if (options.maxOps != 0)
    s += " max-ops=" + std::to_string(options.maxOps);
  if (options.attentionMinScores)
    s += " attention-min-scores=" + std::to_string(*options.attentionMinScores);
  const FusionOptions defaults;
  for (const RuleSwitch &rule : kRules)
    if (options.*(rule.field) != defaults.*(rule.field))
      s += (" " + rule.name + "=" +
            (options.*(rule.field) ? "true" : "false"))
               .str();
  return s;
}

std::optional<unsigned> fusion::parseMaxOps(StringRef text) {
  unsigned value;
  if (text.trim().getAsInteger(10, value))
    return std::nullopt;
  return value;
}

std::optional<std::optional<uint64_t>> fusion::parseAttentionMinScores(StringRef text) {
  if (text.trim().empty())
    return std::optional<uint64_t>();
  uint64_t value;
  if (text.trim().getAsInteger(10, value))
    return std::nullopt;
  return std::optional<uint64_t>(value);
}

LogicalResult fusion::checkStringOptions(MLIRContext *ctx, StringRef pass, StringRef maxOps,
                                         StringRef attentionMinScores) {
  if (!parseMaxOps(maxOps))
    return emitError(UnknownLoc::get(ctx))
           << pass << ": max-ops must be a number of ops from 0 (no limit) to 4294967295, got '"
           << maxOps << "'";
  if (!parseAttentionMinScores(attentionMinScores))
    return emitError(UnknownLoc::get(ctx))
           << pass << ": attention-min-scores must be a number of bytes, got '"
           << attentionMinScores << "'";
  return success();
}

KfFormKernelsOptions fusion::toPassOptions(const FusionOptions &options) {
  KfFormKernelsOptions o;
  writeFusionOptions(options, o);
  return o;
}

// Why two kernels stay apart, in words.
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
