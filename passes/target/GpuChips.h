//===- GpuChips.h - the GPU chips and PTX ISA kfuse targets -----*- C++ -*-===//
//
// The facts alone, without LLVM, so that kfuse-run (which links no LLVM)
// prints the same list in --version as the compiler checks (GpuTarget.h
// says why these chips and this ISA).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_TARGET_GPUCHIPS_H
#define KFUSE_PASSES_TARGET_GPUCHIPS_H

namespace kfuse::gpu {

inline constexpr const char *kPtxIsa = "8.0";
inline constexpr const char *kChips[] = {"sm_75", "sm_80", "sm_86", "sm_87",
                                         "sm_89", "sm_90", "sm_90a"};
inline constexpr const char *kDefaultChip = "sm_75";

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_TARGET_GPUCHIPS_H
