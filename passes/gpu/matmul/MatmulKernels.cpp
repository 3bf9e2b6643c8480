//===- MatmulKernels.cpp - which kernel a matmul gets ---------------------===//
//
// The entry of the matmul mappings: the check on tensors, and the choice
// of kernel on buffers (MatmulParts.h lists the emitters).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulKernels.h"

#include "passes/gpu/matmul/MatmulParts.h"

using namespace mlir;

namespace kfuse::gpu {

LogicalResult checkMatmulKernel(ArrayRef<linalg::LinalgOp> ops,
                                function_ref<InFlightDiagnostic()> refuse) {
  matmul::Parts parts;
  return matmul::analyze(ops, refuse, parts);
}

bool hasTensorCores(StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") && !chip.getAsInteger(10, version) && version >= 80;
}

void mapMatmulKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops, bool host,
                     MatmulDesign design, bool tensorCores, bool tf32) {
  matmul::Parts parts = matmul::partsOf(ops);
  if (!host && design == MatmulDesign::Fastest && tensorCores &&
      matmul::tensorCoreFits(parts, tf32))
    return matmul::mapTensorCore(b, name, parts);
  if (!host && design == MatmulDesign::Fastest && matmul::simtFits(parts))
    return matmul::mapSimt(b, name, parts);
  matmul::mapReference(b, name, parts, host);
}

} // namespace kfuse::gpu
