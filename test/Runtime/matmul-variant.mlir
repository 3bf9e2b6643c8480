// kfuse-run's profiler shows the variant each kernel's GPU mapping runs,
// read from the library's manifest (kf-assign-kernel-mappings chose it
// from the chip): an f16 matmul takes the tensor-core kernel on sm_90 and
// the SIMT kernel on sm_75; the pointwise kernel after it has one design
// and shows none. On the CPU the host runs its own matmul: no variant.
// The GPU path runs on the fake driver (test/fake-cuda).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --no-cache --device=cuda \
// RUN:   --fusion=off --gpu-chip=sm_90 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=SM90
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --no-cache --device=cuda \
// RUN:   --fusion=off --gpu-chip=sm_75 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=SM75
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --no-cache --device=cuda \
// RUN:   --fusion=off --gpu-chip=sm_90 --warmup=0 --repeat=1 --format json > %t.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t.json | FileCheck %s --check-prefix=VALID
// RUN: %python -c "import json,sys; r = json.load(open(sys.argv[1])); print(sorted((k['name'], k['variant']) for k in r['kernels']))" %t.json \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: kfuse-run %s --no-cache --device=cpu --fusion=off --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CPU
// SM90: matmul_0 (tensor_core)
// SM90: pointwise_relu_1 {{ *}}1
// SM75: matmul_0 (simt)
// SM75: pointwise_relu_1 {{ *}}1
// VALID: valid: {{.*}}.json
// JSON: [('matmul_0', 'tensor_core'), ('pointwise_relu_1', None)]
// CPU: matmul_0 {{ *}}1
// CPU-NOT: (simt)
// CPU-NOT: (tensor_core)

func.func @linear(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %c = kf.matmul %a, %b : tensor<64x32xf16>, tensor<32x16xf16>
  %r = kf.relu %c : tensor<64x16xf16>
  return %r : tensor<64x16xf16>
}
