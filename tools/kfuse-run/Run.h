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

/// Compiles a .mlir program with the kfuse-compile next to this tool.
bool compileProgram(const Options &o, std::string &library, double &ms,
                    std::string &error);

/// The inputs of `f`: from .npy files or random; fills the size symbols.
bool prepareInputs(const Options &o, const FunctionInfo &f, const VariantInfo &v,
                   std::vector<Tensor> &inputs, Symbols &symbols, std::string &error);

/// Runs the unfused program on the CPU in a child kfuse-run on the same
/// inputs and compares the results.
CheckResult checkAgainstCpu(const Options &o, const std::string &library,
                            const FunctionInfo &f, const std::vector<Tensor> &inputs,
                            const std::vector<Tensor> &results, std::string &error);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_RUN_H
