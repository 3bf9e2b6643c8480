//===- KfAttrs.td - the kernel contract's attributes -------*- tablegen -*-===//
//
// What the passes tell each other about a kernel, typed: its kind (from
// kernel formation), its GPU mapping (decided once, on tensors), and the
// boundaries between kernels with their reasons (read by the report).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_KF_ATTRS_TD
#define KFUSE_KF_ATTRS_TD

include "dialect/Kf/KfDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// What a kernel computes; decides the mappings that can serve it.
def Kf_KernelKind : I32EnumAttr<"KernelKind", "what a kernel computes", [
  I32EnumAttrCase<"Pointwise", 0, "pointwise">,
  I32EnumAttrCase<"Reduction", 1, "reduction">,
  I32EnumAttrCase<"Matmul", 2, "matmul">,
  I32EnumAttrCase<"Transpose", 3, "transpose">,
  // softmax(q @ k^T, scaled, masked) @ v: the scores never leave the chip.
  I32EnumAttrCase<"Attention", 4, "attention">,
]> {
  let cppNamespace = "::kfuse::kf";
}

// How a kernel runs on the GPU (and, with one thread a block, on the host
// runtime): decided once on tensors, read by the pattern that builds the
// kernel's launch.
def Kf_KernelMapping : I32EnumAttr<"KernelMapping", "how a kernel is launched", [
  // The iteration space flattened, `vector-width` elements a thread.
  I32EnumAttrCase<"Flat", 0, "flat">,
  // A block per row of its reductions, threads striding over the columns.
  I32EnumAttrCase<"Row", 1, "row">,
  // A full reduction in one launch: blocks stride over the tensor, each
  // writes its partial; the last block to finish (an atomic ticket)
  // combines them and runs the ops after the reduction.
  I32EnumAttrCase<"GridReduction", 2, "grid_reduction">,
  // A 16x16 tile of the result a block, operands staged in shared memory.
  I32EnumAttrCase<"Matmul", 3, "matmul">,
  // One launch of one thread (host runtime only: no mapping serves it).
  I32EnumAttrCase<"Serial", 4, "serial">,
  // A block per row of its row reductions, then the last block to finish
  // (an atomic ticket) runs a final reduction over all the rows' results
  // and the ops over its (one) value: `x.sum(1).sum(0)`.
  I32EnumAttrCase<"RowChain", 5, "row_chain">,
  // A block per tile of query rows of one batch: the scores of a tile of
  // keys at a time, an online softmax over them, the tile's values
  // accumulated; the score matrix is never written (FlashAttention).
  I32EnumAttrCase<"Attention", 6, "attention">,
  // Reductions of one tensor over its trailing dims (rows) and over its
  // leading dims (columns) in one pass: a block per band of rows combines
  // each row's values and keeps a partial of each column; the last block
  // to finish (an atomic ticket) combines the columns' partials.
  I32EnumAttrCase<"MultiReduction", 7, "multi_reduction">,
  // A prefix scan (kf.cumsum) alone: a thread per line along the scanned
  // dim, which it walks once, in order, with a running sum.
  I32EnumAttrCase<"Scan", 8, "scan">,
]> {
  let cppNamespace = "::kfuse::kf";
}

// Which design of its mapping a kernel runs, where a mapping has several:
// chosen with the mapping, on tensors, from the typed GPU target
// (kf-assign-kernel-mappings); the emitters build what it names and choose
// nothing. The GPU's matmul and row kernels have variants (the host
// runtime runs its own matmul, HostMatmul.cpp, and its rows one thread a
// row: it records none).
def Kf_KernelVariant : I32EnumAttr<"KernelVariant", "which design of its mapping a kernel runs", [
  // mma.sync.m16n8k16 (f16, bf16; TF32 with --tf32) fed by ldmatrix and
  // cp.async: a chip from sm_80 (MatmulTensorCore.cpp).
  I32EnumAttrCase<"TensorCore", 0, "tensor_core">,
  // A 64x64 block tile, 4x4 outputs a thread in registers (MatmulSimt.cpp).
  I32EnumAttrCase<"Simt", 1, "simt">,
  // The 16x16 shared-memory tile, one output a thread (MatmulReference.cpp).
  I32EnumAttrCase<"Reference", 2, "reference">,
  // A row kernel (row, row_chain) whose row stays on chip: each op's values
  // in registers, or recomputed from the inputs a pass over a row too long
  // for them (RowOnChip.h); only the kernel's results reach memory.
  I32EnumAttrCase<"OnChip", 3, "on_chip">,
  // A row kernel whose ops hand their values on through global memory, a
  // barrier after each op (RowKernels.cpp): where the ops read each other
  // in a way the on-chip form does not follow (a row value read at another
  // row, through a view it cannot index).
  I32EnumAttrCase<"ThroughMemory", 4, "through_memory">,
  // Hopper's warpgroup MMA (wgmma.mma_async) fed by the Tensor Memory
  // Accelerator through mbarriers: f16 and bf16 on sm_90a
  // (MatmulWgmma.cpp).
  I32EnumAttrCase<"Wgmma", 5, "wgmma">,
]> {
  let cppNamespace = "::kfuse::kf";
}

