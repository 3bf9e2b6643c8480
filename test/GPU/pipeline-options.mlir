// The named pipelines take the compiler's options (the fusion switches,
// the chip, the block size), checked once, where the pipeline is parsed:
// a bad value is refused with a message, before any pass runs, and never
// reaches the NVPTX backend (which would abort). kf-check-gpu-target, a pass
// that only re-checked the chip, is gone.
// RUN: kfuse-opt %s --kf-gpu-pipeline=chip=sm_90 | FileCheck %s
// RUN: not kfuse-opt %s --kf-gpu-pipeline=chip=sm_70 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not kfuse-opt %s --kf-gpu-pipeline=chip=sm_120 2>&1 | FileCheck %s --check-prefix=NEW
// RUN: not kfuse-opt %s --pass-pipeline='builtin.module(kf-gpu-pipeline{chip=sm_61})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TEXTUAL
// RUN: not kfuse-opt %s --kf-gpu-pipeline=block-size=100 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not kfuse-opt %s --kf-host-runtime-pipeline=block-size=2048 2>&1 | FileCheck %s --check-prefix=BLOCK2048
// RUN: not kfuse-opt %s --kf-gpu-emulation-pipeline=block-size=0 2>&1 | FileCheck %s --check-prefix=BLOCK0
// RUN: not kfuse-opt %s --kf-cpu-pipeline=max-ops=-1 2>&1 | FileCheck %s --check-prefix=MAXOPS
// RUN: not kfuse-opt %s --kf-gpu-pipeline=fusion=eager 2>&1 | FileCheck %s --check-prefix=EAGER
// The host runtime's vector registers are 256 or 512 bits (the matmul's
// register tile: ymm or zmm), nothing else, through the pipeline or the
// mapping pass:
// RUN: not kfuse-opt %s --kf-host-runtime-pipeline=vector-bits=128 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not kfuse-opt %s --kf-map-kernels-to-host=vector-bits=1024 2>&1 | FileCheck %s --check-prefix=PASSBITS
// RUN: kfuse-opt %s --kf-host-runtime-pipeline=vector-bits=512 | FileCheck %s
// The host runtime and the emulation emit no PTX: they take no chip.
// RUN: not kfuse-opt %s --kf-host-runtime-pipeline=chip=sm_90 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: not kfuse-opt %s --kf-gpu-emulation-pipeline=chip=sm_90 2>&1 | FileCheck %s --check-prefix=NOCHIP

// A supported chip compiles (the identity function: no kernel).
// CHECK: llvm.func @f
// sm_70 (Volta) is gone from CUDA 13; sm_120 is beyond PTX ISA 8.0. Both
// are refused with a message, not an abort in the NVPTX backend.
// OLD: error: unsupported GPU chip 'sm_70': kfuse emits PTX ISA 8.0 for sm_75, sm_80, sm_86, sm_87, sm_89, sm_90
// OLD-NOT: LLVM ERROR
// NEW: error: unsupported GPU chip 'sm_120'
// NEW-NOT: LLVM ERROR
// TEXTUAL: unsupported GPU chip 'sm_61'
// BLOCK: error: block-size must be a multiple of 32 from 32 to 1024, got 100
// BLOCK2048: error: block-size must be a multiple of 32 from 32 to 1024, got 2048
// BLOCK0: error: block-size must be a multiple of 32 from 32 to 1024, got 0
// MAXOPS: error: max-ops must be a number of ops from 0 (no limit) to 4294967295, got '-1'
// EAGER: Cannot find option named 'eager'
// NOCHIP: no such option chip
// BITS: error: vector-bits must be 256 or 512, got 128
// PASSBITS: error: kf-map-kernels-to-host: vector-bits must be 256 or 512, got 1024
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
