//===- KernelManifest.cpp - kernels.json ----------------------------------===//
#include "tools/kfuse-compile/KernelManifest.h"
#include "tools/kfuse-compile/LaunchShape.h"

#include "dialect/Kf/KfOps.h"
#include "passes/Passes.h"
#include "passes/gpu/KernelMapping.h"
#include "passes/gpu/matmul/MatmulTiles.h"
#include "passes/report/KernelReport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace kfuse {

namespace {
/// The version of kernels.json: raised when a field changes meaning or goes
/// away, not when one is added (docs/reference/json-outputs.md).
constexpr int kKernelsSchemaVersion = 1;

/// A size: a number when static, else its polynomial in d0, d1, ...
llvm::json::Value sizeOf(const analysis::Poly &p) {
  if (auto c = p.getConstant())
    return *c;
  return p.str();
}


/// How each mapping launches, in words (KfAttrs.td's KernelMapping), and
/// for a matmul how its variant does.
const char *mappingRule(kf::KernelMapping m, std::optional<kf::KernelVariant> variant) {
  switch (m) {
  case kf::KernelMapping::Flat:
    return "the iteration space flattened, a few elements a thread (a 128-bit "
           "vector where the innermost dim allows), a 1-D grid over it";
  case kf::KernelMapping::Row:
    if (variant == kf::KernelVariant::OnChip)
      return "a block per row of the reductions, its threads striding over the row, "
             "each op's values kept in registers (or recomputed from the inputs in "
             "each pass over a row too long for them): only the results reach memory";
    if (variant == kf::KernelVariant::ThroughMemory)
      return "a block per row of the reductions, its threads striding over the row, "
             "each op's values handed on through global memory, a barrier after each op";
    return "a block per row of the reductions, its threads striding over the row";
  case kf::KernelMapping::GridReduction:
    return "blocks stride over the whole tensor, each writes a partial; the last "
           "block to finish combines them and runs the ops after the reduction";
  case kf::KernelMapping::Matmul:
    switch (variant.value_or(kf::KernelVariant::Simt)) {
    case kf::KernelVariant::TensorCore:
      return "a block of 4 warps per 64x64 tile of the result (grid x over columns, "
             "y over rows, z over the batch), mma.sync on tensor cores fed by "
             "ldmatrix, operand tiles double-buffered in shared memory by "
             "cp.async, the epilogue applied in registers and each result stored "
             "once";
    case kf::KernelVariant::Simt:
      return "a 16x16 block per 64x64 tile of the result (grid x over columns, y over "
             "rows, z over the batch), each thread a 4x4 tile of accumulators in "
             "registers, operand tiles staged in shared memory 16 steps of K at a "
             "time, the epilogue applied in registers and each result stored once";
    case kf::KernelVariant::Reference:
      return "a 16x16 block per 16x16 tile of the result (grid x over columns, y over "
             "rows, z over the batch), one output a thread, operand tiles staged in "
             "shared memory";
    }
    return "";
  case kf::KernelMapping::Serial:
    return "one launch of one thread (host runtime only: no mapping serves it)";
  case kf::KernelMapping::RowChain:
    if (variant == kf::KernelVariant::OnChip)
      return "a block per row of the row reductions, the row kept on chip; the last "
             "block to finish runs the final reduction over the rows' results";
    return "a block per row of the row reductions; the last block to finish runs "
           "the final reduction over the rows' results";
  case kf::KernelMapping::MultiReduction:
    return "a block per band of at least 32 rows, its threads striding over each row: "
           "the rows' reductions combined across the block, each column's value "
           "folded into its partial for the band; the last block to finish combines "
           "the columns' partials in band order: the tensor is read once";
  case kf::KernelMapping::Scan:
    return "a thread per line along the scanned dim, which it walks once, in order, "
           "with a compensated running sum (floats)";
  case kf::KernelMapping::Attention:
    return "a block per 64 query rows of one batch (grid x over the rows, z over the "
           "batch), a thread a row with its q, running max and sum and output row in "
           "registers; the keys in tiles, each tile's k and v staged in shared memory, "
           "the scores computed and exponentiated against the running max (an online "
           "softmax): the score matrix is never written";
  }
  return "";
}

/// How a kernel is launched, as kf-assign-kernel-mappings decides it.
struct LaunchChoice {
  kf::KernelMapping mapping;
  std::optional<kf::KernelVariant> variant;
  kf::MatmulTilesAttr tiles; // a tensor-core matmul's
};

/// Each kernel's mapping and variant, decided as the Gpu stage decides them
/// for `target` (on a copy: `kernels` is the module after kernel formation,
/// before mapping). A program the GPU cannot run (a kernel no mapping
/// serves: the Gpu stage refuses it) is decided as the host runtime does:
/// such a kernel reads "serial", and no matmul has a GPU variant.
llvm::StringMap<LaunchChoice> mappingsOf(ModuleOp kernels, const gpu::GpuTarget &target,
                                         bool tf32, llvm::StringRef matmulTiles = "") {
  auto decide = [&](bool serialFallback) {
    llvm::StringMap<LaunchChoice> out;
    OwningOpRef<ModuleOp> copy = kernels.clone();
    PassManager pm(kernels.getContext(), ModuleOp::getOperationName());
    KfAssignKernelMappingsOptions options;
    options.serialFallback = serialFallback;
    options.tf32 = tf32;
    options.matmulTiles = matmulTiles.str();
    pm.addPass(gpu::createKfAssignKernelMappings(options, target));
    // The GPU's refusal is the Gpu stage's to report, not the manifest's.
    ScopedDiagnosticHandler quiet(kernels.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(pm.run(*copy)))
      return std::optional<llvm::StringMap<LaunchChoice>>();
    copy->walk([&](kf::KernelOp kernel) {
      if (std::optional<kf::KernelMapping> m = kernel.getMapping())
        out[kernel.getSymName()] = {*m, kernel.getVariant(), kernel.getTilesAttr()};
    });
    return std::optional(std::move(out));
  };
  if (auto gpuChoices = decide(/*serialFallback=*/false))
    return std::move(*gpuChoices);
  return decide(/*serialFallback=*/true).value_or(llvm::StringMap<LaunchChoice>());
}

/// Floating-point operations of one iteration of `op`'s body: add,
/// subtract, multiply, divide, remainder and negate count one, fma two;
/// exp, max, compares and the like count none (as FLOP counters count).
int64_t flopsPerIteration(linalg::LinalgOp op) {
  int64_t n = 0;
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation() || inner->getNumResults() != 1 ||
        !isa<FloatType>(getElementTypeOrSelf(inner->getResult(0).getType())))
      return;
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::RemFOp,
            arith::NegFOp>(inner))
      n += 1;
    else if (isa<math::FmaOp>(inner))
      n += 2;
  });
  return n;
}

