// Found by kf_fuzz.py (seed 4, p4_48, reduced): every pipeline crashed in
// upstream's expand-strided-metadata (LLVM 22; llvm-project issue 186830)
// on `exp(x)` of a ?x? x returned beside `exp(x).reshape(-1)`: reshape
// propagation runs the kernel over one flat dim, and its ?x? result is a
// memref.expand_shape with two dynamic dims in one group, which that pass
// assumes never happens. kf-expand-shape-strides (run just before it)
// makes such an expand_shape a memref.reinterpret_cast.
// RUN: kfuse-opt %s -split-input-file --kf-expand-shape-strides | FileCheck %s
// RUN: kfuse-opt %S/Inputs/expand-shape-dynamic-group-run.mlir --kf-cpu-pipeline -o /dev/null
// RUN: kfuse-opt %S/Inputs/expand-shape-dynamic-group-run.mlir --kf-gpu-emulation-pipeline -o /dev/null
// RUN: kfuse-compile %S/Inputs/expand-shape-dynamic-group-run.mlir --emit=ptx -o /dev/null
// The numbers against numpy (independent), fused through kfuse-run's host
// runtime: exp of f32 is within about 1 ulp (rtol 1e-6); the reshape is exact.
// RUN: %run-check %S/Inputs/expand-shape-dynamic-group-run.mlir --input "arg0=f32[37x29]" \
// RUN:   --expect "np.exp(arg0.astype(np.float64))" --expect "np.exp(arg0.astype(np.float64)).reshape(-1)" \
// RUN:   --rtol=1e-6 --atol=0 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMPY
// NUMPY: run_check: result0 float32[37, 29] matches numpy
// NUMPY: run_check: result1 float32[1073] matches numpy

// Two dynamic dims in a group: sizes from the output shape, strides from
// the innermost dim out (the source's stride, then times %n); what the
// identity layout states (offset 0, the last stride 1) as constants.
// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[A]]
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDE]], %[[N]] : index
// CHECK: %[[R:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[M]], %[[N]]], strides: [%[[S0]], 1] : memref<?xf32> to memref<?x?xf32>
// CHECK-NOT: memref.expand_shape
// CHECK: return %[[R]]
func.func @two_dynamic(%a: memref<?xf32>, %m: index, %n: index) -> memref<?x?xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n] : memref<?xf32> into memref<?x?xf32>
  return %e : memref<?x?xf32>
}

// -----

// A strided source (a column of a matrix, stride %s): the group's last
// dim keeps it, the one before is it times %n; offset and strides as the
// result's layout leaves them, dynamic.
// CHECK-LABEL: func.func @strided_source
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDE]], %{{.*}} : index
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [%{{.*}}, %{{.*}}], strides: [%[[S0]], %[[STRIDE]]]
func.func @strided_source(%a: memref<?xf32, strided<[?], offset: ?>>, %m: index, %n: index)
    -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n]
      : memref<?xf32, strided<[?], offset: ?>> into memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %e : memref<?x?xf32, strided<[?, ?], offset: ?>>
}

// -----

// Three dims in a group, one static: strides n * 4, 4, 1 (times the
// source's stride).
// CHECK-LABEL: func.func @mixed_group
// CHECK: memref.reinterpret_cast {{.*}} sizes: [%{{.*}}, %{{.*}}, 4]
func.func @mixed_group(%a: memref<?xf32>, %m: index, %n: index) -> memref<?x?x4xf32> {
  %e = memref.expand_shape %a [[0, 1, 2]] output_shape [%m, %n, 4] : memref<?xf32> into memref<?x?x4xf32>
  return %e : memref<?x?x4xf32>
}

// -----

// At most one dynamic dim a group: upstream handles it; left alone.
// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape
// CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic(%a: memref<?xf32>, %m: index) -> memref<?x4xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%m, 4] : memref<?xf32> into memref<?x4xf32>
  return %e : memref<?x4xf32>
}
