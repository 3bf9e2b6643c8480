// kernels.json records the facts the GPU mappings used for the chip
// (GpuTarget.h), built once from --gpu-chip, and the variant each kernel
// got from them. The expected values are the
// CUDA C++ Programming Guide's (compute capabilities table: shared memory
// per block 48 KiB without opting in; opted in 64 KiB on 7.5, 163 KiB on
// 8.0 and 8.7, 99 KiB on 8.6 and 8.9, 227 KiB on 9.0; cp.async from 8.0,
// TMA on 9.0, wgmma in sm_90a's arch-specific PTX only: plain sm_90 keeps
// mma.sync). sm_75's mma.sync has no m16n8k16 for bf16, so the matmul
// kernels see no tensor cores there.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for chip in sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a; do \
// RUN:   kfuse-compile %s --gpu-chip=$chip --dump-dir=%t/$chip -o /dev/null || exit 1; \
// RUN:   %python -c "import json,sys; t = json.load(open(sys.argv[1])); g = t['gpu_target']; print(t['chip'], g['sm'], g['tensor_cores'], 'cp.async' if g['cp_async'] else '-', 'tma' if g['tma'] else '-', g['shared_memory_per_block'], g['max_shared_memory_per_block'], g['warp_size'], *[k['name'] + ':' + str(k['variant']) for k in t['kernels']])" %t/$chip/kernels.json || exit 1; \
// RUN: done | FileCheck %s
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kernels.schema.json %t/sm_90/kernels.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kernels.schema.json %t/sm_90a/kernels.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// Each kernel's variant follows: the add has none (one design); the f16
// matmul takes the tensor-core kernel where the chip has tensor cores,
// the SIMT kernel on sm_75, the wgmma kernel on sm_90a.
// CHECK: sm_75 75 none - - 49152 65536 32 pointwise_add_0:None matmul_1:simt
// CHECK-NEXT: sm_80 80 mma_sync cp.async - 49152 166912 32 pointwise_add_0:None matmul_1:tensor_core
// CHECK-NEXT: sm_86 86 mma_sync cp.async - 49152 101376 32 pointwise_add_0:None matmul_1:tensor_core
// CHECK-NEXT: sm_87 87 mma_sync cp.async - 49152 166912 32 pointwise_add_0:None matmul_1:tensor_core
// CHECK-NEXT: sm_89 89 mma_sync cp.async - 49152 101376 32 pointwise_add_0:None matmul_1:tensor_core
// CHECK-NEXT: sm_90 90 mma_sync cp.async tma 49152 232448 32 pointwise_add_0:None matmul_1:tensor_core
// CHECK-NEXT: sm_90a 90 wgmma cp.async tma 49152 232448 32 pointwise_add_0:None matmul_1:wgmma
// VALID: valid: {{.*}}kernels.json

func.func @add(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = kf.add %x, %x : tensor<8xf32>, tensor<8xf32>
  return %a : tensor<8xf32>
}

func.func @half(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %c = kf.matmul %a, %b : tensor<64x32xf16>, tensor<32x16xf16>
  return %c : tensor<64x16xf16>
}