/// The FLOPs of one launch of `kernel`: each linalg op's body times its
/// iterations (matmul: 2*M*N*K), in the symbols of `symbols` (those
/// countTraffic gave the function); nullopt when an iteration count uses
/// a size that no such symbol names.
std::optional<analysis::Poly> kernelFlops(kf::KernelOp kernel, analysis::SymbolicShapes &shapes,
                                          ArrayRef<std::string> symbols) {
  analysis::Poly total = analysis::Poly::constant(0);
  bool known = true;
  kernel.getBody().walk([&](linalg::LinalgOp op) {
    int64_t perIteration = flopsPerIteration(op);
    if (perIteration == 0 || !known)
      return;
    analysis::Poly iterations = analysis::Poly::constant(perIteration);
    for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
      std::optional<analysis::Poly> range;
      for (OpOperand &operand : op->getOpOperands()) {
        if (range || !isa<RankedTensorType>(operand.get().getType()))
          continue;
        AffineMap map = op.getMatchingIndexingMap(&operand);
        for (unsigned r = 0; r < map.getNumResults() && !range; ++r)
          if (map.getResult(r) == getAffineDimExpr(loop, op.getContext()))
            range = shapes.dim(operand.get(), r);
      }
      if (!range)
        return (void)(known = false);
      iterations = iterations * *range;
    }
    total = total + iterations;
  });
  if (!known || total.hasOverflowed())
    return std::nullopt;
  // The same symbols as countTraffic's: argument dims keep their numbers,
  // an expression of them is found by its meaning; anything else is a size
  // the bytes do not name, and the FLOPs are left unknown.
  const std::vector<std::string> &own = shapes.symbolMeanings();
  bool renamable = true;
  analysis::Poly renamed = total.renumbered([&](unsigned id) -> unsigned {
    auto same = llvm::find(symbols, own[id]);
    bool named = own[id].rfind("dim ", 0) == 0 || own[id].rfind("(", 0) == 0;
    if (named && same != symbols.end())
      return same - symbols.begin();
    renamable = false;
    return 0;
  });
  if (!renamable)
    return std::nullopt;
  return renamed;
}
} // namespace

