// kfuse-compile --emit=lib writes one shared library with the GPU and host
// versions, fused and eager, of every function, and the manifest; it needs
// the kfuse runtime and the C/C++ libraries, not libMLIR or libLLVM.
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: ldd %t.so | FileCheck %s --check-prefix=LDD
// LDD: libkfuse_runtime.so
// LDD-NOT: libMLIR
// LDD-NOT: libLLVM
// RUN: nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: T _mlir_ciface_add_relu__gpu_eager
// SYMS-DAG: T _mlir_ciface_add_relu__gpu_fused
// SYMS-DAG: T _mlir_ciface_add_relu__host_eager
// SYMS-DAG: T _mlir_ciface_add_relu__host_fused
// SYMS-DAG: T __kfuse_host_kfuse_host_fused_pointwise_add_relu_0
// SYMS-DAG: R kfuse_manifest
// kfuse-run, which runs it, links no MLIR or LLVM either.
// RUN: ldd %kfuse_obj/bin/kfuse-run | FileCheck %s --check-prefix=LDD
// The library runs as it is.
// RUN: kfuse-run %t.so --device=cpu --repeat=1 | FileCheck %s --check-prefix=RUNS
// RUNS: kernels {{ *}}2 {{ *}}1
// RUNS: pointwise_add_relu_0
//
// -o is required, and must not be the input.
// RUN: not kfuse-compile %s --emit=lib 2>&1 | FileCheck %s --check-prefix=NO-O
// NO-O: kfuse-compile: error: --emit=lib writes a shared library: give its path with -o
func.func @add_relu(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = kf.add %a, %b : tensor<1024xf32>, tensor<1024xf32>
  %1 = kf.relu %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// kfuse-opt replays the host code of the library: host kernels with the
// runtime's entry point, launched through a gpu.binary that names them.
// RUN: kfuse-opt %s --kf-host-runtime-pipeline | FileCheck %s --check-prefix=HOSTPIPE
// HOSTPIPE-DAG: gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "KFUSE-HOST-MODULE:__kfuse_host_kfuse_kernels_\00">]
// HOSTPIPE-DAG: llvm.func @__kfuse_host_kfuse_kernels_pointwise_add_relu_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// HOSTPIPE-DAG: llvm.call @mgpuMemAlloc
