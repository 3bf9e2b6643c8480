//===- KernelReport.h - kernels and traffic of one function -----*- C++ -*-===//
#ifndef KFUSE_PASSES_REPORT_KERNELREPORT_H
#define KFUSE_PASSES_REPORT_KERNELREPORT_H

#include "passes/analysis/SymbolicShapes.h"

#include "llvm/Support/raw_ostream.h"

namespace kfuse::report {

/// One tensor a kernel reads or writes.
struct Access {
  std::string name; // arg0, pointwise_add_0#0, constant
  std::string type; // 1000000xf32
  analysis::Poly elements, bytes;
};

struct Kernel {
  std::string name, kind;
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

struct FunctionReport {
  std::string name;
  Traffic eager, fused;
  std::vector<Kernel> kernels; // the fused ones
  std::vector<Boundary> boundaries;
  std::vector<std::string> symbols; // what d0, d1, ... stand for
};

/// Reads the kernels of `func` (after kf-form-kernels) and their traffic.
Traffic countTraffic(mlir::func::FuncOp func, std::vector<Kernel> *kernels,
                     std::vector<std::string> *symbols);

/// Reads `kf.boundaries` from a formed function.
std::vector<Boundary> readBoundaries(mlir::func::FuncOp func);

/// Values of d0, d1, ... where the user gave them.
using SymbolValues = std::vector<std::optional<int64_t>>;

void printText(llvm::raw_ostream &os, llvm::ArrayRef<FunctionReport> reports,
               const SymbolValues &values);
void printJson(llvm::raw_ostream &os, llvm::ArrayRef<FunctionReport> reports,
               const SymbolValues &values);

} // namespace kfuse::report

#endif // KFUSE_PASSES_REPORT_KERNELREPORT_H
