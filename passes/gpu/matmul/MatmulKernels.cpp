//===- MatmulKernels.cpp - which kernel a matmul gets ---------------------===//
//
// The entry of the matmul mappings: the check and the choice of kernel
// (the variant), both on tensors, and the emitter the variant names on
// buffers (MatmulParts.h lists the emitters).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulKernels.h"
#include "passes/gpu/matmul/MatmulTiles.h"

#include "passes/gpu/matmul/MatmulParts.h"

using namespace mlir;

namespace kfuse::gpu {

LogicalResult checkMatmulKernel(ArrayRef<linalg::LinalgOp> ops,
                                function_ref<InFlightDiagnostic()> refuse) {
  matmul::Parts parts;
  return matmul::analyze(ops, refuse, parts);
}

kf::KernelVariant chooseMatmulVariant(ArrayRef<linalg::LinalgOp> ops,
                                      const GpuTarget &target, MatmulDesign design,
                                      bool tf32) {
  if (design == MatmulDesign::Reference)
    return kf::KernelVariant::Reference;
  matmul::Parts parts = matmul::partsOf(ops);
  if (target.tensorCores == TensorCores::Wgmma && matmul::wgmmaFits(parts))
    return kf::KernelVariant::Wgmma;
  if (target.hasTensorCores() && matmul::tensorCoreFits(parts, tf32))
    return kf::KernelVariant::TensorCore;
  if (matmul::simtFits(parts))
    return kf::KernelVariant::Simt;
  return kf::KernelVariant::Reference;
}

void mapMatmulKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                     const launch::LaunchTarget &target, kf::KernelVariant variant,
                     kf::MatmulTilesAttr tiles) {
  matmul::Parts parts = matmul::partsOf(ops);
  // Warp-level tiles: only where a block's threads cooperate.
  assert((variant == kf::KernelVariant::Reference || target.hasCooperativeThreads()) &&
         "a tensor-core or SIMT matmul on blocks of one thread");
  switch (variant) {
  case kf::KernelVariant::TensorCore:
    return matmul::mapTensorCore(b, name, parts,
                                 tiles ? tiles : defaultTensorCoreTiles(b.getContext()));
  case kf::KernelVariant::Wgmma:
    return matmul::mapWgmma(b, name, parts);
  case kf::KernelVariant::Simt:
    return matmul::mapSimt(b, name, parts);
  case kf::KernelVariant::Reference:
    return matmul::mapReference(b, name, parts, target);
  }
  llvm_unreachable("a matmul variant without a kernel");
}

} // namespace kfuse::gpu
