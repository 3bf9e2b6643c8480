//===- FusionOptions.h - the switches of kernel fusion, one spelling -*- C++ -*-===//
//
// What a researcher turns: fusion on or off, a limit on ops per kernel, and
// each rule of kf-form-kernels. The same words everywhere: the options of
// kf-form-kernels and kf-kernel-report (Passes.td, KfFusionOptions), and
// the `--fusion` of kfuse-compile and kfuse-run, which take a list such as
// `on,row-persistent=false,max-ops=8` (parseFusionOptions).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_FUSION_FUSIONOPTIONS_H
#define KFUSE_PASSES_FUSION_FUSIONOPTIONS_H

#include "passes/PassOptionEnums.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kfuse {
struct KfFormKernelsOptions;
} // namespace kfuse

namespace kfuse::fusion {

/// A rule of kf-form-kernels that can be switched off (FusionRules.def).
enum class FusionRule {
#define FUSION_RULE(Enum, field, name, description) Enum,
#include "passes/fusion/FusionRules.def"
};

/// The switches, with their defaults (everything on, no limit).
struct FusionOptions {
  bool enabled = true;
  unsigned maxOps = 0; // 0: no limit
  /// The least bytes of scores for which the attention rule forms a kernel
  /// (static sizes; dynamic ones are formed); nullopt: the target's
  /// default, kGpuAttentionMinScores or kHostAttentionMinScores.
  std::optional<uint64_t> attentionMinScores;
#define FUSION_RULE(Enum, field, name, description) bool field = true;
#include "passes/fusion/FusionRules.def"

  /// Whether `rule` is on.
  bool allows(FusionRule rule) const;
};

/// Whether kf-to-linalg merges chains of reductions of one kind
/// (`merge-reductions`): for fused programs with the rule reduction-chain.
inline bool mergesReductions(const FusionOptions &options) {
  return options.enabled && options.allows(FusionRule::ReductionChain);
}

/// The name of `rule`'s switch, as the pass option and `--fusion` spell it
/// (`row-persistent`).
llvm::StringRef ruleName(FusionRule rule);

/// The attention rule's default least scores (`attention-min-scores`) by
/// target. On the GPU the kernel pays at any size (the scores' round trip
/// through memory is the cost it removes). On the host runtime the three
/// kernels were faster at every size measured (GPT-2 blocks of T64 and
/// T512: 1.2 and 1.5 times; docs/BENCHMARKS.md): their scores stay in
/// cache, and the matmuls run the register-tiled kernel. The one kernel is
/// formed there where the scores would take a gigabyte of memory.
constexpr uint64_t kGpuAttentionMinScores = 0;
constexpr uint64_t kHostAttentionMinScores = uint64_t(1) << 30;

/// The most elements a reduction unrolled in one thread combines
/// (`small-reduction`): the flat mapping runs such a reduction as
/// elementwise code (each thread one result, its elements one after the
/// other), where a row kernel would give a block to 8 elements.
constexpr int64_t kSmallReductionElements = 8;

/// Parses a list of words separated by commas or spaces: `on`, `off`,
/// `max-ops=N`, and a rule's switch `<rule>=true|false` with the rule
/// named as the pass option is (FusionRules.def); `fusion=on|off` is
/// `on|off`, so toString's output parses back. Later words win; the empty
/// list is the defaults. Anything else is reported through `emitError`
/// (naming the word and the rules) and fails.
mlir::FailureOr<FusionOptions>
parseFusionOptions(llvm::StringRef spec,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// `options` in the pass-option syntax of kf-form-kernels: `fusion=on|off`,
/// then each switch that differs from its default
/// (`fusion=on max-ops=8 row-persistent=false`).
std::string toString(const FusionOptions &options);

/// The value of the `max-ops` pass option: a number of ops from 0 (no
/// limit) to 2^32 - 1; nullopt for anything else ("-1", "x", "1e9"). The
/// option is a string because llvm::cl refuses "-1" for an unsigned with a
/// message the pass manager turns into an empty error.
std::optional<unsigned> parseMaxOps(llvm::StringRef text);

/// The value of the `attention-min-scores` pass option: empty (the
/// target's default: an engaged nullopt) or a number of bytes; nullopt
/// for anything else.
std::optional<std::optional<uint64_t>> parseAttentionMinScores(llvm::StringRef text);

/// Checks the fusion options llvm::cl takes as strings (max-ops,
/// attention-min-scores) of `pass`, before any IR is touched; the error
/// names the pass and the option.
mlir::LogicalResult checkStringOptions(mlir::MLIRContext *ctx, llvm::StringRef pass,
                                       llvm::StringRef maxOps,
                                       llvm::StringRef attentionMinScores);

/// The options of kf-form-kernels that say `options` (for building a
/// pipeline in C++).
KfFormKernelsOptions toPassOptions(const FusionOptions &options);

/// Reads the KfFusionOptions of a pass or of its options struct
/// (kf-form-kernels, kf-kernel-report, the named pipelines); the caller
/// has checked `max-ops` with parseMaxOps.
template <typename PassOrOptions>
FusionOptions readFusionOptions(const PassOrOptions &p) {
  FusionOptions o;
  FusionMode mode = p.fusion;
  o.enabled = mode == FusionMode::On;
  const std::string &maxOps = p.maxOps;
  o.maxOps = parseMaxOps(maxOps).value_or(0);
  const std::string &minScores = p.attentionMinScores;
  o.attentionMinScores = parseAttentionMinScores(minScores).value_or(std::nullopt);
#define FUSION_RULE(Enum, field, name, description) o.field = p.field;
#include "passes/fusion/FusionRules.def"
  return o;
}

/// Writes `options` into the KfFusionOptions of a pass's options struct
/// (KfFormKernelsOptions, KfKernelReportOptions).
template <typename PassOptions>
void writeFusionOptions(const FusionOptions &options, PassOptions &o) {
  o.fusion = options.enabled ? FusionMode::On : FusionMode::Off;
  o.maxOps = std::to_string(options.maxOps);
  o.attentionMinScores =
      options.attentionMinScores ? std::to_string(*options.attentionMinScores) : "";
#define FUSION_RULE(Enum, field, name, description) o.field = options.field;
#include "passes/fusion/FusionRules.def"
}

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_FUSIONOPTIONS_H
