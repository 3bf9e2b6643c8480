// kfuse-compile --emit=lib --variants builds the code of the versions named
// (GPU and host, fused and eager) and no other; the manifest still
// describes the kernels of both fusions, so kfuse-run's report compares
// them. kfuse-run builds only the version a run runs (the eager versions of
// a long program are most of its kernels), and --check's unfused run gets
// a library of its own, the one a --fusion=off --device=cpu run uses.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib --variants=fused -o %t/fused.so
// RUN: nm -D --defined-only %t/fused.so | FileCheck %s --check-prefix=FUSED
// FUSED-DAG: T _mlir_ciface_add_relu__gpu_fused
// FUSED-DAG: T _mlir_ciface_add_relu__host_fused
// FUSED-NOT: _eager
// RUN: kfuse-compile %s --emit=lib --variants=host_eager -o %t/host-eager.so
// RUN: nm -D --defined-only %t/host-eager.so | FileCheck %s --check-prefix=HOST-EAGER
// HOST-EAGER: T _mlir_ciface_add_relu__host_eager
// HOST-EAGER-NOT: _fused
// HOST-EAGER-NOT: gpu_eager
// RUN: kfuse-compile %s --emit=lib --variants=gpu_fused,host_eager -o %t/mixed.so
// RUN: nm -D --defined-only %t/mixed.so | FileCheck %s --check-prefix=MIXED
// MIXED-DAG: T _mlir_ciface_add_relu__gpu_fused
// MIXED-DAG: T _mlir_ciface_add_relu__host_eager
// MIXED-NOT: host_fused
// MIXED-NOT: gpu_eager
//
// The fused library runs, and its report still counts the eager kernels
// (2 kernels, 5 transfers) beside the fused one (1 kernel, 3 transfers).
// RUN: kfuse-run %t/fused.so --device=cpu --warmup=0 --repeat=1 | FileCheck %s --check-prefix=RUNS
// RUNS: kernels {{ *}}2 {{ *}}1
// RUNS: transfers {{ *}}5 {{ *}}3
//
// What a library does not hold is refused by name, not failed in dlsym.
// The eager version of the fused-only library:
// RUN: not kfuse-run %t/fused.so --device=cpu --fusion=off 2>&1 | FileCheck %s --check-prefix=NO-EAGER
// NO-EAGER: kfuse-run: error: {{.*}}fused.so holds no code for the eager version of add_relu (not built: the library holds --variants=gpu_fused,host_fused): compile it with kfuse-compile --variants=eager or all
// The host version of a GPU-only library, on the CPU:
// RUN: not kfuse-run %t/mixed.so --device=cpu 2>&1 | FileCheck %s --check-prefix=NO-HOST
// NO-HOST: kfuse-run: error: {{.*}}mixed.so holds no host code for the fused version of add_relu, and the run is on the CPU: compile it with kfuse-compile --variants=host_fused or all
// --check of a library without the host eager version, which it runs:
// RUN: not kfuse-run %t/fused.so --device=cpu --check 2>&1 | FileCheck %s --check-prefix=NO-CHECK
// NO-CHECK: kfuse-run: error: --check runs the host eager version of add_relu, which {{.*}}fused.so does not hold: compile it with kfuse-compile --variants=all (or add host_eager)
//
// kfuse-run of the .mlir: the fused run builds the host's fused version
// only (--device=cpu); --check then builds the unfused library, and a
// --fusion=off --device=cpu run finds that same library in the cache.
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %s --device=cpu --warmup=0 --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=FIRST
// FIRST: compile: cache miss (first compile of this program)
// FIRST: check against the CPU, unfused: {{.*}}: ok
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %s --device=cpu --warmup=0 --repeat=1 --fusion=off \
// RUN:   | FileCheck %s --check-prefix=EAGER-HIT
// EAGER-HIT: compile: cache hit
// EAGER-HIT: fusion off
// The cache holds those two libraries: the fused one without eager code,
// the unfused one with the host's eager code only.
// RUN: for f in %t/c/compile/*.so; do nm -D --defined-only $f | grep -o '__[a-z]*_[a-z]*$' | sort -u | tr '\n' ' '; echo; done \
// RUN:   | sort | FileCheck %s --check-prefix=ENTRIES
// ENTRIES: __host_eager
// ENTRIES-NEXT: __host_fused
// ENTRIES-NOT: __
// A run that may use the GPU (--device=auto) builds both targets' fused
// code: a miss that names the change.
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %s --warmup=0 --repeat=1 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=AUTO
// AUTO: compile: cache miss (variants changed: host_eager -> fused)
//
// Bad selections are refused.
// An unknown version:
// RUN: not kfuse-compile %s --emit=lib --variants=fused,gpu -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kfuse-compile: error: --variants=fused,gpu: 'gpu' is not a version (all, fused, eager, gpu_fused, host_fused, gpu_eager, host_eager)
// An empty list:
// RUN: not kfuse-compile %s --emit=lib --variants=, -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kfuse-compile: error: --variants needs all, fused, eager, gpu_fused, host_fused, gpu_eager or host_eager
// Versions of a library, asked of a text stage:
// RUN: not kfuse-compile %s --emit=ptx --variants=fused 2>&1 | FileCheck %s --check-prefix=NOT-LIB
// NOT-LIB: kfuse-compile: error: --variants chooses the versions of a library: it goes with --emit=lib
// A float64 reference holds the host eager version only:
// RUN: not kfuse-compile %s --emit=lib --float64-reference --variants=fused -o %t/bad.so 2>&1 | FileCheck %s --check-prefix=REF
// REF: kfuse-compile: error: --float64-reference builds the host eager version only: leave out --variants=fused
// RUN: test ! -e %t/bad.so
func.func @add_relu(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = kf.add %a, %b : tensor<1024xf32>, tensor<1024xf32>
  %1 = kf.relu %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}
