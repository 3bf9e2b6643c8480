// kfuse-compile as a compiler driver: MLIR's pass-manager, timing and
// printing options apply to every stage it runs, --help starts with its
// own options and hides LLVM's backend options, and --version (of all
// three tools) names the kfuse version, the LLVM it was built with, and
// the PTX ISA and chips of its GPU code.
//
// The versions come from their own sources: CMakeLists.txt's project()
// and llvm-config.
// RUN: kfuse-compile --version | FileCheck %s --check-prefix=VERSION
// RUN: kfuse-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: kfuse-run --version | FileCheck %s --check-prefix=VERSION
// RUN: bash -c 'grep -o "project(kfuse VERSION [0-9.]*" %kfuse_src/CMakeLists.txt | sed "s/.* //"' > %t.kfuse-version
// RUN: bash -c 'test "$(kfuse-compile --version | sed -n "s/.*(kfuse) //p")" = "$(cat %t.kfuse-version)"'
// RUN: bash -c 'test "$(kfuse-run --version | sed -n "s/.*(kfuse) //p")" = "$(cat %t.kfuse-version)"'
// RUN: bash -c 'test "$(kfuse-opt --version | sed -n "s/.*LLVM and MLIR //p")" = "$(llvm-config --version)"'
// VERSION: {{kfuse-compile|kfuse-opt|kfuse-run}} (kfuse) {{[0-9]+\.[0-9]+\.[0-9]+}}
// VERSION-NEXT: built with LLVM and MLIR {{[0-9]+\.[0-9]+\.[0-9]+}}
// VERSION-NEXT: GPU code: PTX ISA 8.0 for sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a (default sm_75)

// --help: kfuse-compile's options first, then MLIR's; no backend option.
// RUN: kfuse-compile --help | FileCheck %s --check-prefix=HELP
// RUN: kfuse-compile --help | FileCheck %s --check-prefix=HIDDEN
// RUN: bash -c 'test $(kfuse-compile --help | wc -l) -lt 120'
// HELP: USAGE: kfuse-compile [options] <input .mlir>
// HELP: Compilation options (kfuse-compile):
// HELP-DAG: --emit=<value>
// HELP-DAG: --fusion=<options>
// HELP-DAG: --gpu-chip=<string>
// HELP-DAG: --block-size=<uint>
// HELP-DAG: --dump-dir=<dir>
// HELP-DAG: --remarks-filter=<regex>
// HELP: Generic Options:
// HELP: --version
// HELP: MLIR options:
// HELP-DAG: --mlir-print-ir-after-all
// HELP-DAG: --mlir-timing
// HELP-DAG: --mlir-pass-statistics
// HIDDEN-NOT: --nvptx-
// HIDDEN-NOT: --x86-
// HIDDEN-NOT: --regalloc

// --mlir-timing: one report for the whole compilation, by stage and pass.
// RUN: kfuse-compile %s --emit=ptx --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: stage linalg
// TIMING: KfToLinalg
// TIMING: stage kernels
// TIMING: KfFormKernels
// TIMING: stage gpu
// TIMING: KfMapKernelsToGpu
// TIMING: stage ptx
// TIMING: GpuModuleToBinaryPass
// TIMING: Total

// --mlir-print-ir-after-all: the IR after each pass, the stages in order.
// RUN: kfuse-compile %s --emit=kernels --mlir-print-ir-after-all -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRINT
// PRINT: IR Dump After KfToLinalg (kf-to-linalg)
// PRINT: linalg.generic
// PRINT: IR Dump After KfFormKernels (kf-form-kernels)
// PRINT: kf.kernel "pointwise_add_relu_0"
// RUN: kfuse-compile %s --emit=ptx --mlir-pass-statistics -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATS
// STATS: Pass statistics report
// Optimization remarks, filtered by category as in kfuse-opt.
// RUN: kfuse-compile %s --emit=kernels --remarks-filter=kf-form-kernels -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARKS
// REMARKS: kfuse-compile-driver.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [Passed] kernel-fusion | Category:kf-form-kernels:passed | Function=add_relu | Reason="fused (pointwise)", Remark="add -> relu fused into pointwise_add_relu_0"
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
