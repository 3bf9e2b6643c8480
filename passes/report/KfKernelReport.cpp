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
#include "passes/fusion/KfFormKernels.h"
#include "passes/report/KernelReport.h"
#include "passes/report/ReportFile.h"
#include "passes/target/GpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <set>


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

  /// kf-form-kernels' query (fusion/MappingQuery.h), the same as the pass's.
  fusion::KernelMappingQuery query;

  /// Lowers and forms kernels on a copy of the module, nested in it for the
  /// time of the analysis so that the pass manager may run on it. With
  /// `graphs`, the op graph of each function is recorded between the two.
  FailureOr<ModuleOp>
  formedCopy(bool fused,
             std::map<std::string, report::OpGraph> *graphs = nullptr) {
    ModuleOp module = getOperation();
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto copy = cast<ModuleOp>(b.clone(*module));
    // The same switches as this pass's (both take KfFusionOptions).
    fusion::FusionOptions switches = fusion::readFusionOptions(*this);
    if (!fused)
      switches.enabled = false;
    KfFormKernelsOptions options = fusion::toPassOptions(switches);
    OpPassManager lower(ModuleOp::getOperationName());
    KfToLinalgOptions toLinalg;
    toLinalg.mergeReductions = fusion::mergesReductions(switches);
    lower.addPass(createKfToLinalg(toLinalg));
    OpPassManager form(ModuleOp::getOperationName());
    form.addPass(fusion::createKfFormKernels(options, query));
    bool lowered = succeeded(runPipeline(lower, copy));
    if (lowered && graphs)
      *graphs = report::tagOpGraphs(copy, switches.enabled);
    if (!lowered || failed(runPipeline(form, copy))) {
      copy.erase();
      return failure();
    }
    if (decidesMappings())
      assignMappings(copy);
    return copy;
  }

  /// How the GPU runs each kernel of `copy`, decided as the compiler does
  /// (kf-assign-kernel-mappings with this pass's chip, tf32 and matmul). A
  /// kernel no GPU mapping serves (formation forms none since issue 15; with
  /// fusion off nothing is checked) is left without one, and shown without
  /// one: the report is not the place that refuses it.
  void assignMappings(ModuleOp copy) {
    KfAssignKernelMappingsOptions assign;
    assign.chip = chip;
    assign.tf32 = tf32;
    assign.matmul = matmul;
    assign.matmulTiles = matmulTiles;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createKfAssignKernelMappings(assign));
    ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &) { return success(); });
    (void)runPipeline(pm, copy);
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
    if (failed(fusion::checkStringOptions(ctx, "kf-kernel-report", maxOps,
                                          attentionMinScores)))
      return failure();
    std::string why;
    if (failed(gpu::gpuTargetOf(chip, [&](const Twine &t) { why = t.str(); })))
      return emitError(UnknownLoc::get(ctx)) << "kf-kernel-report: " << why;
    if (matmul != "fastest" && matmul != "reference")
      return emitError(UnknownLoc::get(ctx))
             << "kf-kernel-report: matmul must be `fastest` or `reference`, got `" << matmul
             << "`";
    if (reportFile.getNumOccurrences() || toFile())
      if (llvm::Error error = report::checkReportFile(reportFile, {}))
        return emitError(UnknownLoc::get(ctx))
               << "kf-kernel-report: " << llvm::toString(std::move(error));
    return success();
  }

  /// Whether the kernels' mappings are decided (and shown): every kernel
  /// formed was checked against them (a report built without a query
  /// checks none).
  bool decidesMappings() const { return static_cast<bool>(query); }

  /// Whether the report goes to report-file ("-" is stdout, as without it).
  bool toFile() const { return !reportFile.empty() && reportFile != "-"; }

  /// The files the module was read from, as its locations name them: the
  /// report may not replace one.
  std::vector<std::string> inputFiles() {
    std::set<std::string> files;
    auto add = [&](Location loc) {
      loc->walk([&](Location inner) {
        if (auto file = dyn_cast<FileLineColLoc>(inner))
          files.insert(file.getFilename().str());
        return WalkResult::advance();
      });
    };
    add(getOperation().getLoc());
    for (Operation &op : getOperation().getBody()->getOperations())
      add(op.getLoc());
    return {files.begin(), files.end()};
  }

  /// The report on stdout, as before report-file existed (ahead of the IR
  /// that kfuse-opt prints once the passes are done), or in report-file.
  LogicalResult emit(StringRef text) {
    if (!toFile()) {
      llvm::outs() << text;
      llvm::outs().flush();
      return success();
    }
    if (llvm::Error error = report::writeReportFile(reportFile, text)) {
      emitError(getOperation().getLoc())
          << "kf-kernel-report: " << llvm::toString(std::move(error));
      return failure();
    }
    return success();
  }

  void runOnOperation() override {
    auto values = parseDims();
    if (failed(values))
      return signalPassFailure();
    if (toFile())
      if (llvm::Error error =
              report::checkReportFile(reportFile, inputFiles())) {
        emitError(getOperation().getLoc())
            << "kf-kernel-report: " << llvm::toString(std::move(error));
        return signalPassFailure();
      }
    auto eager = formedCopy(/*fused=*/false);
    if (failed(eager))
      return signalPassFailure();
    bool drawn = format == report::ReportFormat::Dot;
    std::map<std::string, report::OpGraph> graphs;
    auto fused = formedCopy(/*fused=*/true, drawn ? &graphs : nullptr);
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
      if (decidesMappings())
        r.chip = chip;
      r.boundaries = report::readBoundaries(func);
      if (auto graph = graphs.find(r.name); graph != graphs.end()) {
        r.graph = std::move(graph->second);
        report::readKernelsOfOps(func, r.graph);
      }
      if (auto e = eager->lookupSymbol<func::FuncOp>(func.getName()))
        r.eager = eagerTraffic(e, r.symbols);
      reports.push_back(std::move(r));
    }
    eager->erase();
    fused->erase();
    std::string text;
    llvm::raw_string_ostream os(text);
    if (format == report::ReportFormat::Json)
      report::printJson(os, reports, *values);
    else if (drawn)
      report::printDot(os, reports, *values);
    else
      report::printText(os, reports, *values);
    if (failed(emit(text)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

std::unique_ptr<Pass>
kfuse::report::createKernelGraphReport(const fusion::FusionOptions &fusion,
                                       StringRef path) {
  KfKernelReportOptions o;
  o.format = report::ReportFormat::Dot;
  o.reportFile = path.str();
  fusion::writeFusionOptions(fusion, o);
  return kfuse::createKfKernelReport(o); // the GPU's query, as the pass

}

std::unique_ptr<Pass>
kfuse::report::createKfKernelReport(const KfKernelReportOptions &options,
                                    fusion::KernelMappingQuery query) {
  auto pass = std::make_unique<KfKernelReportPass>(options);
  pass->query = std::move(query);
  return pass;
}
