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

/// The `fusion` pass option: `on`, or `off` for eager's boundaries (one
/// kernel per op that PyTorch launches).
enum class FusionMode { On, Off };

/// The switches, with their defaults (everything on, no limit).
struct FusionOptions {
  bool enabled = true;
  unsigned maxOps = 0;            // 0: no limit
  bool pointwise = true;          // elementwise into elementwise
  bool reductionPrologue = true;  // elementwise into a reduction
  bool reductionEpilogue = true;  // elementwise after a reduction
  bool rowPersistent = true;      // a row reduction read back over its row
  bool matmulEpilogue = true;     // elementwise after a matmul
  bool reshape = true;            // elementwise through a reshape
  bool recompute = true;          // duplicate a cheap producer
  bool sibling = true;            // ops that read the same tensor, together
  bool reductionChain = true;     // a row reduction, then a full one of it
  bool smallReduction = true;     // unroll a reduction of <= 8 elements
};

/// The most elements a reduction unrolled in one thread combines
/// (`small-reduction`): the flat mapping runs such a reduction as
/// elementwise code (each thread one result, its elements one after the
/// other), where a row kernel would give a block to 8 elements.
constexpr int64_t kSmallReductionElements = 8;

/// Parses a list of words separated by commas or spaces: `on`, `off`,
/// `max-ops=N`, and a rule's switch `<rule>=true|false` with the rule
/// named as the pass option is (`pointwise`, `reduction-prologue`,
/// `reduction-epilogue`, `row-persistent`, `matmul-epilogue`, `reshape`,
/// `recompute`, `sibling`, `reduction-chain`, `small-reduction`); `fusion=on|off` is `on|off`, so toString's output parses
/// back. Later words win; the empty list is the defaults. Anything else is
/// reported through `emitError` (naming the word) and fails.
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

/// The options of kf-form-kernels that say `options` (for building a
/// pipeline in C++).
KfFormKernelsOptions toPassOptions(const FusionOptions &options);

/// Reads the KfFusionOptions of a pass or of its options struct
/// (kf-form-kernels, kf-kernel-report); the caller has checked `max-ops`
/// with parseMaxOps.
template <typename PassOrOptions>
FusionOptions readFusionOptions(const PassOrOptions &p) {
  FusionOptions o;
  FusionMode mode = p.fusion;
  o.enabled = mode == FusionMode::On;
  const std::string &maxOps = p.maxOps;
  o.maxOps = parseMaxOps(maxOps).value_or(0);
  o.pointwise = p.pointwise;
  o.reductionPrologue = p.reductionPrologue;
  o.reductionEpilogue = p.reductionEpilogue;
  o.rowPersistent = p.rowPersistent;
  o.matmulEpilogue = p.matmulEpilogue;
  o.reshape = p.reshape;
  o.recompute = p.recompute;
  o.sibling = p.sibling;
  o.reductionChain = p.reductionChain;
  o.smallReduction = p.smallReduction;
  return o;
}

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_FUSIONOPTIONS_H
