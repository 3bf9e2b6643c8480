// A GPT-2 style embedding (token rows + position rows, then layer_norm,
// one kernel) built as a library and run by kfuse-run on the CPU against
// numpy's fancy indexing in float64 (to f32's tolerance: a 16-element
// layer_norm in f32 is good to a few ulp). The tokens are drawn from [-8, 8]:
// negative ones are out of range (PyTorch raises an error) and give NaN
// rows. The batch is dynamic.
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[50x16]" --input "arg1=f32[8x16]" \
// RUN:   --input "arg2=i64[3x8]" --input "arg3=f32[16]" --input "arg4=f32[16]" \
// RUN:   --expect "((h := np.where((arg2 >= 0)[..., None], arg0.astype(np.float64)[np.maximum(arg2, 0)], np.nan) + arg1) - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + 1e-5) * arg3 + arg4" \
// RUN:   --rtol 1e-5 --atol 1e-5 -- --entry gpt2_embed --device=cpu --repeat=0 | FileCheck %s
// The same through kfuse-run --check: its float64 reference gathers the
// input's error bound at the same indices.
// RUN: kfuse-run %s --device=cpu --repeat=0 --check --dim d0=3 --cache-dir=%t.cache | FileCheck %s --check-prefix=CHECKED
// CHECKED: check against the CPU, unfused: in float64, {{.*}}: ok
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t.ptx -o /dev/null %}

// CHECK: kernel summary
// CHECK-NEXT: kernels {{[0-9]+}} 1
// CHECK: run_check: result0 float32[3, 8, 16] matches numpy
func.func @gpt2_embed(%wte: tensor<50x16xf32>, %wpe: tensor<8x16xf32>, %tok: tensor<?x8xi64>,
                      %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x8x16xf32> {
  %e = kf.index_select %wte, %tok dim 0 : tensor<50x16xf32>, tensor<?x8xi64>
  %h = kf.add %e, %wpe : tensor<?x8x16xf32>, tensor<8x16xf32>
  %n = kf.layer_norm %h weight %g : tensor<16xf32> bias %b : tensor<16xf32> normalized_shape [16] eps 1.0e-05 : tensor<?x8x16xf32>
  return %n : tensor<?x8x16xf32>
}
