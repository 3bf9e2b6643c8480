//===- MappingUtils.cpp - pieces shared by the GPU mappings ---------------===//
#include "passes/launch/MappingUtils.h"

using namespace mlir;

gpu::LaunchOp kfuse::gpu::buildKernelLaunch(OpBuilder &b, Location loc,
                                            StringRef name,
                                            const LaunchGeometry &g,
                                            TypeRange workgroup) {
  MLIRContext *ctx = b.getContext();
  return mlir::gpu::LaunchOp::create(
      b, loc, g.gridX, g.gridY, g.gridZ, g.blockX, g.blockY, g.blockZ,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroup, /*privateAttributions=*/{},
      /*clusterSizeX=*/nullptr, /*clusterSizeY=*/nullptr,
      /*clusterSizeZ=*/nullptr, FlatSymbolRefAttr::get(ctx, kKernelModule),
      FlatSymbolRefAttr::get(ctx, name));
}
