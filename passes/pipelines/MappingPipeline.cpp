//===- MappingPipeline.cpp - kernels on tensors to gpu.launch on buffers --===//
//
// The GPU mapping segment of the Gpu stage (Pipelines.h), in one place:
// each kernel's mapping is decided once, on tensors; the kf.kernel survives
// bufferization (its buffers then allocated before it, so that
// deallocation frees them after the whole kernel) and each kernel is
// replaced by its launch. Deallocation runs before the launches exist (it
// does not know gpu.barrier).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/pipelines/Pipelines.h"
#include "passes/gpu/KernelMapping.h"
#include "passes/gpu/KfMapKernelsToGpu.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kfuse::addGpuMappingPasses(OpPassManager &pm,
                                const PipelineOptions &options) {
  bool host = options.target == Target::Host;
  KfAssignKernelMappingsOptions assign;
  // The host runtime runs a kernel no mapping serves as one serial launch.
  assign.serialFallback = host;
  // The matmul's design, chosen once from the typed target.
  assign.matmul = options.matmul;
  assign.tf32 = options.tf32;
  assign.matmulTiles = options.matmulTiles;
  pm.addPass(gpu::createKfAssignKernelMappings(assign, options.gpu));
  pm.addPass(createCanonicalizerPass());
  // Puts back the copies of copy-only kernels the canonicalizer erased.
  pm.addPass(createKfMaterializeKernelResults());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createKfOrderConstantGlobals()); // upstream's order varies
  pm.addPass(createKfHoistKernelBuffers());
  addDeallocationPasses(pm);
  if (host) {
    KfMapKernelsToHostOptions map;
    map.vectorBits = options.hostVectorBits;
    pm.addPass(createKfMapKernelsToHost(map));
    return;
  }
  KfMapKernelsToGpuOptions map;
  map.blockSize = options.blockSize;
  pm.addPass(gpu::createCheckedKfMapKernelsToGpu(map));
}

void kfuse::addDeallocationPasses(OpPassManager &pm) {
  // buffer-deallocation-pipeline as MLIR 22 builds it (BufferizationPipelines
  // .cpp), kf-split-deallocs added.
  memref::ExpandReallocPassOptions expand;
  expand.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(expand));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createKfSplitDeallocs());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}
