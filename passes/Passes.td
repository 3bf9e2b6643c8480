//===- Passes.td - kfuse passes -----------------------------*- tablegen -*-===//
#ifndef KFUSE_PASSES_TD
#define KFUSE_PASSES_TD

include "mlir/Pass/PassBase.td"

def KfDecompose : Pass<"kf-decompose"> {
  let summary = "Rewrite kf composites (softmax, log_softmax, layer_norm) into primitives";
  let description = [{
    Writes each composite out in the primitive kf ops that eager PyTorch
    would launch for it, so later stages (fusion, the kernel report) see the
    real sequence of kernels. Softmax uses the numerically stable form.

    Before:
    ```mlir
    %y = kf.softmax %x dim 1 : tensor<4x8xf32>
    ```
    After:
    ```mlir
    %m = kf.max %x dims [1] keepdim : tensor<4x8xf32>
    %s = kf.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32>
    %e = kf.exp %s : tensor<4x8xf32>
    %z = kf.sum %e dims [1] keepdim : tensor<4x8xf32>
    %y = kf.div %e, %z : tensor<4x8xf32>, tensor<4x1xf32>
    ```
    layer_norm becomes mean, sub, mul, mean, add eps, rsqrt, mul, and the
    optional weight mul and bias add.
  }];
  let dependentDialects = ["::kfuse::kf::KfDialect"];
}

def KfToLinalg : Pass<"kf-to-linalg"> {
  let summary = "Lower kf to linalg on tensors: one linalg op per eager kernel";
  let description = [{
    Every kf op that launches a kernel in eager PyTorch becomes exactly one
    linalg op: elementwise ops (and a materialised broadcast_to) a
    `linalg.generic` with parallel iterators, reductions a `linalg.generic`
    with reduction iterators (its accumulator initialised by a
    `linalg.fill`, which belongs to that kernel), 2-D matmul `linalg.matmul`
    (batched: a `linalg.generic`), transpose `linalg.transpose`. Ops that
    launch nothing become tensor ops that are no kernel: reshape becomes
    `tensor.collapse_shape`/`tensor.expand_shape`, constants
    `arith.constant`. Composites are decomposed first (as `kf-decompose`)
    and broadcast_to is read through by its elementwise consumers.

    Broadcasting is expressed with indexing maps: a static size-1 dim that
    stretches is collapsed away (`tensor.collapse_shape`, no data moved) and
    the map skips it. A dynamic dim never broadcasts: where it meets a
    static size or another dynamic dim, a `cf.assert` checks at run time
    that they are equal.

    Before:
    ```mlir
    %c = kf.add %a, %b : tensor<4x8xf32>, tensor<8xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<4x8xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
           affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
           iterator_types = ["parallel", "parallel"]}
           ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
    } -> tensor<4x8xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // KFUSE_PASSES_TD