/// The facts the mappings used (GpuTarget.h), as kernels.json records them.
static llvm::json::Object targetOf(const gpu::GpuTarget &t) {
  return llvm::json::Object{
      {"sm", t.sm},
      {"tensor_cores", gpu::stringifyTensorCores(t.tensorCores)},
      {"cp_async", t.cpAsync},
      {"tma", t.tma},
      {"shared_memory_per_block", t.sharedMemoryPerBlock},
      {"max_shared_memory_per_block", t.maxSharedMemoryPerBlock},
      {"warp_size", t.warpSize}};
}

void writeKernelManifest(raw_ostream &os, ModuleOp kernels, ModuleOp gpu,
                         unsigned blockSize, const gpu::GpuTarget &target, bool tf32,
                         llvm::StringRef matmulTiles) {
  // Launch arguments and shared memory, by kernel name, from the outlined
  // gpu.func; the launch itself from the host function's gpu.launch_func.
  llvm::StringMap<llvm::json::Array> arguments;
  llvm::StringMap<std::optional<int64_t>> shared;
  gpu.walk([&](mlir::gpu::GPUFuncOp func) {
    llvm::json::Array args;
    for (Type t : func.getArgumentTypes()) {
      std::string s;
      llvm::raw_string_ostream ts(s);
      t.print(ts);
      args.push_back(s);
    }
    arguments[func.getName()] = std::move(args);
    shared[func.getName()] = sharedBytes(func);
  });
  llvm::StringMap<mlir::gpu::LaunchFuncOp> launches;
  gpu.walk([&](mlir::gpu::LaunchFuncOp launch) {
    launches[launch.getKernelName().getValue()] = launch;
  });
  llvm::StringMap<LaunchChoice> mappings = mappingsOf(kernels, target, tf32, matmulTiles);
  llvm::json::Array list;
  for (auto func : kernels.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    std::vector<report::Kernel> found;
    std::vector<std::string> symbols;
    report::countTraffic(func, &found, &symbols);
    analysis::SymbolicShapes shapes(func);
    auto kernelOps = llvm::to_vector(func.getOps<kf::KernelOp>());
    for (auto [k, kernelOp] : llvm::zip_equal(found, kernelOps)) {
      analysis::Poly read = analysis::Poly::constant(0);
      analysis::Poly written = analysis::Poly::constant(0);
      llvm::json::Array reads, writes, ops;
      for (const report::Access &a : k.reads) {
        read = read + a.bytes;
        reads.push_back(llvm::json::Object{{"name", a.name}, {"type", a.type},
                                           {"bytes", sizeOf(a.bytes)}});
      }
      for (const report::Access &a : k.writes) {
        written = written + a.bytes;
        writes.push_back(llvm::json::Object{{"name", a.name}, {"type", a.type},
                                            {"bytes", sizeOf(a.bytes)}});
      }
      for (const std::string &op : k.ops)
        ops.push_back(op);
      auto args = arguments.find(k.name);
      llvm::json::Array symbolList;
      for (const std::string &s : symbols)
        symbolList.push_back(s);
      std::optional<analysis::Poly> flops = kernelFlops(kernelOp, shapes, symbols);

      // The launch as the host computes it (null: the kernel iterates over
      // nothing and was erased, so nothing is launched).
      llvm::json::Value launch = nullptr;
      auto mapping = mappings.find(k.name);
      if (auto l = launches.find(k.name); l != launches.end()) {
        mlir::gpu::LaunchFuncOp op = l->second;
        auto triple = [&](Value x, Value y, Value z) {
          return llvm::json::Array{sizeJson(sizeExpr(x, symbols)),
                                   sizeJson(sizeExpr(y, symbols)),
                                   sizeJson(sizeExpr(z, symbols))};
        };
        std::optional<int64_t> bytes = shared.lookup(k.name);
        if (Value dynamicShared = op.getDynamicSharedMemorySize()) {
          SizeExpr extra = sizeExpr(dynamicShared, symbols);
          bytes = bytes && extra.value ? std::optional<int64_t>(*bytes + *extra.value)
                                       : std::nullopt;
        }
        launch = llvm::json::Object{
            {"grid", triple(op.getGridSizeX(), op.getGridSizeY(), op.getGridSizeZ())},
            {"block", triple(op.getBlockSizeX(), op.getBlockSizeY(), op.getBlockSizeZ())},
            {"shared_memory_bytes", bytes ? llvm::json::Value(*bytes) : nullptr},
            {"rule", mapping != mappings.end()
                         ? mappingRule(mapping->second.mapping, mapping->second.variant)
                         : ""}};
      }
      list.push_back(llvm::json::Object{
          {"name", k.name},
          {"function", func.getName()},
          {"kind", k.kind},
          {"mapping", mapping != mappings.end()
                          ? llvm::json::Value(kf::stringifyKernelMapping(mapping->second.mapping))
                          : nullptr},
          {"variant", mapping != mappings.end() && mapping->second.variant
                          ? llvm::json::Value(
                                kf::stringifyKernelVariant(*mapping->second.variant))
                          : nullptr},
          {"tiles", mapping != mappings.end() && mapping->second.tiles
                        ? llvm::json::Value(gpu::formatMatmulTiles(mapping->second.tiles))
                        : nullptr},
          {"ops", std::move(ops)},
          {"launch", std::move(launch)},
          {"arguments", args == arguments.end() ? llvm::json::Array()
                                                : std::move(args->second)},
          {"reads", std::move(reads)},
          {"writes", std::move(writes)},
          {"bytes_read", sizeOf(read)},
          {"bytes_written", sizeOf(written)},
          {"flops", flops ? sizeOf(*flops) : nullptr},
          {"symbols", std::move(symbolList)},
      });
    }
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"schema_version", kKernelsSchemaVersion},
                                   {"chip", target.chip()},
                                   {"gpu_target", targetOf(target)},
                                   {"tf32", tf32},
                                   {"block_size", blockSize},
                                   {"kernels", std::move(list)}}))
     << "\n";
}

