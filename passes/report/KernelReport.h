//===- KernelReport.h - kernels and traffic of one function -----*- C++ -*-===//
#ifndef KFUSE_PASSES_REPORT_KERNELREPORT_H
#define KFUSE_PASSES_REPORT_KERNELREPORT_H

#include "passes/analysis/SymbolicShapes.h"
#include "passes/Passes.h"
#include "passes/fusion/FusionOptions.h"
#include "passes/fusion/MappingQuery.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

namespace kfuse::report {

/// One tensor a kernel reads or writes.
struct Access {
  std::string name; // arg0, pointwise_add_0#0, constant
  std::string type; // 1000000xf32
  analysis::Poly elements, bytes;
};

struct Kernel {
  std::string name, kind;
  /// How the GPU runs it (kf-assign-kernel-mappings' decision): its
  /// mapping and, for a matmul, its variant; empty when not decided
  /// (check-mappings=false); a tensor-core matmul's tiles
  /// (#kf.matmul_tiles as MxNxK/WMxWN/S/G), else empty.
  std::string mapping, variant, tiles;
  std::vector<std::string> ops;
  std::vector<Access> reads, writes;
};

/// Totals as the article counts them: each kernel reads each of its inputs
/// once and writes each of its outputs once.
struct Traffic {
  unsigned kernels = 0, transfers = 0;
  analysis::Poly elements, bytes;
};

struct Boundary {
  std::string producer, consumer, producerOp, consumerOp, reason, detail;
};

/// The function's kf ops as kernel formation sees them (one per eager
/// kernel), each with the fused kernels that compute it (several when a
/// cheap producer is recomputed in its readers), for `format=dot`.
struct GraphOp {
  std::string op;                   // add, sum, matmul
  std::string type;                 // its result: 1024x1024xf32
  analysis::Poly bytes;             // its result's size
  std::vector<std::string> kernels; // in the order the function runs them
};

/// One end of a data-flow edge: a function argument, an op, or a result.
struct GraphEnd {
  enum Kind { Argument, Op, Result } kind;
  unsigned index;
};

struct GraphEdge {
  GraphEnd from, to;
};

struct OpGraph {
  std::vector<std::string> arguments, results; // their types
  std::vector<GraphOp> ops;                     // in program order
  std::vector<GraphEdge> edges;                 // sorted, no duplicates
};

struct FunctionReport {
  std::string name;
  OpGraph graph; // only for format=dot
  Traffic eager, fused;
  std::vector<Kernel> kernels; // the fused ones
  std::vector<Boundary> boundaries;
  std::vector<std::string> symbols; // what d0, d1, ... stand for
  std::string chip; // the chip the mappings are for ("": none decided)
};

/// Reads the kernels of `func` (after kf-form-kernels) and their traffic.
Traffic countTraffic(mlir::func::FuncOp func, std::vector<Kernel> *kernels,
                     std::vector<std::string> *symbols);

/// Reads `kf.boundaries` from a formed function.
std::vector<Boundary> readBoundaries(mlir::func::FuncOp func);

/// Values of d0, d1, ... where the user gave them.
using SymbolValues = std::vector<std::optional<int64_t>>;

/// Before kf-form-kernels runs on `module` (linalg on tensors): records the
/// op graph of every function with a body and tags each op with its place
/// in it, so that readKernelsOfOps finds the ops in the kernels formed
/// from them. Does first what kf-form-kernels does first (dims re-expressed
/// from the arguments; CSE when `fused`), so that the tags change none of
/// its decisions: the key of each map is the function's name.
std::map<std::string, OpGraph> tagOpGraphs(mlir::ModuleOp module, bool fused);

/// After kf-form-kernels: the kernels of `formed` that compute each op of
/// `graph`, by the tags; removes the tags.
void readKernelsOfOps(mlir::func::FuncOp formed, OpGraph &graph);

/// A size as the report prints it: a number when every dim is known, else
/// the polynomial; "overflow" when it does not fit in int64.
std::string sizeText(const analysis::Poly &p, const SymbolValues &values);

void printText(llvm::raw_ostream &os, llvm::ArrayRef<FunctionReport> reports,
               const SymbolValues &values);
void printJson(llvm::raw_ostream &os, llvm::ArrayRef<FunctionReport> reports,
               const SymbolValues &values);
/// kf-kernel-report whose kf-form-kernels checks kernels with `query`
/// (fusion/KfFormKernels.h).
std::unique_ptr<mlir::Pass>
createKfKernelReport(const KfKernelReportOptions &options,
                     fusion::KernelMappingQuery query);

/// kf-kernel-report with format=dot and fusion's switches, writing to
/// `path` (kfuse-compile --dump-dir's kernel graph).
std::unique_ptr<mlir::Pass>
createKernelGraphReport(const fusion::FusionOptions &fusion,
                        llvm::StringRef path);

/// Graphviz DOT: one digraph, a cluster per function holding a cluster per
/// fused kernel (see PrintDot.cpp).
void printDot(llvm::raw_ostream &os, llvm::ArrayRef<FunctionReport> reports,
              const SymbolValues &values);

} // namespace kfuse::report

#endif // KFUSE_PASSES_REPORT_KERNELREPORT_H
