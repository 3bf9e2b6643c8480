//===- FusionOptions.cpp - the switches of kernel fusion, parsed and printed ===//
#include "passes/fusion/FusionOptions.h"
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
    const RuleSwitch *rule = llvm::find_if(
        kRules, [&](const RuleSwitch &r) { return r.name == key; });
    if (rule == std::end(kRules)) {
      InFlightDiagnostic diag = emitError();
      diag << "unknown fusion option '" << word
           << "': expected on, off, max-ops=N or a rule (";
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

KfFormKernelsOptions fusion::toPassOptions(const FusionOptions &options) {
  KfFormKernelsOptions o;
  writeFusionOptions(options, o);
  return o;
}