namespace {
llvm::json::Array tensorsOf(TypeRange types) {
  llvm::json::Array list;
  for (Type t : types) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor) {
      list.push_back(llvm::json::Object{{"dtype", "unsupported"}});
      continue;
    }
    std::string dtype;
    llvm::raw_string_ostream ds(dtype);
    tensor.getElementType().print(ds);
    llvm::json::Array shape;
    for (int64_t d : tensor.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    list.push_back(llvm::json::Object{{"dtype", dtype}, {"shape", std::move(shape)}});
  }
  return list;
}
} // namespace

namespace {
/// The kernels of function `name` in `kernelsModule` (after kernel
/// formation) with their traffic and FLOPs, and what the size symbols of
/// their formulas stand for.
llvm::json::Object kernelsOf(ModuleOp kernelsModule, StringRef name,
                             const llvm::StringMap<kf::KernelVariant> &variants) {
  auto formed = kernelsModule.lookupSymbol<func::FuncOp>(name);
  std::vector<report::Kernel> found;
  std::vector<std::string> symbols;
  report::countTraffic(formed, &found, &symbols);
  analysis::SymbolicShapes shapes(formed);
  auto kernelOps = llvm::to_vector(formed.getOps<kf::KernelOp>());
  llvm::json::Array kernels;
  for (auto [k, kernelOp] : llvm::zip_equal(found, kernelOps)) {
    std::optional<analysis::Poly> flops = kernelFlops(kernelOp, shapes, symbols);
    analysis::Poly read = analysis::Poly::constant(0);
    analysis::Poly written = analysis::Poly::constant(0);
    for (const report::Access &a : k.reads)
      read = read + a.bytes;
    for (const report::Access &a : k.writes)
      written = written + a.bytes;
    llvm::json::Array ops;
    for (const std::string &op : k.ops)
      ops.push_back(op);
    kernels.push_back(llvm::json::Object{
        {"name", k.name},
        {"kind", k.kind},
        {"ops", std::move(ops)},
        {"reads", k.reads.size()},
        {"writes", k.writes.size()},
        {"bytes_read", sizeOf(read)},
        {"bytes_written", sizeOf(written)},
        {"flops", flops ? sizeOf(*flops) : nullptr},
        {"variant", variants.count(k.name)
                        ? llvm::json::Value(kf::stringifyKernelVariant(variants.lookup(k.name)))
                        : nullptr}});
  }
  llvm::json::Array symbolList;
  for (const std::string &s : symbols)
    symbolList.push_back(s);
  return llvm::json::Object{{"kernels", std::move(kernels)},
                            {"symbols", std::move(symbolList)}};
}
} // namespace

