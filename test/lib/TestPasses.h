//===- TestPasses.h - kfuse passes for tests only --------------*- C++ -*-===//
#ifndef KFUSE_TEST_LIB_TESTPASSES_H
#define KFUSE_TEST_LIB_TESTPASSES_H

#include "mlir/Pass/Pass.h"

namespace kfuse {

#define GEN_PASS_DECL
#include "test/lib/TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "test/lib/TestPasses.h.inc"

/// Registers kf-gpu-emulation-pipeline (the GPU pipeline up to its
/// launches, run as host loops) and kf-gpu-emulation-reversed-pipeline (the
/// same, each launch's blocks from the last): kfuse-opt only.
void registerKfuseTestPipelines();

} // namespace kfuse

#endif // KFUSE_TEST_LIB_TESTPASSES_H
