//===- Run.h - kfuse-run's steps ---------------------------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_RUN_H
#define KFUSE_TOOLS_KFUSE_RUN_RUN_H

#include "Options.h"
#include "Program.h"
#include "Report.h"

namespace kfuse::run {

/// The temporary directory of this run (compiled library, --check files),
/// removed at exit, also when the runtime stops the run.
const std::string &tempDir();
void removeTempDir();

/// kfuse-compile's exit status when --float64-reference is refused because
/// the program has no float64 reference (hand-written kernels, calls,
/// control flow): --check then compares with the unfused run instead.
constexpr int kNoFloat64ReferenceExit = 3;

/// The versions of a .mlir program a run builds (kfuse-compile --variants):
/// the one it runs (fused, or eager for --fusion=off), for the GPU and the
/// host, or the host only with --device=cpu. An eager 1,000-op program is
/// some 3,400 kernels: building them for a fused run took 40% of its
/// first run's compile. (--check's unfused run has a library of its own:
/// CachedCompile::unfused.)
std::string libraryVariants(const Options &o);

/// Compiles a .mlir program with the kfuse-compile next to this tool. For
/// a float64 reference (o.float64Reference) that the program cannot have,
/// returns false with `noReference` set to kfuse-compile's reason (and
/// `error` empty); its other failures are printed as they came.
bool compileProgram(const Options &o, std::string &library, double &ms,
                    std::string &error, std::string *noReference = nullptr);

/// The files of --input-dir that a run reads (its argN.npy, those --input
/// does not replace), as (label, path): no output may replace one.
std::vector<std::pair<std::string, std::string>> inputDirFiles(const Options &o);

/// The inputs of `f`: from .npy files or random; fills the size symbols.
bool prepareInputs(const Options &o, const FunctionInfo &f, const VariantInfo &v,
                   std::vector<Tensor> &inputs, Symbols &symbols, std::string &error);

/// The directory of this executable (kfuse-compile is beside it).
std::string selfDir();
/// Runs `argv` and returns its exit status; -1 when it did not start,
/// 128 + N when signal N killed it. While it runs, a fatal signal to
/// kfuse-run stops it too (Cleanup.h).
/// With `stderrPath`, the child's stderr goes to that file.
int spawn(const std::vector<std::string> &argv, const std::string &stderrPath = "");
/// " (killed by signal N, NAME)" for a status from spawn, or "".
std::string signalNote(int status);

/// --check (Check.cpp): runs the unfused program on the CPU and, when
/// `reference` names one (a library from kfuse-compile --float64-reference
/// of the same program), the float64 reference, each in a child kfuse-run
/// on the same inputs, and judges `results` against the float64 values and
/// their error bounds (without a reference: against the unfused results).
CheckResult checkResults(const Options &o, const std::string &library,
                         const std::string &reference, const FunctionInfo &f,
                         const std::vector<Tensor> &inputs,
                         const std::vector<Tensor> &results,
                         const std::string &noReference, std::string &error);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_RUN_H
