// A full reduction is one launch, as the report counts it: blocks stride
// over the tensor and each writes its partial; after a fence, one thread of
// each block takes a ticket from a counter (an atomic add); the block that
// takes the last ticket (gridDim - 1) fences again, combines the partials
// in block order, runs the ops after the reduction and resets the counter
// to 0 for the next launch (CUDA's threadFenceReduction sample). The
// counter is a memref.global of one i32 in the module (a PTX .global): no
// allocation, no argument.
//
// The launch: one gpu.launch_func, no `_partials` kernel.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: memref.global "private" @reduction_mean_add_0_ticket : memref<1xi32> = dense<0>
// LAUNCH-LABEL: func.func @mean_plus_itself
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@reduction_mean_add_0 blocks
// LAUNCH-NOT: gpu.launch_func
// LAUNCH-LABEL: gpu.func @reduction_mean_add_0(
// The block's partial, then the ticket: a barrier (the block's writes are
// done), thread 0 fences, adds 1, fences; the answer goes to every thread
// through workgroup memory.
// LAUNCH: gpu.barrier
// LAUNCH: %[[CTR:.*]] = memref.get_global @reduction_mean_add_0_ticket : memref<1xi32>
// LAUNCH-NEXT: llvm.fence syncscope("device") acq_rel
// LAUNCH-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// LAUNCH-NEXT: %[[OLD:.*]] = memref.atomic_rmw addi %[[ONE]], %[[CTR]][%{{.*}}] : (i32, memref<1xi32>) -> i32
// LAUNCH-NEXT: llvm.fence syncscope("device") acq_rel
// LAUNCH: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %{{.*}} : i32
// LAUNCH-NEXT: scf.if %[[LAST]] {
// LAUNCH-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// LAUNCH-NEXT: memref.store %[[ZERO]], %[[CTR]][%{{.*}}] : memref<1xi32>
// LAUNCH: gpu.barrier
// LAUNCH: scf.if
// The last block: the partials, then the mean's division and the add.
// LAUNCH: arith.divf
// LAUNCH: arith.addf
// LAUNCH: gpu.return
//
// In PTX, one entry a kernel, the counter a .global, the fences around the
// atomic add, the reset.
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .global .align 4 .b8 reduction_mean_add_0_ticket[4];
// PTX-NOT: _partials
// PTX-LABEL: .entry reduction_mean_add_0(
// PTX: fence.acq_rel.gpu;
// PTX-NEXT: atom.global.add.u32 {{.*}}, [reduction_mean_add_0_ticket], 1;
// PTX-NEXT: fence.acq_rel.gpu;
// PTX: st.global.b32 [reduction_mean_add_0_ticket], 0;
// PTX-LABEL: .entry reduction_exp_sum_1(
// PTX-LABEL: .entry reduction_max_2(
// PTX-NOT: _partials
//
// Executed (kf-emulate-gpu-launches runs atomics and fences as the host's)
// with the blocks in order and from the last (a GPU runs them in any
// order: the last block to finish differs), at two block sizes, against
// the CPU pipeline. 100000 elements are ceil(100000 / (4 * 256)) = 98
// blocks of 256 threads, or 391 blocks of 64.
// The partials combine in a tree, not left to right (tolerance 1e-5).
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-reversed-pipeline=block-size=64 %s
//
// The host runtime (one thread a block, blocks on the cores, a real atomic
// counter): against numpy, three calls in a row (the counter is reset for
// each), and against the unfused program on the CPU. Eager: the mean (its
// division belongs to it) and the add, 2 kernels; fused 1, one launch.
// RUN: %run-check %s --input "arg0=f32[100000]" --expect "np.float32(2) * arg0.mean(dtype=np.float64).astype(np.float32)" \
// RUN:   -- --entry=mean_plus_itself --device=cpu --repeat=3 --check | FileCheck %s --check-prefix=HOST
// HOST: kernels {{ *}}2 {{ *}}1
// HOST: first call: {{.*}}, 1 launch
// HOST: steady state: 3 calls, {{.*}}, 1 launch a call
// HOST: reduction_mean_add_0 {{ *}}3
// HOST: check against the CPU, unfused: {{.*}}: ok
// HOST: run_check: result0 float32[] matches numpy
// RUN: %run-check %s --input "arg0=f32[77777]" --expect "np.exp(arg0)" \
// RUN:   --expect "np.exp(arg0).sum(dtype=np.float64).astype(np.float32)" \
// RUN:   -- --entry=exp_and_its_sum --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-EXP
// HOST-EXP: run_check: result0 float32[77777] matches numpy
// HOST-EXP: run_check: result1 float32[] matches numpy

// DIMS: 100000
func.func @mean_plus_itself(%x: tensor<?xf32>) -> tensor<f32> {
  %m = kf.mean %x : tensor<?xf32>
  %t = kf.add %m, %m : tensor<f32>, tensor<f32>
  return %t : tensor<f32>
}
// A prologue written out as well as summed.
func.func @exp_and_its_sum(%x: tensor<77777xf32>) -> (tensor<77777xf32>, tensor<f32>) {
  %e = kf.exp %x : tensor<77777xf32>
  %s = kf.sum %e : tensor<77777xf32>
  return %e, %s : tensor<77777xf32>, tensor<f32>
}
// An integer max of a 2-D tensor (no rows: every loop reduced); 5 blocks.
func.func @int_max(%x: tensor<40x123xi32>) -> tensor<i32> {
  %m = kf.max %x : tensor<40x123xi32>
  return %m : tensor<i32>
}
