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
// RUN: kfuse-run %s --entry gpt2_embed --device=cpu --repeat=0 --check --dim d0=3 --cache-dir=%t.cache | FileCheck %s --check-prefix=CHECKED
// CHECKED: check against the CPU, unfused: in float64, {{.*}}: ok
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t.ptx -o /dev/null %}

// Llama's first RMSNorm on its embedding rows (one row kernel), 67 columns
// (a masked tail of 3), tokens up to the table's last row (8): the token
// is checked once a vector (a scalar: the same in every lane) and its row
// of the table read as masked vector loads (the tail's lanes past column
// 66 masked off, never past the table's end). Before, vector gathers of a
// lane each (BERT's three embeddings: 44 us for 8 x 64 tokens on one
// core, 17.4 now), and before them one scalar element at a time (Llama's
// RMSNorm: 97 us).
// RUN: %run-check %t.so --input "arg0=f32[9x67]" --input "arg1=i64[3x8]" --input "arg2=f32[67]" \
// RUN:   --expect "(lambda e, w: e / np.sqrt((e * e).mean(-1, keepdims=True) + 1e-6) * w)(np.where((arg1 >= 0)[..., None], arg0.astype(np.float64)[np.maximum(arg1, 0)], np.nan), arg2)" \
// RUN:   --rtol 1e-5 --atol 1e-5 -- --entry embed_rms --device=cpu --repeat=0 | FileCheck %s --check-prefix=RMS
// RMS: run_check: result0 float32[3, 8, 67] matches numpy
// RUN: kfuse-opt %s --kf-host-runtime-pipeline --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GATHER
// GATHER-LABEL: func.func @embed_rms
// GATHER: gpu.launch
// Rows of 67 run two at a time (then a block's odd last row):
// GATHER: scf.for {{.*}} step %c2{{.*}} {
// GATHER: %[[WIDTH:.*]] = memref.dim %arg0, %c1{{.*}} : memref<9x67xf32>
// GATHER-NEXT: %c0{{.*}} = arith.constant 0 : index
// GATHER-NEXT: %[[N:.*]] = arith.subi %[[WIDTH]], %{{.*}} : index
// GATHER-NEXT: %[[LEFT:.*]] = arith.maxsi %[[N]], %c0{{.*}} : index
// GATHER-NEXT: %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<8xi1>
// GATHER-NEXT: arith.constant
// GATHER-NEXT: vector.maskedload %arg0[%{{.*}}, %{{.*}}], %[[MASK]], %{{.*}} : memref<9x67xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// GATHER-NOT: vector.gather
// GATHER-NOT: memref.load %arg0
// GATHER: scf.for {{.*}} step %c1 {
// GATHER-NOT: vector.gather
// GATHER-NOT: memref.load %arg0
// GATHER: gpu.terminator

// BERT's embeddings, pointwise (token rows plus position rows): rows of
// vectors whose linalg.index is the lanes' columns, the token's row read
// as a masked vector load; 11 columns, 4 lanes (the i64 tokens are the
// widest element), scalars for the tail.
// RUN: %run-check %t.so --input "arg0=f32[9x11]" --input "arg1=i64[4x5]" --input "arg2=f32[5x11]" \
// RUN:   --expect "np.where((arg1 >= 0)[..., None], arg0.astype(np.float64)[np.maximum(arg1, 0)], np.nan) + arg2" \
// RUN:   --rtol 1e-6 --atol 1e-7 -- --entry embed_add --device=cpu --repeat=0 | FileCheck %s --check-prefix=ADD
// ADD: run_check: result0 float32[4, 5, 11] matches numpy
// RUN: kfuse-opt %s --kf-host-runtime-pipeline --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @embed_add
// ROWS: gpu.launch
// ROWS: vector.maskedload %arg0[{{.*}}], {{.*}} : memref<9x11xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// ROWS-NOT: vector.gather
// ROWS: gpu.terminator

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

func.func @embed_rms(%table: tensor<9x67xf32>, %tok: tensor<3x8xi64>, %w: tensor<67xf32>) -> tensor<3x8x67xf32> {
  %e = kf.index_select %table, %tok dim 0 : tensor<9x67xf32>, tensor<3x8xi64>
  %sq = kf.mul %e, %e : tensor<3x8x67xf32>, tensor<3x8x67xf32>
  %m = kf.mean %sq dims [-1] keepdim : tensor<3x8x67xf32>
  %eps = kf.constant dense<1.0e-6> : tensor<f32>
  %a = kf.add %m, %eps : tensor<3x8x1xf32>, tensor<f32>
  %r = kf.rsqrt %a : tensor<3x8x1xf32>
  %n = kf.mul %e, %r : tensor<3x8x67xf32>, tensor<3x8x1xf32>
  %y = kf.mul %n, %w : tensor<3x8x67xf32>, tensor<67xf32>
  return %y : tensor<3x8x67xf32>
}

func.func @embed_add(%table: tensor<9x11xf32>, %tok: tensor<4x5xi64>, %pos: tensor<5x11xf32>) -> tensor<4x5x11xf32> {
  %e = kf.index_select %table, %tok dim 0 : tensor<9x11xf32>, tensor<4x5xi64>
  %y = kf.add %e, %pos : tensor<4x5x11xf32>, tensor<5x11xf32>
  return %y : tensor<4x5x11xf32>
}
