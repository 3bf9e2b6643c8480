//===- TestPasses.td - kfuse passes for tests only ------------*- tablegen -*-===//
//
// Passes that run no compilation: they let the suite execute what the
// compiler makes where there is no GPU. Linked into kfuse-opt only.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TEST_PASSES_TD
#define KFUSE_TEST_PASSES_TD

include "mlir/Pass/PassBase.td"

def KfEmulateGpuLaunches : Pass<"kf-emulate-gpu-launches"> {
  let summary = "Run each gpu.launch as loops on the host (tests without a GPU)";
  let description = [{
    Replaces every `gpu.launch` by host loops over its blocks and threads
    that compute what the GPU computes, so that the GPU mappings' index
    math, vector accesses, masked tails, shuffles and barriers run on the
    CPU and can be checked against the CPU pipeline. Threads that never
    synchronize run one after the other. In a launch whose threads
    synchronize (gpu.barrier, gpu.shuffle xor or idx, workgroup memory),
    the code between two synchronizations runs for every thread of a block
    in turn (loop fission, as MCUDA and POCL do): values living across a
    synchronization are kept per thread in arrays, a shuffle reads lane
    `t xor offset`'s slot (idx: lane `offset` of t's warp), a branch
    holding one is taken per thread through a mask, and a loop holding one runs once for the block (its bounds must
    be the same in every thread; its iterations are in lockstep, so a
    missing barrier at the end of a loop body goes unnoticed). Not part of
    any compilation pipeline: kf-gpu-emulation-pipeline uses it for tests.
    Blocks run one after the other, in order or (`reverse-blocks`, used by
    kf-gpu-emulation-reversed-pipeline) from the last; atomics
    (memref.atomic_rmw) and fences run as the host's, so a kernel whose
    last block to take a ticket finishes the work is run with either block
    last.

    Before:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      ... %bx ... %tx ...
      gpu.terminator
    }
    ```
    After:
    ```mlir
    scf.for %bx = %c0 to %g step %c1 {
      scf.for %tx = %c0 to %c256 step %c1 {
        ... %bx ... %tx ...
      }
    }
    ```
  }];
  let options = [
    Option<"reverseBlocks", "reverse-blocks", "bool", "false",
           "run the blocks from the last to the first: blocks of a GPU "
           "launch run in any order, and a kernel whose last block finishes "
           "the others' work (an atomic ticket) must not depend on which "
           "block that is">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def KfExpandWarpMatrixOps : Pass<"kf-expand-warp-matrix-ops"> {
  let summary = "Rewrite nvgpu's warp-level ops as per-lane code (tests without a GPU)";
  let description = [{
    The emulation runs threads, not warps. In each gpu.launch, this
    rewrites nvgpu.ldmatrix, nvgpu.mma.sync (m16n8k16, f16 or bf16 with
    f32 accumulators) and nvgpu.device_async_copy / create_group / wait
    into what each lane computes: the lanes exchange row addresses and
    fragments through gpu.shuffle idx, following the PTX ISA's fragment
    layouts exactly, then load, multiply and add as scalars. A run through
    kf-emulate-gpu-launches then checks the tensor-core kernel's data
    movement and fragment layouts. cp.async becomes a plain copy
    (zero-filled past its src-size); the order of its groups is not
    checked. Used by kf-gpu-emulation-sm80-pipeline.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // KFUSE_TEST_PASSES_TD
