// The tensor-core matmul's strategy, #kf.matmul_tiles, chosen once on
// tensors by kf-assign-kernel-mappings (MatmulTiles.cpp's table, or the
// tiles `matmul-tiles` names) and built by the emitter as recorded.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=chip=sm_80 | FileCheck %s --check-prefix=TABLE
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_90 matmul-tiles=128x128x32/2x2/4/8" | FileCheck %s --check-prefix=USER
// Without tensor cores (sm_75: the SIMT kernel) there are no tiles.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_75 matmul-tiles=128x128x32/2x2/4/8" | FileCheck %s --check-prefix=SIMT
// Tiles that are no tiles are refused before the IR is touched, in the
// attribute's own words where the syntax is right.
// RUN: not kfuse-opt %s --kf-assign-kernel-mappings="chip=sm_80 matmul-tiles=128x128" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not kfuse-opt %s --kf-assign-kernel-mappings="chip=sm_80 matmul-tiles=128x128x32/1x1/3" 2>&1 | FileCheck %s --check-prefix=WORDS
// RUN: not kfuse-compile %s --emit=ptx --gpu-chip=sm_90 --matmul-tiles=64x64x32/2x2/9 -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPILE
// SYNTAX: error: kf-assign-kernel-mappings: matmul tiles '128x128' are not MxNxK/WMxWN/STAGES[/GROUP_M] (e.g. 128x128x32/2x2/3/8)
// WORDS: error: kf-assign-kernel-mappings: matmul tiles '128x128x32/1x1/3': matmul tiles: a warp's 128 x 128 part needs more than 128 accumulators a thread
// COMPILE: matmul tiles '64x64x32/2x2/9': matmul tiles: stages must be 2 to 8, got 9
// Four stages of 256 x 128 x 64 f16 tiles take 221184 bytes of shared
// memory: an sm_90 block has 227 KiB, an sm_86 one 99 KiB.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_90 matmul-tiles=256x128x64/4x2/4" | FileCheck %s --check-prefix=BIG
// RUN: not kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_86 matmul-tiles=256x128x64/4x2/4" 2>&1 | FileCheck %s --check-prefix=SMEM
// BIG: tiles <m = 256, n = 128, k = 64, warps_m = 4, warps_n = 2, stages = 4, group_m = 1>
// SMEM: cannot be mapped to the GPU yet: matmul tiles 256x128x64/4x2/4/1 take 221184 bytes of shared memory a block; sm_86 gives at most 101376
//
// The launch as the tiles say: 128 x 128 tiles of the 1000 x 1000 result
// (8 x 8 blocks), 2 x 2 warps (128 threads), four stages of 128 x (32 +
// 8) f16 for each operand: 4 x 2 x 5120 x 2 = 81920 bytes of dynamic
// shared memory; one barrier a step after waiting for all but the newest
// two copy groups, and all of them after the loop.
// RUN: kfuse-compile %s --emit=gpu --gpu-chip=sm_90 --matmul-tiles=128x128x32/2x2/4/8 -o - | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 --matmul-tiles=128x128x32/2x2/4/8 -o - | FileCheck %s --check-prefix=PTX
// The runtime opts the kernel in to its 80 KiB before the first launch
// (past 48 KiB a launch fails otherwise: the fake driver, like CUDA,
// refuses it), once.
// RUN: kfuse-compile %s --emit=lib --gpu-chip=sm_90 --matmul-tiles=128x128x32/2x2/4/8 -o %t.so
// RUN: rm -f %t.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.log kfuse-run %t.so \
// RUN:   --entry=square --device=cuda --warmup=1 --repeat=2 > /dev/null
// RUN: FileCheck %s --check-prefix=OPTIN < %t.log
// RUN: grep -c "cuFuncSetAttribute" %t.log | FileCheck %s --check-prefix=ONCE
// ONCE: {{^1$}}
// kernels.json records each tensor-core matmul's tiles (the table's, or
// the option's), null for the other kernels and variants.
// RUN: rm -rf %t.table %t.user %t.sm75
// RUN: kfuse-compile %s --gpu-chip=sm_80 --dump-dir=%t.table -o /dev/null
// RUN: kfuse-compile %s --gpu-chip=sm_90 --matmul-tiles=128x128x32/2x2/4/8 --dump-dir=%t.user -o /dev/null
// RUN: kfuse-compile %s --gpu-chip=sm_75 --dump-dir=%t.sm75 -o /dev/null
// RUN: %python -c "import json,sys; [print(k['name'], k['variant'], k['tiles']) for d in sys.argv[1:] for k in json.load(open(d + '/kernels.json'))['kernels']]" %t.table %t.user %t.sm75 | FileCheck %s --check-prefix=JSON
// RUN: %python %kfuse_src/test/harness/validate_json.py %kfuse_src/docs/reference/schemas/kernels.schema.json %t.user/kernels.json | FileCheck %s --check-prefix=VALID
// JSON: matmul_0 tensor_core 64x64x32/2x2/2/1
// JSON-NEXT: matmul_0 tensor_core 128x128x32/2x2/4/8
// JSON-NEXT: matmul_0 simt None
// VALID: valid: {{.*}}kernels.json
// A driver that refuses the opt-in (CUDA_ERROR_INVALID_VALUE): the error
// names the kernel, its bytes and the CUDA error; nothing is launched.
// RUN: not env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuFuncSetAttribute:1:1 \
// RUN:   kfuse-run %t.so --entry=square --device=cuda --warmup=0 --repeat=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED
// REFUSED: cuFuncSetAttribute failed for kernel 'matmul_0' (81920 bytes of dynamic shared memory): CUDA_ERROR_INVALID_VALUE

// TABLE-LABEL: func.func @square
// TABLE: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul variant tensor_core tiles <m = 64, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 2, group_m = 1>
// USER-LABEL: func.func @square
// USER: variant tensor_core tiles <m = 128, n = 128, k = 32, warps_m = 2, warps_n = 2, stages = 4, group_m = 8>
// SIMT-LABEL: func.func @square
// SIMT: variant simt ->
// LAUNCH-LABEL: func.func @square
// LAUNCH: %[[BYTES:.*]] = arith.constant 81920 : i32
// LAUNCH: gpu.launch_func {{.*}}@kfuse_kernels::@matmul_0 blocks in ({{.*}}) threads in (%c128{{[_0-9]*}}, %c1, %c1) dynamic_shared_memory_size %[[BYTES]]
// PTX-LABEL: .entry matmul_0(
// PTX: cp.async.cg.shared.global
// PTX: cp.async.wait_group 2;
// PTX: bar.sync 0;
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: cp.async.wait_group 0;
// OPTIN: cuFuncSetAttribute matmul_0 max_dynamic_shared_size_bytes 81920
// OPTIN: cuLaunchKernel matmul_0 grid=(8,8,1) block=(128,1,1) smem=81920
func.func @square(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>) -> tensor<1000x1000xf16> {
  %c = kf.matmul %a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>
  return %c : tensor<1000x1000xf16>
}
