// RUN: kfuse-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF
// RUN: kfuse-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --kf-hoist-kernel-buffers | FileCheck %s --check-prefix=HOIST
// RUN: kfuse-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --kf-hoist-kernel-buffers --buffer-deallocation-pipeline | FileCheck %s --check-prefix=DEALLOC

// A kernel survives bufferization. One-shot bufferization makes the same
// region on buffers, its result the buffer it yields (allocated inside, as
// scf.execute_region's would be); the intermediate (the sum) too.
// BUF-LABEL: func.func @add_relu
// BUF-SAME: (%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>) -> memref<8xf32>
// BUF: %[[R:.*]] = kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat -> memref<8xf32> {
// BUF: %[[S:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// BUF: linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<8xf32>, memref<8xf32>) outs(%[[S]] : memref<8xf32>)
// BUF: %[[Y:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// BUF: linalg.generic {{.*}} ins(%[[S]] : memref<8xf32>) outs(%[[Y]] : memref<8xf32>)
// BUF: kf.yield %[[Y]] : memref<8xf32>
// BUF: return %[[R]] : memref<8xf32>
// kf-hoist-kernel-buffers allocates both before the kernel, which then
// returns nothing: a launch cannot allocate.
// HOIST-LABEL: func.func @add_relu
// HOIST: %[[S:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// HOIST: %[[Y:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// HOIST: kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat {
// HOIST-NOT: memref.alloc
// HOIST: outs(%[[S]] : memref<8xf32>)
// HOIST: outs(%[[Y]] : memref<8xf32>)
// HOIST-NOT: kf.yield
// HOIST: linalg.yield
// HOIST-NEXT: }
// HOIST-NEXT: }
// HOIST-NEXT: return %[[Y]] : memref<8xf32>
// Upstream deallocation frees the intermediate after the whole kernel:
// no free inside it, no clone, no ownership result on the kernel.
// DEALLOC-LABEL: func.func @add_relu
// DEALLOC: %[[S:.*]] = memref.alloc()
// DEALLOC: %[[Y:.*]] = memref.alloc()
// DEALLOC: kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat {
// DEALLOC-NOT: dealloc
// DEALLOC: linalg.generic
// DEALLOC-NOT: dealloc
// DEALLOC: linalg.generic
// DEALLOC-NOT: dealloc
// DEALLOC: linalg.yield
// DEALLOC-NEXT: }
// DEALLOC-NEXT: }
// DEALLOC-NEXT: memref.dealloc %[[S]] : memref<8xf32>
// DEALLOC-NEXT: return %[[Y]] : memref<8xf32>
// DEALLOC-NOT: bufferization.clone
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %r = kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat -> tensor<8xf32> {
    %e0 = tensor.empty() : tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %e1 = tensor.empty() : tensor<8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %v = arith.maximumf %x, %zero : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    kf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// A row kernel over a dynamic number of rows (a softmax-like sum and
// divide): the allocations' sizes (memref.dim of the input) move before
// the kernel with them. A later kernel reads the first one's result; the
// sum and the first result are freed after the last kernel, never inside
// one.
// HOIST-LABEL: func.func @rows
// HOIST-SAME: (%[[X:.*]]: memref<?x16xf32>)
// HOIST: %[[D:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x16xf32>
// HOIST: %[[SUM:.*]] = memref.alloc(%[[D]]) {{.*}} : memref<?xf32>
// HOIST: %[[DIV:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?x16xf32>
// HOIST: kf.kernel "reduction_sum_div_0" kind reduction mapping row {
// HOIST: linalg.fill {{.*}} outs(%[[SUM]] : memref<?xf32>)
// HOIST: }
// HOIST: %[[NEG:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?x16xf32>
// HOIST: kf.kernel "pointwise_neg_1" kind pointwise mapping flat {
// HOIST: ins(%[[DIV]] : memref<?x16xf32>) outs(%[[NEG]] : memref<?x16xf32>)
// HOIST: }
// HOIST: return %[[NEG]]
// DEALLOC-LABEL: func.func @rows
// DEALLOC: kf.kernel "reduction_sum_div_0"
// DEALLOC-NOT: dealloc
// DEALLOC: kf.kernel "pointwise_neg_1"
// DEALLOC-NOT: dealloc
// DEALLOC-DAG: memref.dealloc %{{.*}} : memref<?xf32>
// DEALLOC-DAG: memref.dealloc %{{.*}} : memref<?x16xf32>
// DEALLOC: return
// DEALLOC-NOT: bufferization.clone
func.func @rows(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %r = kf.kernel "reduction_sum_div_0" kind reduction mapping row -> tensor<?x16xf32> {
    %d = tensor.dim %x, %c0 : tensor<?x16xf32>
    %e = tensor.empty(%d) : tensor<?xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x16xf32>) outs(%s0 : tensor<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    } -> tensor<?xf32>
    %e1 = tensor.empty(%d) : tensor<?x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<?x16xf32>, tensor<?xf32>) outs(%e1 : tensor<?x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<?x16xf32>
    kf.yield %y : tensor<?x16xf32>
  }
  %n = kf.kernel "pointwise_neg_1" kind pointwise mapping flat -> tensor<?x16xf32> {
    %d = tensor.dim %r, %c0 : tensor<?x16xf32>
    %e = tensor.empty(%d) : tensor<?x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<?x16xf32>
    kf.yield %y : tensor<?x16xf32>
  }
  return %n : tensor<?x16xf32>
}
