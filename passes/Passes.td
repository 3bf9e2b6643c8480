//===- Passes.td - kfuse passes -----------------------------*- tablegen -*-===//
#ifndef KFUSE_PASSES_TD
#define KFUSE_PASSES_TD

include "mlir/Pass/PassBase.td"

// Shared by kf-decompose and kf-to-linalg (which runs its rewrites first).
defvar KfF64MomentsOption =
  Option<"f64Moments", "f64-moments", "bool", "false",
         "take the moments of layer_norm, rms_norm, var and std of f32, f16 and bf16 in f64 "
         "(the CPU pipelines; the GPU keeps f32)">;

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
    optional weight mul and bias add (and a `tensor.cast` back to the op's
    type when a dynamic input dim meets the static weight or bias).

    As PyTorch does, an f16 or bf16 composite is computed in f32 and
    rounded once: the decomposition runs on `kf.cast %x to f32` and its
    result is cast back. The max that shifts a softmax is marked
    `kf.stable_shift` (over an empty dim it may be -inf; nothing reads it);
    a softmax over a static empty dim is its (empty) input.

    With `f64-moments` (the CPU pipelines set it) the moments of
    layer_norm, rms_norm, var and std of f32, f16 and bf16 inputs are taken
    in f64 and the result rounded once, as PyTorch's CPU var accumulates in
    double: variances past f32's range (values past 1.8e19) do not
    overflow, and a row of n copies of 0.7 has mean 0.7 exactly, so
    layer_norm gives 0. Without it (the GPU, as PyTorch's CUDA kernels) f32
    inputs keep f32.
  }];
  let options = [KfF64MomentsOption];
  let dependentDialects = ["::kfuse::kf::KfDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KfToLinalg : Pass<"kf-to-linalg"> {
  let summary = "Lower kf to linalg on tensors: one linalg op per eager kernel";
  let description = [{
    Every kf op that launches a kernel in eager PyTorch becomes exactly one
    linalg op: elementwise ops (and a materialised broadcast_to) a
    `linalg.generic` with parallel iterators, reductions a `linalg.generic`
    with reduction iterators (its accumulator initialised by a
    `linalg.fill`, which belongs to that kernel), 2-D matmul `linalg.matmul`
    (batched: a `linalg.generic`), transpose `linalg.transpose`. Sums,
    means and matmuls of f16/bf16 accumulate in f32 (as PyTorch does); an
    elementwise op marked `kf.finishes` then rounds the result once, and
    divides it by the count for mean (mean is sum / n: 0 / 0 = NaN over an
    empty dim). Kernel formation keeps that op in the eager kernel of the op
    it finishes. max and min over a dynamic dim check at run time that it
    is not empty (torch.amax raises; a static empty dim fails to verify).
    Ops that
    launch nothing become tensor ops that are no kernel: reshape becomes
    `tensor.collapse_shape`/`tensor.expand_shape`, constants
    `arith.constant` (a splat of more than 2^16 elements is instead written
    by a `linalg.generic` tagged "constant", as `torch.full` launches one:
    it stays a splat, where a global would hold every element). Composites are decomposed first (as `kf-decompose`)
    and broadcast_to is read through by its elementwise consumers
    (`f64-moments` as for `kf-decompose`).

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
  let options = [KfF64MomentsOption,
    Option<"mergeReductions", "merge-reductions", "bool", "false",
           "a reduction of a reduction of the same kind (sum, max, min), the "
           "inner read by nothing else, as one reduction over both's dims: "
           "x.sum(0).sum(0) -> x.sum((0, 1)) (the fused pipelines, with the "
           "rule reduction-chain; eager PyTorch runs two kernels)">];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

// The fusion switches, shared by kf-form-kernels and kf-kernel-report so
// that the report shows what the pass does with the same options.
defvar KfFusionOptions = [
  // kfuse::fusion::FusionOptions (passes/fusion/FusionOptions.h) holds the
  // same switches for the tools, spelled the same way.
  Option<"fusion", "fusion", "::kfuse::fusion::FusionMode",
         "::kfuse::fusion::FusionMode::On",
         "on, or off for eager boundaries (one kernel per op)",
         [{::llvm::cl::values(
           clEnumValN(::kfuse::fusion::FusionMode::On, "on", "fuse kernels"),
           clEnumValN(::kfuse::fusion::FusionMode::Off, "off",
                      "eager boundaries: one kernel per op"))}]>,
  // A string, read by the passes' initialize(): llvm::cl refuses "-1" for
  // an unsigned with a message the pass manager turns into an empty error.
  Option<"maxOps", "max-ops", "std::string", "\"0\"",
         "most ops in one kernel (0: no limit)">,
  // A string for the same reason; empty: the target's default.
  Option<"attentionMinScores", "attention-min-scores", "std::string", "\"\"",
         "the attention rule forms a kernel only where the scores it never "
         "writes take at least this many bytes (or are of dynamic size); "
         "empty: the target's default (0 on the GPU; 1 GiB on the host "
         "runtime, where three kernels are faster: the scores stay in "
         "cache)">,
  Option<"pointwise", "pointwise", "bool", "true", "rule: elementwise chains">,
  Option<"reductionPrologue", "reduction-prologue", "bool", "true",
         "rule: elementwise into a reduction">,
  Option<"reductionEpilogue", "reduction-epilogue", "bool", "true",
         "rule: elementwise after a reduction">,
  Option<"rowPersistent", "row-persistent", "bool", "true",
         "rule: a row reduction read back over its rows">,
  Option<"matmulEpilogue", "matmul-epilogue", "bool", "true",
         "rule: elementwise after a matmul">,
  Option<"reshape", "reshape", "bool", "true",
         "rule: elementwise across a reshape">,
  Option<"reshapePropagation", "reshape-propagation", "bool", "true",
         "rule: ops iterate over collapsed dims so reshapes leave kernels">,
  Option<"recompute", "recompute", "bool", "true",
         "rule: recompute a cheap producer in its consumer">,
  Option<"sibling", "sibling", "bool", "true",
         "rule: ops that read the same tensor over the same space, one kernel">,
  Option<"reductionChain", "reduction-chain", "bool", "true",
         "rule: a row reduction and a full reduction of its rows, one kernel; "
         "a reduction of a reduction of one kind, one reduction">,
  Option<"smallReduction", "small-reduction", "bool", "true",
         "rule: a static reduction of at most 8 elements unrolled in a thread">,
  Option<"attention", "attention", "bool", "true",
         "rule: softmax(q @ k^T ...) @ v as one kernel, the scores never written">,
  Option<"multiReduction", "multi-reduction", "bool", "true",
         "rule: reductions of one tensor over its leading and its trailing dims, one pass">,
  Option<"matmulChain", "matmul-chain", "bool", "true",
         "rule: matmuls summed (a @ b + c @ d) as one kernel with one accumulator">,
  Option<"transposedEpilogue", "transposed-epilogue", "bool", "true",
         "rule: ops over a reduction's rows (x columns) in another order, in its kernel">,
];

// What a kernel's variant is chosen from, besides its ops: the options of
// kf-assign-kernel-mappings, which records the choice, and of
// kf-kernel-report, which shows it.
defvar KfVariantOptions = [
    Option<"matmul", "matmul", "std::string", "\"fastest\"",
           "the GPU kernel of matmuls: `fastest` (tensor cores where the "
           "chip and types allow, else a 64x64 block tile with 4x4 outputs "
           "a thread in registers) or `reference` (the 16x16 tile, one "
           "output a thread; for tests)">,
    Option<"chip", "chip", "std::string", "\"sm_75\"",
           "the GPU chip the kernels are for: from sm_80, f16 and bf16 "
           "matmuls take the tensor-core kernel (mma.sync.m16n8k16, "
           "ldmatrix, cp.async double buffering) when `matmul` is "
           "`fastest`">,
    Option<"tf32", "tf32", "bool", "false",
           "with a chip from sm_80, f32 matmuls on tensor cores too, their "
           "inputs as TF32 (10 bits of mantissa; mma.sync.m16n8k8): off by "
           "default, as in PyTorch">,
    Option<"matmulTiles", "matmul-tiles", "std::string", "\"\"",
           "the tiles of every tensor-core matmul, MxNxK/WMxWN/STAGES[/GROUP_M] "
           "(block tile, warps along M and N, cp.async stages, rows of tiles "
           "a group): empty for kfuse's table (MatmulTiles.cpp); for sweeps">,
];

def KfPropagateReshapes : Pass<"kf-propagate-reshapes", "mlir::func::FuncOp"> {
  let summary = "Move reshapes past elementwise ops and reductions, out of kernels' way";
  let description = [{
    An elementwise op or a reduction that reads a value through
    `tensor.expand_shape`, or whose result `tensor.collapse_shape` reads,
    iterates over the collapsed dims instead (upstream's
    `linalg::collapseOpIterationDims`, exactly the dims the reshape
    groups, when they are contiguous in every indexing map, all parallel
    or all reduced, and sized alike by every operand); the reshape moves to
    the other side of the op, and reshapes that meet undo each other. An op
    is collapsed together with its component (the producers of its inputs,
    the other readers of its inputs, the readers of its results,
    transitively) or not at all, so that the reshape leaves every kernel's
    way instead of moving between two ops: the component ends at what
    reads a reshape as a view (arguments, results, matmul operands). The
    other way, an elementwise op of arguments read only through an expand
    by a reduction over part of a group of dims iterates over the expanded
    dims (upstream's expansion patterns, our control function).
    kf-form-kernels runs this first (its `reshape-propagation` switch), and
    keeps the result only where it forms no more kernels: a 3-D Linear is a
    2-D matmul between two reshapes, and its bias, activation and residual
    then run over the matmul's own space, as its epilogue. Ops that index
    (a gather, `linalg.index`), slices (an offset in their map) and matmuls
    are left as they are. Each op rewritten is reported as a remark.

    Before:
    ```mlir
    %y = linalg.matmul ins(%x, %w : tensor<32x96xf32>, tensor<96x384xf32>) ...
    %e = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 16, 384]
        : tensor<32x384xf32> into tensor<2x16x384xf32>
    %g = linalg.generic {iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%e : tensor<2x16x384xf32>) ... {kf.op = "gelu"}
    ```
    After:
    ```mlir
    %y = linalg.matmul ins(%x, %w : tensor<32x96xf32>, tensor<96x384xf32>) ...
    %g = linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<32x384xf32>) ... {kf.op = "gelu"}
    %e = tensor.expand_shape %g [[0, 1], [2]] output_shape [2, 16, 384]
        : tensor<32x384xf32> into tensor<2x16x384xf32>
    ```
  }];
}

def KfFormKernels : Pass<"kf-form-kernels", "mlir::ModuleOp"> {
  let summary = "Group linalg ops into kernels: one kf.kernel region per launch";
  let description = [{
    Decides which linalg ops (one per eager kernel, as kf-to-linalg makes
    them) share a GPU kernel and wraps each group in a `kf.kernel` region
    named after its kind and ops (`pointwise_add_relu_0`). The rules, each of
    which can be switched off:

    * `pointwise`: an elementwise producer into its elementwise consumer,
      through broadcasts and dtype casts;
    * `reduction-prologue`: elementwise ops into the reduction that reads
      them (`sum(exp(x))` is one kernel);
    * `reduction-epilogue`: elementwise ops on a reduction's result, also
      where they read each row's value once at a permuted place
      (`x.sum(2).t().exp()`: the op then iterates in the rows' order and
      writes through the permutation);
    * `row-persistent`: a reduction read back over the elements it
      reduced, each at its own row (softmax's `x - max(x)`, `x -
      x.mean(0)`): one block owns a row, so softmax and layer_norm are one
      kernel each;
    * `matmul-epilogue`: bias and activation after a matmul;
    * `reshape`: elementwise ops across a reshape of the same elements;
    * `reshape-propagation`: before anything else, elementwise ops and
      reductions that read through an expanding reshape or are read
      through a collapsing one iterate over the collapsed dims, so that the
      reshape leaves the producer's way (kf-propagate-reshapes): a 3-D
      Linear's bias, activation and residual run as its matmul's epilogue.
      Kept only where the function then forms no more kernels than as
      written (both are formed on copies; a remark says when it is not);
    * `recompute`: a single elementwise producer is recomputed in a
      consumer's kernel when reading its inputs moves fewer bytes than
      reading its result;
    * `sibling`: groups that read the same tensor over the same iteration
      space (elementwise ops of one result shape, reductions of one
      family, or a row kernel over trailing dims and elementwise ops over
      its rows x columns: `x.sum(1)` and `exp(x)`) become one
      multi-output kernel reading it once;
    * `reduction-chain`: a reduction over the trailing dims and a full
      reduction of its results (`x.sum(1).sum(0)`) in one kernel; and
      (kf-to-linalg's `merge-reductions`, which the pipelines set from this
      switch) a reduction of a reduction of the same kind, the inner read
      by nothing else, as one reduction over both's dims
      (`x.sum(0).sum(0)` of a 3-D x: `x.sum((0, 1))`; not into a full
      reduction, which the row_chain form already is);
    * `small-reduction`: a static reduction of at most 8 elements whose
      result is not read back over them and whose elementwise producers it
      computes itself runs a thread per result (the flat mapping), its
      producers and readers fused as elementwise ops.
    * `attention`: before any edge is judged, `softmax(q @ k^T ...) @ v`
      (two matmuls, elementwise ops over the scores, a softmax over the
      keys; the copies of the views q, k and v are, and a permuting copy
      of the result, taken along) is one kernel of kind `attention`, which
      then takes nothing else; its mapping never writes the scores.
    * `multi-reduction`: after the sibling joins, a kernel of reductions
      of a tensor over its trailing dims (`x.sum(1)`, with their
      elementwise epilogues) and one of reductions of the same tensor
      over its leading dims (`x.max(0)`) become one kernel that reads the
      tensor once (tinygrad's multireduce), which then takes nothing else:

      ```mlir
      // before: reduction_sum_0 reads x, reduction_max_1 reads x again
      %s = kf.sum %x dims [1] : tensor<64x32xf32>
      %m = kf.max %x dims [0] : tensor<64x32xf32>
      // after: one kernel "reduction_sum_max_0" (mapping multi_reduction)
      ```
    * `matmul-chain`: matmuls of one output space whose products are
      summed (`a @ b + c @ d`, an RNN cell's `x @ W + h @ U`; the adds
      read nothing else) are one kernel that keeps one accumulator over
      both contractions (K1 + K2 steps) and never writes the products
      (analysis/MatmulChain.h); the sum's readers are its epilogue. Not
      f16/bf16 products, which PyTorch rounds before the sum:

      ```mlir
      // before: matmul_0 writes c @ d, matmul_add_1 reads it back
      %p = kf.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32>
      %q = kf.matmul %c, %d : tensor<64x16xf32>, tensor<16x48xf32>
      %s = kf.add %p, %q : tensor<64x48xf32>, tensor<64x48xf32>
      // after: one kernel "matmul_add_0" (mapping matmul)
      ```

    * `transposed-epilogue`: ops after a reduction that iterate over its
      rows (or rows x columns) in another order, each reading the values
      of one row (`x.softmax(1).t().contiguous()`, `x.sum(2).t().exp()`),
      are in its kernel: they iterate in the reduction's order and write
      through the permutation (`linalg::interchangeGenericOp`), so the
      block that owns a row computes them:

      ```mlir
      // before: reduction_..._div_0 writes the softmax, pointwise_1 its transpose
      %s = kf.softmax %x dim 1 : tensor<64x32xf32>
      %t = kf.transpose %s [1, 0] : tensor<64x32xf32>
      %c = kf.contiguous %t : tensor<32x64xf32>
      // after: one kernel "reduction_max_sub_exp_sum_div_contiguous_0"
      ```

    Equal ops are computed once (upstream CSE runs first, when fusion is
    on). A kernel holds at most one matmul (or, by `matmul-chain`, matmuls
    whose products it sums) or one family of reductions
    (same sizes, same reduced dims; or a chain), and with a reduction its
    elementwise ops iterate over the reduction's rows x columns or over its
    rows (`row-mismatch` otherwise: one block owns a row), and one read
    back over rows x columns reads its own row's value (`other-row`
    otherwise: `a - a.sum(1)` on a square matrix). An elementwise producer
    read at other elements (through a broadcast or a view) must be
    computed in its reader, so it may have no other reader
    (`not-in-place`); readers of kf.contiguous read memory
    (`materialize`); a matmul takes its operands from memory; reductions
    and matmuls are never duplicated; no grouping may make a cycle between
    kernels. The rules approximate what the GPU mappings serve; the
    mappings decide: every kernel formed is checked
    (kf-assign-kernel-mappings' analysis), and the ops of one that no
    mapping serves are kept in kernels of their own (`unmappable`, with the
    mapping's reason) and the plan made again, unless an op is refused even
    alone (`check-mappings=false` skips the check). Every boundary left is
    recorded on the function as `kf.boundaries` with its reason, and every
    decision is an optimization remark (`--remarks-filter=kf`). Inside each
    kernel, upstream linalg elementwise fusion merges producer/consumer
    pairs whose producer has no other reader.

    Before (after kf-to-linalg):
    ```mlir
    %t = linalg.generic {...} ins(%a, %b ...) {kf.op = "add"}
    %c = linalg.generic {...} ins(%t ...) {kf.op = "relu"}
    ```
    After:
    ```mlir
    %c = kf.kernel "pointwise_add_relu_0" kind pointwise -> tensor<8xf32> {
      %0 = linalg.generic {...} ins(%a, %b ...)  // add and relu, merged
      kf.yield %0 : tensor<8xf32>
    }
    ```
  }];
  let options = KfFusionOptions # [
    Option<"mergeBodies", "merge-bodies", "bool", "true",
           "merge the linalg ops inside each kernel (upstream fusion)">,
    Option<"checkMappings", "check-mappings", "bool", "true",
           "keep apart the ops of a fused kernel no GPU mapping serves">,
  ];
  // What a researcher counts (--mlir-pass-statistics): eager kernels
  // (`ops`) against fused ones, and every producer/consumer pair by its
  // fate, the boundaries by reason (the report's reason codes).
  let statistics = [
    Statistic<"numOps", "ops", "ops that eager runs as one kernel each">,
    Statistic<"numKernels", "kernels", "kernels formed">,
    Statistic<"numReshapesMoved", "reshapes-moved",
              "ops collapsed so that a reshape moved past them">,
    Statistic<"numFused", "fused", "producer/consumer pairs in one kernel">,
    Statistic<"numRecomputed", "recomputed",
              "producers recomputed in their consumer's kernel">,
    Statistic<"numBoundaries", "boundaries",
              "producer/consumer pairs in different kernels">,
    Statistic<"numFusionOff", "boundaries-fusion-off", "fusion is off">,
    Statistic<"numRuleDisabled", "boundaries-rule-disabled",
              "the rule that fuses them is switched off">,
    Statistic<"numProducerReduction", "boundaries-producer-reduction",
              "the producer is a reduction read whole">,
    Statistic<"numDuplicateReduction", "boundaries-duplicate-reduction",
              "fusing would compute a reduction twice">,
    Statistic<"numReductionMismatch", "boundaries-reduction-mismatch",
              "reductions over different dims or sizes">,
    Statistic<"numMatmulBoundary", "boundaries-matmul-boundary",
              "a matmul reads its operands from memory">,
    Statistic<"numNotInPlace", "boundaries-not-in-place",
              "read at other elements while read elsewhere too">,
    Statistic<"numReshape", "boundaries-reshape",
              "a reshape changes the iteration space">,
    Statistic<"numOpLimit", "boundaries-op-limit", "max-ops reached">,
    Statistic<"numCycle", "boundaries-cycle",
              "fusing would make a cycle between kernels">,
    Statistic<"numAnchorConflict", "boundaries-anchor-conflict",
              "a kernel holds one matmul or one family of reductions">,
    Statistic<"numRowMismatch", "boundaries-row-mismatch",
              "an op over neither the reduction's rows nor its rows x columns">,
    Statistic<"numOtherRow", "boundaries-other-row",
              "a row reduction's value read at another row">,
    Statistic<"numMaterialize", "boundaries-materialize",
              "a reader of kf.contiguous reads memory">,
    Statistic<"numUnmappable", "boundaries-unmappable",
              "fusing would make a kernel no GPU mapping serves">,
    Statistic<"numGathered", "boundaries-gathered",
              "a gather reads its input at loaded indices: from memory">,
    Statistic<"numSiblings", "siblings",
              "kernels joined because they read the same tensor">,
  ];
  let dependentDialects = ["::kfuse::kf::KfDialect",
                           "::mlir::linalg::LinalgDialect"];
  // Built with the GPU's mapping query bound (Passes.h): the check is a
  // callback, so that fusion/ does not depend on gpu/.
  let constructor = "::kfuse::createKfFormKernels()";
}

def KfKernelReport : Pass<"kf-kernel-report", "mlir::ModuleOp"> {
  let summary = "Report kernels and memory traffic, eager and fused, and why each boundary is there";
  let description = [{
    Prints, for each function, eager (one kernel per op) and fused (as
    kf-form-kernels with the given options) side by side: kernels,
    array-sized transfers (each kernel reads each input once and writes each
    output once), elements moved and bytes moved; then every fused kernel
    with its ops, reads and writes, and how the GPU runs it: its mapping
    and, for a matmul, its variant, as kf-assign-kernel-mappings decides
    them for `chip` (`tf32`, `matmul`: the same options); then every
    boundary with its reason
    (`rule-disabled: row-persistent=false` names the switch that keeps it).
    Sizes with dynamic dims are polynomials in d0, d1, ... (the dynamic dims
    of the arguments, in order); `dims=d0=1024` gives them values.

    `format=json` prints one JSON document instead (`"schema_version": 1`
    at its top, with `"functions"`). `format=dot` draws the fused kernels
    with Graphviz: one `digraph` for the module, a cluster per function and
    in it a cluster per kernel (its name and kind) holding its ops, the
    arguments and results as ellipses, an edge per tensor an op reads, and
    each edge between two kernels in red, labelled with the boundary's
    reason and the bytes of that tensor (an op recomputed in several
    kernels is drawn in each).

    The IR passes through unchanged; the report goes to stdout, or to
    `report-file=PATH`, written whole or not at all (a regular file is
    replaced through a temporary; a directory or the input file is refused
    before any work):
    ```
    kfuse-opt examples/softmax.mlir \
        "--kf-kernel-report=format=dot row-persistent=false report-file=softmax.dot" \
        -o /dev/null && dot -Tsvg softmax.dot -o softmax.svg
    ```

    Before: any kf (or linalg) module. Output for examples/add_relu.mlir:
    ```
    function @add_relu
                           eager        fused
      kernels                  2            1
      transfers                5            3
    ```
  }];
  let options = [
    Option<"format", "format", "::kfuse::report::ReportFormat",
           "::kfuse::report::ReportFormat::Text", "text, json or dot",
           [{::llvm::cl::values(
             clEnumValN(::kfuse::report::ReportFormat::Text, "text",
                        "tables, for people"),
             clEnumValN(::kfuse::report::ReportFormat::Json, "json",
                        "one JSON document"),
             clEnumValN(::kfuse::report::ReportFormat::Dot, "dot",
                        "a Graphviz graph of the fused kernels"))}]>,
    ListOption<"dims", "dims", "std::string",
               "values of the dynamic dims: d0=1024,d1=8">,
    Option<"reportFile", "report-file", "std::string", "",
           "write the report to this file instead of stdout">,
  ] # KfFusionOptions # KfVariantOptions;
  // It runs kf-to-linalg, kf-form-kernels and kf-assign-kernel-mappings on
  // a copy of the module.
  let dependentDialects = [
    "::kfuse::kf::KfDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
  // Its kf-form-kernels checks kernels as the pass does: the same query.
  let constructor = "::kfuse::createKfKernelReport()";
}

def KfCompensatedSums : Pass<"kf-compensated-sums"> {
  let summary = "Give float sum reductions on buffers a compensated (Kahan) step";
  let description = [{
    A reduction lowered to loops folds one running sum per output element,
    and its error grows with the number of terms: in f32, 2^25 ones sum to
    2^24 and a million 0.1s are 1% off. This pass gives every
    `linalg.generic` on buffers whose body is `out = addf(out, term)` a
    second output holding the sum's lost low part, and makes its body one
    compensated step, so the error no longer grows with n (PyTorch and numpy
    reach the same with blocked pairwise sums). The CPU lowering runs it
    before `convert-linalg-to-loops`; the GPU row mappings compensate each
    thread's partial the same way.

    Before:
    ```mlir
    linalg.generic {iterator_types = ["reduction"]} ins(%x : memref<?xf32>)
        outs(%s : memref<f32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    ```
    After:
    ```mlir
    %lost = memref.alloc() : memref<f32>
    linalg.fill ins(%zero : f32) outs(%lost : memref<f32>)
    linalg.generic {iterator_types = ["reduction"]} ins(%x : memref<?xf32>)
        outs(%s, %lost : memref<f32>, memref<f32>) {
    ^bb0(%in: f32, %sum: f32, %c: f32):
      %y = arith.subf %in, %c : f32
      %t = arith.addf %sum, %y : f32
      %l = arith.subf (arith.subf %t, %sum), %y      // the lost part,
      linalg.yield %t, (select finite(%t), %l, 0.0)  // 0 once %t is inf/NaN
    }
    memref.dealloc %lost : memref<f32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def KfExpandShapeStrides : Pass<"kf-expand-shape-strides"> {
  let summary = "memref.expand_shape with two dynamic dims in a group as a reinterpret_cast";
  let description = [{
    Upstream's `expand-strided-metadata` (LLVM 22) assumes at most one
    dynamic dim in each reassociation group of a `memref.expand_shape` and
    crashes on more (llvm-project issue 186830, fixed for LLVM 23): a `?x?`
    result of an elementwise kernel that reshape propagation ran over one
    flat dim is such an expand_shape. The CPU and GPU host lowerings run
    this pass just before it: each such op becomes a
    `memref.reinterpret_cast` of its source with the output shape as sizes
    and, in each group, strides from the innermost dim out (the source
    dim's stride, then times each size after).

    Before:
    ```mlir
    %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n]
        : memref<?xf32> into memref<?x?xf32>
    ```
    After:
    ```mlir
    %base, %offset, %size, %stride = memref.extract_strided_metadata %a
        : memref<?xf32> -> memref<f32>, index, index, index
    %s0 = arith.muli %stride, %n : index
    %e = memref.reinterpret_cast %a to offset: [%offset], sizes: [%m, %n],
        strides: [%s0, %stride] : memref<?xf32> to memref<?x?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def KfHostMath : Pass<"kf-host-math", "mlir::ModuleOp"> {
  let summary = "exp, tanh, expm1, rsqrt, erf, log and 1 + erf/tanh of f32, f16 and bf16 written out, for the CPU";
  let description = [{
    Replaces `math.tanh`, `math.expm1`, `math.rsqrt`, `math.erf` and `math.log` whose operands
    (scalars or vectors) are f32, f16 or bf16 by branch-free f64 arithmetic
    that vectorizes: expm1 by Cody-Waite reduction and a Taylor series,
    tanh(x) = sign(x) t / (t + 2) with t = expm1(2|x|), rsqrt as 1 / sqrt(x),
    erf as x P(x^2) below 1 and Q(|x|) from 1 to 4 (1 past it; P and Q
    polynomials of degree 9 and 20 fitted to it, f64 relative error below
    1.2e-12), log as e ln 2 + 2 atanh((m - 1) / (m + 1)) for x = 2^e m (its
    series to 12 terms; 0 gives -inf, negatives NaN), each rounded once to
    the operand's type (within 0.5 ulp of
    the exact value but for inputs within about 1e-12 of a rounding tie;
    libm's tanhf was 2.2 ulp off, the f32 1 / sqrt(x) 1.47, erff and logf
    0.78 and a call a lane). Tiny and denormal inputs of tanh, expm1 and
    erf's x P(x^2) are exact to their rounding, NaN stays NaN. An f64 expm1
    becomes a call of libm's `expm1` (math-to-llvm would write
    `exp(x) - 1`); f64 tanh, erf and log are left to libm.

    `math.exp` of f32 (f16 and bf16 through f32) becomes Cephes' expf in
    f32 arithmetic (range reduction, a degree-6 polynomial, 2^n in two
    halves; at most 1.006 ulp from the exact value, where libm's expf is
    about 0.5, but 8 lanes a register instead of a libm call a lane), in
    scalar and vector code alike: every host kernel computes the same exp,
    whichever kernel fusion put it in. f64 exp is left to libm. With
    `x86-scalef` (AVX-512: kfuse-compile sets it where the CPU has AVX512F
    and AVX512VL), a vector's 2^n is one vscalefps
    (`llvm.x86.avx512.mask.scalef.ps.*`) in place of nine ops, the same
    bits; scalars keep the two halves.

    First, every f32 `1 + erf(z)` becomes `erfc(-z)` and every
    `1 + tanh(y)` becomes `2 / (1 + exp(-2y))`, in f32 arithmetic
    (HostMathComplements.cpp): both GELUs add 1 to a function near -1 for
    negative x, which cancels; these forms do not, so they need no f64
    (GELU within 6.4 ulp down to x = -13, where the f64 erf gave 95 ulp at
    -3) and cost less. erfc(t) is `exp(-t^2) R(t)`, t^2 split exactly by
    an fma, its exp without expF32's clamps (the argument is in
    [-110.25, 0]).

    The CPU lowering runs it first.

    Before:
    ```mlir
    %y = math.exp %x : vector<8xf32>
    ```
    After:
    ```mlir
    %c = arith.maxnumf %x, %cst_m104 : vector<8xf32>   // clamped, then
    %n = math.roundeven ...                             // x = n ln 2 + r
    %p = math.fma ...                                   // the polynomial in r
    %y = arith.select %isnan, %x, %e : vector<8xi1>, vector<8xf32>
    ```
  }];
  let options = [
    Option<"x86Scalef", "x86-scalef", "bool", /*default=*/"false",
           "exp's 2^n as AVX-512's vscalefps for vectors of 4, 8 or 16 f32: "
           "one instruction for nine, the same bits (the CPU needs AVX512F and "
           "AVX512VL; kfuse-compile sets it with vector-bits=512)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def KfInlineKernels : Pass<"kf-inline-kernels"> {
  let summary = "Replace each kf.kernel by its body (for the CPU path)";
  let description = [{
    The CPU pipeline (kf-cpu-pipeline) runs the ops of a kernel in place:
    the region is spliced into its parent and its results replaced by the
    yielded values. Only the CPU pipeline does this; the GPU and host
    runtime pipelines keep each kernel until it is a launch
    (kf-assign-kernel-mappings, one-shot-bufferize, kf-hoist-kernel-buffers,
    buffer-deallocation-pipeline, kf-map-kernels-to-gpu).

    Before:
    ```mlir
    %c = kf.kernel "pointwise_add_relu_0" kind pointwise -> tensor<8xf32> {
      %0 = linalg.generic ...
      kf.yield %0 : tensor<8xf32>
    }
    ```
    After:
    ```mlir
    %c = linalg.generic ...
    ```
  }];
}

def KfAssignKernelMappings : Pass<"kf-assign-kernel-mappings", "mlir::ModuleOp"> {
  let summary = "Decide, on tensors, how each kernel is launched";
  let description = [{
    The one analysis of a kernel for the GPU, right after kf-form-kernels:
    each `kf.kernel`'s linalg ops are checked against the mappings and the
    one that serves it is stored on the kernel as its `mapping`:

    - `flat`: pointwise and transpose kernels whose ops iterate over one
      shape and read each other's results only at the element being
      computed;
    - `row`: reduction kernels whose ops share rows (a block per row);
    - `grid_reduction`: a full reduction with elementwise ops before it and
      over its result after it, in one launch (blocks stride over the
      tensor and write partials; the last block to finish, by an atomic
      ticket, combines them and runs the ops after the reduction);
    - `row_chain`: a row kernel followed by a final reduction over all of
      its rows (to one value) and elementwise ops over that value, in one
      launch (a block per row; the last block to finish reduces the rows'
      results, which every block wrote to global memory);
    - `matmul`: a fill, a 2-D linalg.matmul and an elementwise epilogue;
    - `attention`: softmax(q @ k^T ...) @ v (analysis/Attention.h), f32,
      static head dims adding up to at most 160: a block per 64 query rows, an online
      softmax over tiles of keys (gpu/attention/);
    - `multi_reduction`: reductions of one tensor over its trailing dims
      (rows) and over its leading dims (columns), with elementwise ops
      over either family's results, in one launch: a block per band of
      rows combines each row and keeps a partial of each column in global
      memory; the last block to finish (the ticket) combines the columns'
      partials in block order and runs the ops over them;
    - `serial` (with `serial-fallback`, the host runtime only): any other
      kernel, run as one launch of one thread.

    A matmul kernel's `variant` is chosen here too, from the chip's typed
    target (GpuTarget.h), the element types and the options: `tensor_core`
    (f16 and bf16, and f32 with `tf32`, on a chip with tensor cores),
    `simt` (operands of at least 8 bits), else `reference`; `matmul=
    reference` gives every matmul the reference. The host runtime
    (`serial-fallback`) runs its own matmul and records no variant.

    Without `serial-fallback`, a kernel no mapping serves is refused with
    its name and the reason. Nothing later decides again:
    kf-map-kernels-to-gpu builds the launch the mapping and the variant
    name.

    Before:
    ```mlir
    %c = kf.kernel "pointwise_add_relu_0" kind pointwise -> tensor<8xf32> {...}
    ```
    After:
    ```mlir
    %c = kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat -> tensor<8xf32> {...}
    %d = kf.kernel "matmul_0" kind matmul mapping matmul variant simt -> tensor<64x64xf32> {...}
    ```
  }];
  let options = [
    Option<"serialFallback", "serial-fallback", "bool", "false",
           "map kernels no mapping serves `serial` instead of refusing "
           "them (host CPU kernels only)">,
  ] # KfVariantOptions;
}

def KfMaterializeKernelResults : Pass<"kf-materialize-kernel-results"> {
  let summary = "Copy inside a kernel whatever it yields but does not compute";
  let description = [{
    Runs after the canonicalizer that follows kf-assign-kernel-mappings and
    before one-shot-bufferize. Canonicalization erases a linalg.generic that
    only copies its input, so a kernel that was only a copy (a returned
    slice `x[:, :2]`, read through a tensor.extract_slice) is left yielding
    a value made outside it: bufferization would turn that into a strided
    memref.copy on the host, which no device can run, and the kernel the
    report counted would have no launch. Each such value gets its identity
    copy back, inside the kernel. A tensor.cast of a value the kernel
    computes (the canonicalizer's, between a static and a dynamic shape) is
    no work: the kernel yields the value and the cast follows the kernel (a
    copy in the value's own order would not fit a row kernel whose last op
    writes through a permutation).

    Before:
    ```mlir
    %s = tensor.extract_slice %x[0, 0] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
    %r = kf.kernel "pointwise_slice_0" kind pointwise mapping flat -> tensor<4x2xf32> {
      kf.yield %s : tensor<4x2xf32>
    }
    ```
    After:
    ```mlir
    %r = kf.kernel "pointwise_slice_0" kind pointwise mapping flat -> tensor<4x2xf32> {
      %e = tensor.empty() : tensor<4x2xf32>
      %c = linalg.generic {indexing_maps = [#id, #id], ...} ins(%s : tensor<4x2xf32>)
             outs(%e : tensor<4x2xf32>) attrs = {kf.op = "copy"} { linalg.yield %in : f32 }
      kf.yield %c : tensor<4x2xf32>
    }
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def KfHoistKernelBuffers : Pass<"kf-hoist-kernel-buffers"> {
  let summary = "Allocate a bufferized kernel's buffers before it; the kernel returns nothing";
  let description = [{
    Runs after one-shot-bufferize and before buffer-deallocation-pipeline.
    One-shot bufferization allocates a kernel's buffers inside its region,
    where its tensors were made; a launch cannot allocate. Each allocation
    moves before its kernel (with the side-effect-free index arithmetic its
    sizes need), the kernel's results are replaced by the buffers it
    yields, and the kernel returns nothing. Upstream deallocation then
    frees every buffer after the kernel, never inside it, and clones
    nothing. A kernel whose buffers cannot move (a size computed by the
    kernel's own ops) is refused.

    Before:
    ```mlir
    %r = kf.kernel "pointwise_exp_0" kind pointwise mapping flat -> memref<8xf32> {
      %a = memref.alloc() : memref<8xf32>
      linalg.generic ... outs(%a : memref<8xf32>)
      kf.yield %a : memref<8xf32>
    }
    ```
    After:
    ```mlir
    %a = memref.alloc() : memref<8xf32>
    kf.kernel "pointwise_exp_0" kind pointwise mapping flat {
      linalg.generic ... outs(%a : memref<8xf32>)
    }
    ```
  }];
}

def KfMapKernelsToGpu : Pass<"kf-map-kernels-to-gpu", "mlir::ModuleOp"> {
  let summary = "Replace each bufferized kf.kernel by its CUDA launch, by its mapping";
  let description = [{
    Each mapping (flat, row, grid_reduction, row_chain, multi_reduction,
    matmul, attention, serial;
    decided by kf-assign-kernel-mappings) replaces a bufferized kernel (no
    results, its buffers allocated before it: kf-hoist-kernel-buffers) by
    its launch; the launch names its outlined function after the kernel
    and all kernels of a program go to one module, `kfuse_kernels` (one
    PTX module per program). Deallocation ran before on whole kernels, so
    every free is already after the launch. A buffer no launch uses once
    the kernels are mapped (an intermediate a row kernel keeps on chip) is
    erased with its frees.

    The flat mapping: the kernel's iteration space is flattened; thread
    `t = blockIdx.x * blockDim.x + threadIdx.x` (index, 64 bits on the
    device, so more than 2^31 elements are fine) computes the
    `vector-width` elements from `t * vector-width`, delinearized into the
    loop indices where needed. When every access is contiguous (identity
    maps, no broadcast), a thread that has all its elements reads and
    writes them with one vector access per operand (`vector<4xf32>`,
    alignment 16: a 128-bit `ld.global.v4`); otherwise, and for the last
    partial vector, element by element up to the end (the masked tail). The
    grid is `max(ceil(n / (block-size * vector-width)), 1)` blocks, computed
    at launch from the actual sizes, so one kernel serves every length. The
    alignment is a promise the allocations keep: kfuse's buffers are
    16-byte aligned or better (cudaMalloc gives 256). The ops of a
    multi-output kernel run one after the other in the same thread; a value
    one stores and the next reads at the same element is passed in a
register. A flat kernel that reads an operand with its last two loops
    swapped (a transpose) moves 32 x 32 tiles through shared memory
    instead, so both sides are coalesced. Row, grid-reduction, row-chain
    and matmul kernels: see docs/ARCHITECTURE.md. Every kernel is one
    launch.

    The mechanism (checks, tickets, the kernels that lost their reduction,
    unused buffers) is shared with kf-map-kernels-to-host
    (passes/launch/KernelsToLaunches.h); this pass hands it the GPU's
    emitters, on CUDA blocks of `block-size` threads. A matmul kernel is
    emitted as the variant kf-assign-kernel-mappings recorded (refused
    without one).

    Upstream's `convert-parallel-loops-to-gpu` launches one thread per block
    unless the loops are tiled first, and loses the kernel's name; this pass
    writes the launch directly instead.

    Before:
    ```mlir
    kf.kernel "pointwise_add_0" kind pointwise mapping flat {
      linalg.generic {...} ins(%a, %b : memref<?xf32>, memref<?xf32>)
          outs(%c : memref<?xf32>) {...}
    }
    ```
    After:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %grid, ...) threads(%tx, %ty, %tz)
        in (%sx = %c256, ...) module(@kfuse_kernels) function(@pointwise_add_0) {
      %i = ... %bx * 256 + %tx
      scf.if %i < %n { ... memref.load, body, memref.store ... }
      gpu.terminator
    }
    ```
  }];
  let statistics = [
    Statistic<"numFlat", "flat-kernels", "Kernels launched flat">,
    Statistic<"numRow", "row-kernels", "Kernels launched a block per row">,
    Statistic<"numGridReduction", "grid-reduction-kernels",
              "Full reductions launched as one grid (the last block combines)">,
    Statistic<"numRowChain", "row-chain-kernels",
              "Row kernels with a final reduction by the last block">,
    Statistic<"numMatmul", "matmul-kernels", "Kernels launched as matmul tiles">,
    Statistic<"numSerial", "serial-kernels",
              "Kernels launched as one serial thread (host runtime)">,
    Statistic<"numAttention", "attention-kernels",
              "Attention kernels launched a block per tile of query rows">,
    Statistic<"numMultiReduction", "multi-reduction-kernels",
              "Reductions over rows and columns of one tensor in one pass">,
    Statistic<"numScan", "scan-kernels", "Prefix scans launched a thread a line">,
  ];
  let options = [
    Option<"blockSize", "block-size", "unsigned", "256", "threads per block">,
    Option<"vectorWidth", "vector-width", "unsigned", "4",
           "elements per thread, read as one vector (1: no vectors)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KfMapKernelsToHost : Pass<"kf-map-kernels-to-host", "mlir::ModuleOp"> {
  let summary = "Replace each bufferized kf.kernel by its launch on the host runtime's cores";
  let description = [{
    The host runtime's counterpart of kf-map-kernels-to-gpu, with the same
    mechanism (passes/launch/KernelsToLaunches.h): the same kernels, names
    and launches, so the report, the profiler and kernels.json read alike
    on both, but each kernel built for a CPU core a block
    (passes/host/mappings/HostMappings.h): one thread a block, blocks sized for the
    caches and vector code in them (pointwise chunks of 16384 elements,
    transposes in tiles, rows several a block, full reductions in
    contiguous chunks combined in block order, matmuls register-tiled with
    packed panels). What the vector mappings do not serve runs the
    emitters written for both targets on blocks of one thread
    (HostLaunchTarget: no barriers, shuffles or workgroup memory): a row
    kernel's form through memory, a row chain, the reference matmul.
    Kernels no mapping serves (`serial`) run on one thread.

    Before:
    ```mlir
    kf.kernel "pointwise_add_0" kind pointwise mapping flat {
      linalg.generic {...} ins(%a, %b : memref<?xf32>, memref<?xf32>)
          outs(%c : memref<?xf32>) {...}
    }
    ```
    After:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %chunks, ...) threads(%tx, %ty, %tz)
        in (%sx = %c1, ...) module(@kfuse_kernels) function(@pointwise_add_0) {
      scf.for %i = %begin to %end step %c8 {
        vector.load ... arith.addf ... vector.store
      }
      ... the scalar tail ...
      gpu.terminator
    }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "the width of the CPU's vector registers: 256 (AVX2), or 512 where it has "
           "AVX-512 (kfuse-compile sets it from the CPU it compiles for); the matmul's "
           "register tile is 6 x 16 f32 in ymm or 6 x 32 in zmm">,
  ];
  let statistics = [
    Statistic<"numFlat", "flat-kernels", "Kernels launched flat">,
    Statistic<"numRow", "row-kernels", "Kernels launched rows a block">,
    Statistic<"numGridReduction", "grid-reduction-kernels",
              "Full reductions launched as one grid (the last block combines)">,
    Statistic<"numRowChain", "row-chain-kernels",
              "Row kernels with a final reduction by the last block">,
    Statistic<"numMatmul", "matmul-kernels", "Kernels launched as matmul tiles">,
    Statistic<"numSerial", "serial-kernels", "Kernels launched as one serial thread">,
    Statistic<"numAttention", "attention-kernels",
              "Attention kernels launched a tile of query rows a block">,
    Statistic<"numMultiReduction", "multi-reduction-kernels",
              "Reductions over rows and columns of one tensor in one pass">,
    Statistic<"numScan", "scan-kernels", "Prefix scans launched a thread a line">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KfDeviceBuffers : Pass<"kf-device-buffers", "mlir::ModuleOp"> {
  let summary = "Allocate, copy and free the host code's buffers on the device";
  let description = [{
    Runs after the kernels are launches: outside them, `memref.alloc`,
    `memref.dealloc` and `memref.copy` become `gpu.alloc`, `gpu.dealloc` and
    `gpu.memcpy` (which gpu-to-llvm lowers to the runtime's mgpuMemAlloc,
    mgpuMemFree and mgpuMemcpy), and a constant global gets a device copy
    for the call. Host code that would read or write a buffer element is
    refused: on a GPU that memory is not the host's.

    Before:
    ```mlir
    %c = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    gpu.launch_func @kfuse_kernels::@pointwise_add_0 ... args(%a, %b, %c ...)
    ```
    After:
    ```mlir
    %c = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @kfuse_kernels::@pointwise_add_0 ... args(%a, %b, %c ...)
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def KfMarkReadOnlyArgs : Pass<"kf-mark-read-only-args", "mlir::ModuleOp"> {
  let summary = "Mark the kernel arguments only read (and never aliased by an output) readonly and noalias, for ld.global.nc";
  let description = [{
    NVPTX reads through the read-only data cache (`ld.global.nc`) from a
    kernel parameter that is `readonly` and `noalias`. MLIR's lowering of a
    gpu.func copies `llvm.readonly` from a memref argument to its
    descriptor's pointers but drops `llvm.noalias`, so the pass runs twice.
    Before convert-gpu-to-nvvm (the module, with the host's launches): a
    kernel's memref argument gets `llvm.readonly` when the kernel never
    writes it (through any view) and, at every launch, every buffer the
    kernel writes is a fresh allocation (memref.alloc, gpu.alloc) other than
    the argument's own buffer; the kernel gets `kfuse.read_only_args`. With
    `lowered`, after convert-gpu-to-nvvm: those kernels' `llvm.readonly`
    pointers get `llvm.noalias` too.

    Before:
    ```mlir
    %c = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @kfuse_kernels::@pointwise_add_0 ... args(%a : memref<?xf32>, %c : memref<?xf32>)
    gpu.func @pointwise_add_0(%arg0: memref<?xf32>, %arg1: memref<?xf32>) kernel
    ```
    After:
    ```mlir
    gpu.func @pointwise_add_0(%arg0: memref<?xf32> {llvm.readonly}, %arg1: memref<?xf32>)
        kernel attributes {kfuse.read_only_args}
    // and after convert-gpu-to-nvvm and kf-mark-read-only-args{lowered}:
    llvm.func @pointwise_add_0(%arg0: !llvm.ptr {llvm.noalias, llvm.readonly},
        %arg1: !llvm.ptr {llvm.noalias, llvm.readonly}, ...)
    ```
  }];
  let options = [
    Option<"lowered", "lowered", "bool", "false",
           "after convert-gpu-to-nvvm: add llvm.noalias to the marked kernels' readonly pointers">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KfContractFloatOps : Pass<"kf-contract-float-ops", "mlir::ModuleOp"> {
  let summary = "Let the GPU kernels' float multiplies and adds contract to FMA, as nvcc does";
  let description = [{
    PyTorch's CUDA kernels are compiled with nvcc's default `--fmad=true`:
    `a * b + c` becomes one `fma.rn`. Every `arith.mulf`, `arith.addf`,
    `arith.subf` and `arith.divf` (a division by a power of two becomes a
    multiply) inside a `gpu.module` gets the `contract` fast-math flag
    (nothing else: no reassociation, no approximate functions), which
    NVPTX turns into `fma.rn.f32` where a multiply feeds an add (and an
    add without `.rn`, which ptxas may fuse too). Host code and the CPU
    pipelines are untouched: they never run this pass.

    Before:
    ```mlir
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %c : f32
    ```
    After:
    ```mlir
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %p, %c fastmath<contract> : f32
    ```
  }];
}

def KfKernelRegisterBudget : Pass<"kf-kernel-register-budget", "mlir::ModuleOp"> {
  let summary = "Let ptxas give each GPU kernel the registers its block size allows";
  let description = [{
    Without a hint, ptxas trades registers for an occupancy it picks itself:
    a 256-thread matmul tile that needs 89 registers gets 64 and spills
    (`ptxas -v`: "4 bytes spill stores"). kfuse's mappings choose each
    kernel's block size and work per thread on purpose, so every kernel
    (a `gpu.func` with `known_block_size`, which becomes `.maxntid`) gets
    `nvvm.minctasm = 1` (`.minnctapersm 1`): ptxas may then use up to
    65536 / threads-per-block registers (at most 255) before it spills.
    Kernels that need few registers still get few; only the spill
    heuristic changes.

    Before:
    ```mlir
    gpu.func @matmul_0(...) kernel attributes {known_block_size = array<i32: 16, 16, 1>}
    ```
    After:
    ```mlir
    gpu.func @matmul_0(...) kernel attributes {known_block_size = array<i32: 16, 16, 1>,
                                               nvvm.minctasm = 1 : i32}
    ```
  }];
}

def KfHostKernels : Pass<"kf-host-kernels", "mlir::ModuleOp"> {
  let summary = "Turn each outlined gpu.func into a host function that runs one block";
  let description = [{
    For the CPU runtime: the kernels of a `gpu.module` become host functions
    `__kfuse_host_<module>_<kernel>` taking the kernel's arguments, then
    the grid size, block size and block id (x, y, z each); the block's
    threads run as loops (x innermost). The module becomes a `gpu.binary`
    whose object reads `KFUSE-HOST-MODULE:<prefix>`, so that the host code's
    gpu.launch_func still goes through mgpuModuleLoad and mgpuLaunchKernel,
    and the kfuse runtime runs each block on a worker thread. Kernels whose
    threads synchronize (barriers, shuffles, shared memory) are refused.

    Before:
    ```mlir
    gpu.module @kfuse_kernels {
      gpu.func @pointwise_add_0(%a: memref<?xf32>, ...) kernel {
        %tx = gpu.thread_id x
        ...
        gpu.return
      }
    }
    ```
    After:
    ```mlir
    func.func @__kfuse_host_kfuse_kernels_pointwise_add_0(%a: memref<?xf32>,
        ..., %gx: index, ..., %bx: index, ..., %ix: index, ...) {
      scf.for %tz ... { scf.for %ty ... { scf.for %tx = %c0 to %bx ... {
        ...
      } } }
      return
    }
    gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "KFUSE-HOST-MODULE:...">]
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def KfHostKernelAbi : Pass<"kf-host-kernel-abi", "mlir::ModuleOp"> {
  let summary = "Give each host kernel the runtime's (params, geometry) entry point";
  let description = [{
    Runs on the LLVM dialect after kf-host-kernels and the host lowering.
    gpu-to-llvm passes a launch's arguments as an array of pointers, one per
    LLVM-level argument; the host kernel is renamed `<name>_block`
    (internal) and `void <name>(ptr params, ptr geometry)` loads each
    argument through its pointer and the nine launch sizes from
    `geometry`, then calls it.

    Before:
    ```mlir
    llvm.func @__kfuse_host_kfuse_kernels_k(%p: !llvm.ptr, ..., %iz: i64)
        attributes {kf.host_kernel = "k"}
    ```
    After:
    ```mlir
    llvm.func internal @__kfuse_host_kfuse_kernels_k_block(...)
    llvm.func @__kfuse_host_kfuse_kernels_k(%params: !llvm.ptr, %geometry: !llvm.ptr) {
      ... llvm.load ...
      llvm.call @__kfuse_host_kfuse_kernels_k_block(...)
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KfFloat64Reference : Pass<"kf-float64-reference", "mlir::ModuleOp"> {
  let summary = "The program in float64, with the scale of its working-precision error";
  let description = [{
    The reference that `kfuse-run --check` compares a run with. Every f16,
    bf16 and f32 tensor of each function (arguments, results, every op's
    value) becomes f64, so the program computes in float64; the roundings
    the program asks for stay: an explicit `kf.cast` to f16, bf16 or f32
    rounds to that dtype and widens back, an f32 constant keeps its f32
    value (rms_norm's default eps is its input dtype's). Composites are
    written out first (as `kf-decompose`), except softmax, log_softmax,
    argmax and argmin, whose scales need the whole op. Integer and bool
    tensors keep their dtype.

    With `bounds` (the default), each function also returns, after its
    values, one f64 tensor a result: the scale of the error the program
    makes in its working precision, element by element (running error
    analysis, passes/utils/ErrorRules.cpp). Each op adds its own rounding
    (`u |v|`, u the unit roundoff of its dtype; a few u for division and
    square roots, 8 ulps for transcendental functions; f16 and bf16 compute
    in f32 and round once) to its operands' scales carried through it,
    which add elementwise whatever their correlation; over the n terms of a
    sum or a matmul, roundings are taken as independent and add in
    quadrature (`u sqrt(n) (sqrt(sum x^2) + |sum x|)`; the worst case,
    `(n-1) u sum |x|`, grows sqrt(n) times faster and left the scales of
    deep programs useless), a matmul's from row and column norms (no
    matmul but the program's). softmax's scale is shift-invariant (the
    max's error cancels), so a one-hot row of large scores is exact. kfuse-run
    allows 8 times the scale (`kReach`); where an op may jump within that
    reach (a comparison, floor, a cast to an integer, argmax, a `where`
    whose condition may flip) the jump is added, and a pole (1/x, log,
    rsqrt) or an overflow within reach gives an infinite scale (such
    elements are not judged).

    Before:
    ```mlir
    func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %s = kf.add %x, %y : tensor<4xf32>, tensor<4xf32>
      return %s : tensor<4xf32>
    }
    ```
    After (`bounds`):
    ```mlir
    func.func @f(%x: tensor<4xf64>, %y: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
      %s = kf.add %x, %y : tensor<4xf64>, tensor<4xf64>
      %e = ... 2^-24 |%s| (+inf past f32's largest value, 0 where %s is infinite)
      return %s, %e : tensor<4xf64>, tensor<4xf64>
    }
    ```

    Refused, with the op's location: an op that is not a kf op (a
    hand-written `kf.kernel`, a call, control flow), since only straight-line
    kf programs have a reference.
  }];
  let options = [
    Option<"bounds", "bounds", "bool", "true",
           "also return each result's error scale (else: only the float64 values)">,
    Option<"tf32", "tf32", "bool", "false",
           "f32 matmuls run as TF32 (kfuse-compile --tf32): their scale allows it">,
  ];
  let dependentDialects = ["::kfuse::kf::KfDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KfPlantMutation : Pass<"kf-plant-mutation", "mlir::ModuleOp"> {
  let summary = "Test only: plant a known bug in the first kernel that has a place for it";
  let description = [{
    For the tests of `kfuse-run --check` (which must catch it): runs after
    kf-form-kernels and changes one `linalg.generic` inside a `kf.kernel`
    of each function, the first in program order that has a place for the
    chosen `kind`:

    - `off-by-one`: an input read along a parallel dim of static size
      n >= 2 reads the next element, `(d + 1) mod n`, instead of `d`;
    - `drop-term`: an elementwise float `arith.addf` yields its first
      operand (the second term is dropped);
    - `f16-accumulator`: a float sum (`out = addf(out, term)` over a
      reduction dim) rounds its running sum to f16 at every step.

    kfuse-compile plants it in the fused version only (`--plant-mutation`,
    a hidden option), so that the unfused run stays right. A function with
    no such place is refused, so that a test cannot pass vacuously.
  }];
  let options = [
    Option<"kind", "kind", "std::string", "\"\"",
           "off-by-one, drop-term or f16-accumulator">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def KfSplitDeallocs : Pass<"kf-split-deallocs"> {
  let summary = "Split a dealloc of distinct allocations into one dealloc each";
  let description = [{
    Runs between ownership-based-buffer-deallocation and
    buffer-deallocation-simplification (kfuse's deallocation passes,
    addDeallocationPasses). Ownership-based deallocation frees a block's
    buffers at its end with one `bufferization.dealloc` of all of them, and
    the simplification asks for every pair of them whether they may alias:
    quadratic in the number of kernels of a program. A dealloc whose
    memrefs are each the result of their own `memref.alloc` (listed once)
    frees distinct allocations, which cannot alias: it becomes one dealloc
    per memref, each with the same retained list, the retained values'
    updated conditions or-ed (what the simplification's split would give).
    Any other dealloc is left as it is.

    Before:
    ```mlir
    %0 = bufferization.dealloc (%a, %b : memref<8xf32>, memref<8xf32>)
           if (%true, %true) retain (%r : memref<8xf32>)
    ```
    After:
    ```mlir
    %0 = bufferization.dealloc (%a : memref<8xf32>) if (%true) retain (%r : memref<8xf32>)
    %1 = bufferization.dealloc (%b : memref<8xf32>) if (%true) retain (%r : memref<8xf32>)
    %2 = arith.ori %0, %1 : i1
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def KfOrderConstantGlobals : Pass<"kf-order-constant-globals", "mlir::ModuleOp"> {
  let summary = "Order bufferization's constant memref.globals by name";
  let description = [{
    Runs right after every one-shot bufferization of a module. Upstream's
    module bufferization visits functions that do not call one another in
    an order that depends on pointer values, and creates the
    `memref.global` of each tensor constant at the start of the module as
    it meets it: the same program came out with its constants in another
    order from one run to the next, and so did its LLVM IR and objects. The
    module's private constant memref.globals are put in order of their
    names (each is unique), where the first of them was; nothing else moves.

    Before (in either order):
    ```mlir
    memref.global "private" constant @__constant_8xi64 : memref<8xi64> = dense<...>
    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<...>
    ```
    After:
    ```mlir
    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<...>
    memref.global "private" constant @__constant_8xi64 : memref<8xi64> = dense<...>
    ```
  }];
}

def KfSinkLaunchConstants : Pass<"kf-sink-launch-constants"> {
  let summary = "Clone the constants a gpu.launch uses into its body";
  let description = [{
    Runs in the Gpu stage before upstream's
    gpu-launch-sink-index-computations, which sinks constants as well but
    walks all uses of a value for each launch that reads it: a constant
    shared by N launches costs N^2. Here each launch walks its own body:
    every constant-like op defined outside the launch and used inside is
    cloned once into the body's entry block and the body's uses read the
    clone. The original stays for its other users (canonicalization erases
    it when none is left).

    Before:
    ```mlir
    %zero = arith.constant 0.0 : f32
    gpu.launch ... {
      %r = arith.maximumf %x, %zero : f32
      ...
    }
    ```
    After:
    ```mlir
    %zero = arith.constant 0.0 : f32
    gpu.launch ... {
      %zero_0 = arith.constant 0.0 : f32
      %r = arith.maximumf %x, %zero_0 : f32
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def KfShareKernelCode : Pass<"kf-share-kernel-code", "::mlir::ModuleOp"> {
  let summary = "Kernels of the same code become one gpu.func";
  let description = [{
    Runs before a gpu.module is compiled (PTX, or kf-host-kernels' host
    functions). Kernels whose signature, attributes and bodies are the same
    (locations aside) keep one gpu.func, the first; the launches of the
    others launch it and keep their own kernel's name in `kf.launch_name`,
    which kf-alias-shared-kernels gives back after compilation. An eager
    program of 1,000 ops outlines some 3,400 kernels of about ten distinct
    bodies: each is now compiled once.

    Before:
    ```mlir
    gpu.module @kfuse_kernels {
      gpu.func @relu_0(%a: memref<4xf32>, %b: memref<4xf32>) kernel { ... }
      gpu.func @relu_1(%a: memref<4xf32>, %b: memref<4xf32>) kernel { ... }
    }
    gpu.launch_func @kfuse_kernels::@relu_0 ... args(%x, %y)
    gpu.launch_func @kfuse_kernels::@relu_1 ... args(%y, %z)
    ```
    After (the bodies were the same):
    ```mlir
    gpu.module @kfuse_kernels {
      gpu.func @relu_0(%a: memref<4xf32>, %b: memref<4xf32>) kernel { ... }
    }
    gpu.launch_func @kfuse_kernels::@relu_0 ... args(%x, %y)
    gpu.launch_func @kfuse_kernels::@relu_0 ... args(%y, %z) {kf.launch_name = "relu_1"}
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::kfuse::kf::KfDialect"];
}

def KfAliasSharedKernels : Pass<"kf-alias-shared-kernels", "::mlir::ModuleOp"> {
  let summary = "Launches of shared kernels get their own names back, as aliases";
  let description = [{
    Runs once the gpu.module is a gpu.binary (after gpu-module-to-binary,
    or kf-host-kernels on the host runtime). Each launch that
    kf-share-kernel-code pointed at another kernel's code launches its own
    name again, and the binary's object (PTX, or the host runtime's text)
    starts with a line `// kfuse-kernel-alias NAME KERNEL` for it: the
    runtime loads NAME as KERNEL's code, so that every launch is timed and
    reported under the name kernels.json gives it. Refuses an object that
    is not text (a cubin cannot carry the lines).

    Before:
    ```mlir
    gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, assembly = "...ptx...">]
    gpu.launch_func @kfuse_kernels::@relu_0 ... args(%y, %z) {kf.launch_name = "relu_1"}
    ```
    After:
    ```mlir
    gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, assembly =
        "// kfuse-kernel-alias relu_1 relu_0\0A...ptx...">]
    gpu.launch_func @kfuse_kernels::@relu_1 ... args(%y, %z)
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::kfuse::kf::KfDialect"];
}

#endif // KFUSE_PASSES_TD
