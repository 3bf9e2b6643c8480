//===- KfKernelReport.cpp - kernels and traffic, eager and fused ----------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "passes/fusion/KernelRegions.h"
#include "passes/report/KernelReport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"


namespace kfuse {
#define GEN_PASS_DEF_KFKERNELREPORT
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;

namespace {

/// The eager traffic of `func`, in the fused report's symbols. Its own
/// analysis numbers the argument dims the same way (d0, d1, ... first), and
/// names a computed size by its expression ("(2*d0) / 8") as the fused one
/// does (one symbol for both); any other size gets a symbol of its own,
/// listed after the fused ones, so that no d<i> means two things.
report::Traffic eagerTraffic(func::FuncOp func, std::vector<std::string> &symbols) {
  std::vector<std::string> own;
  report::Traffic t = report::countTraffic(func, nullptr, &own);
  unsigned args = 0;
  for (Type type : func.getArgumentTypes())
    if (auto ranked = dyn_cast<RankedTensorType>(type))
      args += ranked.getNumDynamicDims();
  // A meaning names the same size in both analyses when it is an
  // expression of argument dims only (d<i> with i < args).
  auto ofArguments = [&](StringRef meaning) {
    if (!meaning.starts_with("("))
      return false;
    for (size_t at = meaning.find('d'); at != StringRef::npos;
         at = meaning.find('d', at + 1)) {
      unsigned id;
      StringRef digits = meaning.drop_front(at + 1).take_while(llvm::isDigit);
      if (!digits.getAsInteger(10, id) && id >= args)
        return false;
    }
    return true;
  };
  std::vector<unsigned> renamed(own.size());
  for (unsigned id = 0; id < own.size(); ++id) {
    auto same = llvm::find(symbols, own[id]);
    bool named = ofArguments(own[id]);
    if (id < args) {
      renamed[id] = id;
    } else if (named && same != symbols.end()) {
      renamed[id] = same - symbols.begin();
    } else {
      renamed[id] = symbols.size();
      symbols.push_back(named ? own[id] : own[id] + " (eager)");
    }
  }
  auto rename = [&](unsigned id) { return renamed[id]; };
  t.elements = t.elements.renumbered(rename);
  t.bytes = t.bytes.renumbered(rename);
  return t;
}

struct KfKernelReportPass
    : kfuse::impl::KfKernelReportBase<KfKernelReportPass> {
  using Base::Base;
  template <typename T>
  friend fusion::FusionOptions fusion::readFusionOptions(const T &);

  /// Lowers and forms kernels on a copy of the module, nested in it for the
  /// time of the analysis so that the pass manager may run on it.
  FailureOr<ModuleOp> formedCopy(bool fused) {
    ModuleOp module = getOperation();
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto copy = cast<ModuleOp>(b.clone(*module));
    // The same switches as this pass's (both take KfFusionOptions).
    fusion::FusionOptions switches = fusion::readFusionOptions(*this);
    if (!fused)
      switches.enabled = false;
    KfFormKernelsOptions options = fusion::toPassOptions(switches);
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createKfToLinalg());
    pm.addPass(createKfFormKernels(options));
    if (failed(runPipeline(pm, copy))) {
      copy.erase();
      return failure();
    }
    return copy;
  }

  FailureOr<report::SymbolValues> parseDims() {
    report::SymbolValues values;
    for (const std::string &entry : dims) {
      StringRef s(entry), name, value;
      std::tie(name, value) = s.split('=');
      unsigned index;
      int64_t v;
      if (!name.consume_front("d") || name.getAsInteger(10, index) ||
          value.getAsInteger(10, v) || v < 0) {
        emitError(UnknownLoc::get(&getContext()))
            << "kf-kernel-report: dims entry '" << entry
            << "' is not of the form d<N>=<size>";
        return failure();
      }
      if (values.size() <= index)
        values.resize(index + 1);
      values[index] = v;
    }
    return values;
  }

  /// Bad options are refused before any IR is touched (llvm::cl checks
  /// `fusion` and `format`).
  LogicalResult initialize(MLIRContext *ctx) override {
    if (!fusion::parseMaxOps(maxOps))
      return emitError(UnknownLoc::get(ctx))
             << "kf-kernel-report: max-ops must be a number of ops from 0 "
                "(no limit) to 4294967295, got '"
             << maxOps << "'";
    return success();
  }

  void runOnOperation() override {
    auto values = parseDims();
    if (failed(values))
      return signalPassFailure();
    auto eager = formedCopy(/*fused=*/false);
    if (failed(eager))
      return signalPassFailure();
    auto fused = formedCopy(/*fused=*/true);
    if (failed(fused)) {
      eager->erase();
      return signalPassFailure();
    }
    std::vector<report::FunctionReport> reports;
    for (auto func : fused->getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      report::FunctionReport r;
      r.name = func.getName().str();
      r.fused = report::countTraffic(func, &r.kernels, &r.symbols);
      r.boundaries = report::readBoundaries(func);
      if (auto e = eager->lookupSymbol<func::FuncOp>(func.getName()))
        r.eager = eagerTraffic(e, r.symbols);
      reports.push_back(std::move(r));
    }
    eager->erase();
    fused->erase();
    if (format == report::ReportFormat::Json)
      report::printJson(llvm::outs(), reports, *values);
    else
      report::printText(llvm::outs(), reports, *values);
    llvm::outs().flush();
    markAllAnalysesPreserved();
  }
};

} // namespace