// Why two kernels stay apart (or that they did not: fused, recomputed).
def Kf_BoundaryReason : I32EnumAttr<"BoundaryReason", "why kernels stay apart", [
  I32EnumAttrCase<"Fused", 0, "fused">,
  I32EnumAttrCase<"Recomputed", 1, "recomputed">,
  I32EnumAttrCase<"FusionOff", 2, "fusion_off">,
  I32EnumAttrCase<"RuleDisabled", 3, "rule_disabled">,
  I32EnumAttrCase<"ProducerReduction", 4, "producer_reduction">,
  I32EnumAttrCase<"DuplicateReduction", 5, "duplicate_reduction">,
  I32EnumAttrCase<"ReductionMismatch", 6, "reduction_mismatch">,
  I32EnumAttrCase<"MatmulBoundary", 7, "matmul_boundary">,
  // Read at other elements (a broadcast, a view) while it has other readers.
  I32EnumAttrCase<"NotInPlace", 8, "not_in_place">,
  I32EnumAttrCase<"Reshape", 9, "reshape">,
  I32EnumAttrCase<"OpLimit", 10, "op_limit">,
  I32EnumAttrCase<"Cycle", 11, "cycle">,
  I32EnumAttrCase<"AnchorConflict", 12, "anchor_conflict">,
  I32EnumAttrCase<"RowMismatch", 13, "row_mismatch">,
  I32EnumAttrCase<"OtherRow", 14, "other_row">,
  // kf.contiguous writes its value to memory: its readers read it there.
  I32EnumAttrCase<"Materialize", 15, "materialize">,
  // The fused kernel would be one no GPU mapping serves: its ops were kept
  // apart (kf-form-kernels checks every kernel it forms).
  I32EnumAttrCase<"Unmappable", 16, "unmappable">,
  // The consumer gathers the producer's elements at indices it loads (an
  // embedding's table): all of them must be in memory before it starts.
  I32EnumAttrCase<"Gathered", 17, "gathered">,
]> {
  let cppNamespace = "::kfuse::kf";
  let genSpecializedAttr = 0; // only a parameter of #kf.boundary
}

def Kf_BoundaryAttr : AttrDef<Kf_Dialect, "Boundary"> {
  let mnemonic = "boundary";
  let summary = "a boundary between two kernels and why it is there";
  let description = [{
    Recorded by kf-form-kernels (in `kf.boundaries` on the function) for
    each producer/consumer pair left in different kernels; the report reads
    it back.

    ```mlir
    #kf.boundary<producer = "pointwise_add_0", producer_op = "add",
                 consumer = "pointwise_relu_1", consumer_op = "relu",
                 reason = fusion_off, detail = "fusion is off (eager boundaries)">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the producing kernel">:$producer,
    StringRefParameter<"the producer's op">:$producer_op,
    StringRefParameter<"the consuming kernel">:$consumer,
    StringRefParameter<"the consumer's op">:$consumer_op,
    EnumParameter<Kf_BoundaryReason>:$reason,
    StringRefParameter<"the reason in words", "\"\"">:$detail
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// The tiles of a tensor-core matmul kernel: the strategy chosen once, on
// tensors, from the problem's sizes and the typed GPU target
// (kf-assign-kernel-mappings, MatmulTiles.cpp), read by the emitter, which
// chooses nothing (IREE's lowering_config).
def Kf_MatmulTilesAttr : AttrDef<Kf_Dialect, "MatmulTiles"> {
  let mnemonic = "matmul_tiles";
  let summary = "the block tile, warps, pipeline stages and block order of a tensor-core matmul";
  let description = [{
    A block computes an `m` x `n` tile of the result, stepping along K by
    `k`; its `warps_m` x `warps_n` warps each own an `m / warps_m` x
    `n / warps_n` part of it in registers (mma.sync fragments); `stages`
    steps of both operands are in flight in shared memory (cp.async); the
    blocks run in groups of `group_m` rows of tiles, column after column
    inside a group, so that the tiles running together share operands in
    L2 (1: row after row).

    ```mlir
    #kf.matmul_tiles<m = 128, n = 128, k = 32, warps_m = 2, warps_n = 2, stages = 3, group_m = 8>
    ```

    What a kernel can be built with (checked here; the shared memory a
    chip gives a block is checked where the chip is known): a warp's part
    a multiple of 16 x 16 with at most 128 f32 accumulators a thread, `k`
    a multiple of 16, every thread copying the same number of 16-byte
    chunks of each operand, at most 1024 threads, 2 to 8 stages, `group_m`
    from 1 to 64.
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k, "int64_t":$warps_m,
                        "int64_t":$warps_n, "int64_t":$stages, "int64_t":$group_m);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t threads() const { return 32 * getWarpsM() * getWarpsN(); }
    int64_t warpM() const { return getM() / getWarpsM(); }
    int64_t warpN() const { return getN() / getWarpsN(); }
    /// The bytes of shared memory its stages take for operands of
    /// `elementBits` (each operand's stage holds either layout, rows padded
    /// by 16 bytes).
    int64_t sharedBytes(int64_t elementBits) const;
  }];
}

#endif // KFUSE_KF_ATTRS_TD