/// The variant of each GPU kernel of `kernels` that has one, as the Gpu
/// stage chooses it (mappingsOf). Only matmuls and row kernels have
/// variants: a module without a matmul or a reduction is not analysed (the
/// 3,400 kernels of an eager 1,000-op pointwise program would be, twice).
llvm::StringMap<kf::KernelVariant> gpuVariantsOf(ModuleOp kernels,
                                                 const gpu::GpuTarget &target, bool tf32) {
  llvm::StringMap<kf::KernelVariant> out;
  bool varied = kernels
                    .walk([](kf::KernelOp k) {
                      return k.getKind() == kf::KernelKind::Matmul ||
                                     k.getKind() == kf::KernelKind::Reduction
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
  if (!varied)
    return out;
  for (const auto &[name, choice] : mappingsOf(kernels, target, tf32))
    if (choice.variant)
      out[name] = *choice.variant;
  return out;
}

void writeProgramManifest(raw_ostream &os, ModuleOp program,
                          ArrayRef<ProgramVariant> variants, unsigned blockSize,
                          const gpu::GpuTarget &target, bool tf32,
                          llvm::json::Object hostCpu) {
  // Each version's GPU kernels' variants; the host runs its own matmul.
  std::vector<llvm::StringMap<kf::KernelVariant>> gpuVariants;
  for (const ProgramVariant &v : variants)
    gpuVariants.push_back(v.gpuError.empty()
                              ? gpuVariantsOf(const_cast<ProgramVariant &>(v).kernels.get(),
                                              target, tf32)
                              : llvm::StringMap<kf::KernelVariant>());
  const llvm::StringMap<kf::KernelVariant> none;
  llvm::json::Array functions;
  for (auto func : program.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    llvm::json::Object versions;
    for (auto [v, kernelVariants] : llvm::zip_equal(variants, gpuVariants)) {
      llvm::json::Object version = kernelsOf(const_cast<ProgramVariant &>(v).kernels.get(),
                                             func.getName(), kernelVariants);
      version["gpu"] = v.gpuError.empty();
      version["gpu_error"] = v.gpuError;
      version["host_code"] = v.hostCode;
      if (v.hostKernels)
        version["host"] = kernelsOf(const_cast<ProgramVariant &>(v).hostKernels.get(),
                                    func.getName(), none);
      versions[v.name] = std::move(version);
    }
    functions.push_back(llvm::json::Object{
        {"name", func.getName()},
        {"args", tensorsOf(func.getArgumentTypes())},
        {"results", tensorsOf(func.getResultTypes())},
        {"variants", std::move(versions)}});
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"kfuse_manifest", 1},
                                   {"chip", target.chip()},
                                   {"tf32", tf32},
                                   {"host_cpu", std::move(hostCpu)},
                                   {"block_size", blockSize},
                                   {"functions", std::move(functions)}}))
     << "\n";
}

} // namespace kfuse
