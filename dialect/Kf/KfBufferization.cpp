//===- KfBufferization.cpp - kf.kernel and kf.yield on buffers ------------===//
//
// kf.kernel bufferizes as scf.execute_region does (upstream's
// SCF/Transforms/BufferizableOpInterfaceImpl.cpp): it has no tensor
// operands (its region captures what it reads), each result is equivalent
// to the value kf.yield yields for it, and bufferizing it makes the same
// region with memref results. The ops inside bufferize on their own, so
// their buffers are first allocated inside the region; kf-hoist-kernel-
// buffers then allocates them before the kernel and drops its results
// (passes/gpu/KfHoistKernelBuffers.cpp says why). The interfaces are
// declared in KfOps.td, so every tool that loads the dialect bufferizes
// kernels, with no registration to forget.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace kfuse::kf {

//===----------------------------------------------------------------------===//
// KernelOp: RegionBranchOpInterface
//===----------------------------------------------------------------------===//

/// The body runs once; control then returns to the kernel with the values
/// kf.yield names. Buffer deallocation needs this to know that a buffer
/// the body uses is live until the kernel ends.
void KernelOp::getSuccessorRegions(RegionBranchPoint point,
                                   SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent()) {
    regions.emplace_back(&getBody());
    return;
  }
  regions.emplace_back(getOperation(), getResults());
}

//===----------------------------------------------------------------------===//
// KernelOp: BufferizableOpInterface
//===----------------------------------------------------------------------===//

/// A kernel has no tensor operands; to let the analysis follow use-def
/// chains through it, each result aliases (is) the value yielded for it.
AliasingOpOperandList
KernelOp::getAliasingOpOperands(Value value, const AnalysisState &) {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  unsigned index = cast<OpResult>(value).getResultNumber();
  return {{&yield->getOpOperand(index), BufferRelation::Equivalent}};
}

/// A result's buffer is the yielded value's (already a memref once the
/// body is bufferized: the ops of a region may bufferize before it, as
/// scf.if's branches may).
FailureOr<BufferLikeType>
KernelOp::getBufferType(Value value, const BufferizationOptions &options,
                        const BufferizationState &state,
                        SmallVector<Value> &invocationStack) {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  Value yielded = yield.getValues()[cast<OpResult>(value).getResultNumber()];
  if (auto buffer = dyn_cast<BufferLikeType>(yielded.getType()))
    return buffer;
  return bufferization::getBufferType(yielded, options, state, invocationStack);
}

/// The same kernel (name, kind, attributes, region) with memref results of
/// the yielded values' buffer types.
LogicalResult KernelOp::bufferize(RewriterBase &rewriter,
                                  const BufferizationOptions &options,
                                  BufferizationState &state) {
  SmallVector<Type> types;
  for (Value result : getResults()) {
    FailureOr<BufferLikeType> type =
        bufferization::getBufferType(result, options, state);
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  rewriter.setInsertionPoint(*this);
  auto bufferized = KernelOp::create(rewriter, getLoc(), types, ValueRange(),
                                     getOperation()->getAttrs());
  rewriter.inlineRegionBefore(getBody(), bufferized.getBody(),
                              bufferized.getBody().end());
  replaceOpWithBufferizedValues(rewriter, *this, bufferized.getResults());
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp: BufferizableOpInterface
//===----------------------------------------------------------------------===//

bool YieldOp::bufferizesToMemoryRead(OpOperand &, const AnalysisState &) {
  return true;
}

bool YieldOp::bufferizesToMemoryWrite(OpOperand &, const AnalysisState &) {
  return false;
}

AliasingValueList YieldOp::getAliasingValues(OpOperand &operand,
                                             const AnalysisState &) {
  return {{getParentOp()->getResult(operand.getOperandNumber()),
           BufferRelation::Equivalent}};
}

/// In place always: a copy would be allocated inside the kernel for
/// nothing (as for scf.yield).
bool YieldOp::mustBufferizeInPlace(OpOperand &, const AnalysisState &) {
  return true;
}

LogicalResult YieldOp::bufferize(RewriterBase &rewriter,
                                 const BufferizationOptions &options,
                                 BufferizationState &state) {
  SmallVector<Value> buffers;
  for (auto [value, result] :
       llvm::zip_equal(getValues(), getParentOp()->getResults())) {
    if (!isa<TensorType>(value.getType())) {
      buffers.push_back(value);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
    if (failed(buffer))
      return failure();
    // The kernel's result type (its buffer type, if the kernel is still on
    // tensors): a layout-only difference is a cast.
    Type type = result.getType();
    if (isa<TensorType>(type)) {
      FailureOr<BufferLikeType> bufferType =
          bufferization::getBufferType(result, options, state);
      if (failed(bufferType))
        return failure();
      type = *bufferType;
    }
    if (buffer->getType() != type)
      buffer = memref::CastOp::create(rewriter, getLoc(), type, *buffer).getResult();
    buffers.push_back(*buffer);
  }
  replaceOpWithNewBufferizedOp<YieldOp>(rewriter, *this, buffers);
  return success();
}

} // namespace kfuse::kf
