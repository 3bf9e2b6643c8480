// A row kernel's form (its variant: the row on chip, or each op's values
// through memory) is chosen once, on tensors, by kf-assign-kernel-mappings,
// and shown where the matmul's is: kernels.json and kfuse-run's profiler.
// A softmax over rows keeps its row on chip. The column sums of a
// log_softmax over dim 0 of a dynamic tensor, kept as a 1 x ? value whose
// stride the on-chip form cannot index, go through memory (with
// reshape-propagation off: NOMOVE); with it on, the default, the sums are
// read as they are and the row stays on chip. The CPU runs its own rows (a
// thread a row): no variant there.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --gpu-chip=sm_90 --emit=llvm -o /dev/null --dump-dir=%t
// RUN: %python %kfuse_src/test/harness/validate_json.py %kfuse_src/docs/reference/schemas/kernels.schema.json %t/kernels.json | FileCheck %s --check-prefix=VALID
// RUN: %python -c "import json,sys; d = json.load(open(sys.argv[1])); print(sorted((k['name'], k['mapping'], k['variant']) for k in d['kernels']))" %t/kernels.json | FileCheck %s --check-prefix=MANIFEST
// VALID: valid: {{.*}}kernels.json
// MANIFEST: [('reduction_max_sub_exp_sum_div_0', 'row', 'on_chip'), ('reduction_max_sub_exp_sum_log_sub_1', 'row', 'on_chip')]
// RUN: rm -rf %t.nomove && mkdir -p %t.nomove
// RUN: kfuse-compile %s --gpu-chip=sm_90 --fusion=reshape-propagation=false --emit=llvm -o /dev/null --dump-dir=%t.nomove
// RUN: %python -c "import json,sys; d = json.load(open(sys.argv[1])); print(sorted((k['name'], k['mapping'], k['variant']) for k in d['kernels']))" %t.nomove/kernels.json | FileCheck %s --check-prefix=NOMOVE
// NOMOVE: [('reduction_max_sub_exp_sum_div_0', 'row', 'on_chip'), ('reduction_max_sub_exp_sum_log_sub_1', 'row', 'through_memory')]

// The profiler, on the fake driver (test/fake-cuda), and on the CPU.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --entry softmax_rows --no-cache --device=cuda \
// RUN:   --gpu-chip=sm_90 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=ROWS
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --entry log_softmax_cols --dim d0=6 --dim d1=5 --no-cache --device=cuda \
// RUN:   --gpu-chip=sm_90 --warmup=0 --repeat=1 | FileCheck %s --check-prefix=COLS
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --entry log_softmax_cols --dim d0=6 --dim d1=5 --no-cache --device=cuda \
// RUN:   --gpu-chip=sm_90 --fusion=reshape-propagation=false --warmup=0 --repeat=1 | FileCheck %s --check-prefix=COLS-NOMOVE
// RUN: kfuse-run %s --entry softmax_rows --no-cache --device=cpu --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CPU
// ROWS: reduction_max_sub_exp_sum_div_0 (on_chip)
// COLS: reduction_max_sub_exp_sum_log_sub_1 (on_chip)
// COLS-NOMOVE: reduction_max_sub_exp_sum_log_sub_1 (through_memory)
// CPU: reduction_max_sub_exp_sum_div_0 {{ *}}1
// CPU-NOT: (on_chip)

func.func @softmax_rows(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %s = kf.softmax %x dim 1 : tensor<64x100xf32>
  return %s : tensor<64x100xf32>
}

func.func @log_softmax_cols(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %l = kf.log_softmax %x dim 0 : tensor<?x?xf32>
  return %l : tensor<?x?xf32>
}
