// Matmuls whose products are summed (`a @ b + c @ d`, an RNN cell's
// `x @ W + h @ U`) are one kernel with one accumulator (the matmul-chain
// rule; tinygrad forms one): it takes a @ b over K1, then c @ d over K2, and
// never writes either product. Counts argued by hand: fused, the kernel
// reads a, b, c, d and writes the sum; eager, each matmul also writes its
// product and the add reads both back.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=matmul-chain=false -o /dev/null | FileCheck %s --check-prefix=OFF
// Each decision is a remark: the second product's edge is fused by the
// rule matmul-chain.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --remarks-filter-passed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: Function=chain | Reason="fused (matmul-epilogue)", Remark="matmul -> add fused into matmul_add_0"
// REMARK: Function=chain | Reason="fused (matmul-chain)", Remark="matmul -> add fused into matmul_add_0"
// The kernel's sum stays an op of its own (the mappings find the chain by
// it); the bias and tanh after it merge into one op.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=FORM
// The fused chain against the eager run on the CPU, and through the
// emulated GPU mappings: the SIMT kernel, the 16x16 reference tile, and
// (f32 as TF32) the tensor-core kernel with its warp-level ops expanded
// per lane (the inputs, multiples of 0.25, are exact in TF32).
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reference-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-sm80-tf32-pipeline %s
// And against numpy in float64 (independent), run fused through kfuse-run
// on the CPU, whose register-tiled kernel takes each step's panels into
// one accumulator tile (12 vector FMAs a step of k: 24 for two matmuls).
// An RNN cell with K = 300 (two panels) + 90: pre-activations are sums of
// 390 products of normal values (about 20 in magnitude), whose f32 error
// is about sqrt(390) * 20 * 6e-8 = 2.4e-5 before tanh (slope <= 1): 1e-4
// absolute. A product lost or counted twice is off by about 1.
// RUN: %run-check %S/Inputs/matmul-chain-rnn.mlir --input "arg0=f32[70x300]" \
// RUN:   --input "arg1=f32[50x300]" --input "arg2=f32[70x90]" --input "arg3=f32[90x50]" \
// RUN:   --input "arg4=f32[50]" --rtol=0 --atol=1e-4 \
// RUN:   --expect "np.tanh(arg0.astype(np.float64) @ arg1.T.astype(np.float64) + arg2.astype(np.float64) @ arg3 + arg4)" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMPY
// Batched, d broadcast over the batch, 37 x 29 (edges of the register
// tile): sums of 90 products, error about 1e-5.
// RUN: %run-check %S/Inputs/matmul-chain-batched.mlir --input "arg0=f32[3x37x70]" \
// RUN:   --input "arg1=f32[3x70x29]" --input "arg2=f32[3x37x20]" --input "arg3=f32[20x29]" \
// RUN:   --expect "relu(arg0.astype(np.float64) @ arg1 + arg2.astype(np.float64) @ arg3)" \
// RUN:   --rtol=0 --atol=1e-4 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMPY
// NUMPY: kernels {{ *}}{{[0-9]+}} {{ *}}1
// RUN: kfuse-opt %S/Inputs/matmul-chain-rnn.mlir --kf-host-runtime-pipeline \
// RUN:   --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// HOST-COUNT-24: vector.fma
// HOST-NOT: vector.fma
// The tensor-core kernel (sm_80, f32 as TF32 with --tf32, 2 stages) runs a
// mainloop a step, each waiting for its copies (wait_group stages - 2 = 0)
// in the loop and once after it: 4 waits for two steps (a single matmul
// has 2). ptxas: no spills.
// RUN: kfuse-compile %S/Inputs/matmul-chain-rnn.mlir --emit=ptx --gpu-chip=sm_80 --tf32 | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %S/Inputs/matmul-chain-rnn.mlir --emit=ptx --gpu-chip=sm_80 --tf32 | grep -c "cp.async.wait_group" | FileCheck %s --check-prefix=WAITS
// PTX-LABEL: .entry matmul_add_add_tanh_0(
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// WAITS: {{^}}4{{$}}
// RUN: %if ptxas %{ kfuse-compile %S/Inputs/matmul-chain-rnn.mlir --emit=ptx --gpu-chip=sm_80 --tf32 -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -v -arch=sm_80 %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// 64x32 @ 32x48 + 64x16 @ 16x48. Fused: a 2048 + b 1536 + c 1024 + d 768
// in, 3072 out = 8448 elements. Eager: each matmul its operands and 3072
// out (6656, 4864), the add 3 x 3072 (9216): 20736.
// CHECK-LABEL: function @chain
// CHECK: kernels {{ *}}3 {{ *}}1
// CHECK: elements {{ *}}20736 {{ *}}8448
// CHECK: matmul_add_0 (matmul): ops matmul, matmul, add
// CHECK-NEXT: reads arg0 64x32xf32, arg1 32x48xf32, arg2 64x16xf32, arg3 16x48xf32
// CHECK-NEXT: writes matmul_add_0#0 64x48xf32
// CHECK: boundaries: none
// With the rule off the second matmul's kernel takes the add: 2 kernels,
// c @ d written (3072) and read back (3072): 14592.
// OFF-LABEL: function @chain
// OFF: kernels {{ *}}3 {{ *}}2
// OFF: elements {{ *}}20736 {{ *}}14592
// OFF: (matmul -> add): rule-disabled: matmul-chain=false
func.func @chain(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x16xf32>, %d: tensor<16x48xf32>) -> tensor<64x48xf32> {
  %0 = kf.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32>
  %1 = kf.matmul %c, %d : tensor<64x16xf32>, tensor<16x48xf32>
  %2 = kf.add %0, %1 : tensor<64x48xf32>, tensor<64x48xf32>
  return %2 : tensor<64x48xf32>
}

// -----

// An RNN cell: tanh(x @ Wx^T + h @ Wh^T + b), both weights read transposed
// in place, the bias and tanh the sum's epilogue. Fused: x 450 + Wx 1200 +
// h 900 + Wh 2400 + b 40 in, 600 out = 5590 elements.
// CHECK-LABEL: function @rnn_cell
// CHECK: kernels {{ *}}5 {{ *}}1
// CHECK: elements {{ *}}{{[0-9]+}} {{ *}}5590
// CHECK: ops matmul, matmul, add, add, tanh
// FORM-LABEL: func.func @rnn_cell
// FORM: kf.kernel "matmul_add_add_tanh_0" kind matmul
// FORM-COUNT-2: linalg.matmul
// FORM: linalg.generic
// FORM-NEXT: ^bb0
// FORM-NEXT: arith.addf
// FORM-NEXT: linalg.yield
// FORM: linalg.generic
// FORM-NEXT: ^bb0
// FORM-NEXT: arith.addf
// FORM-NEXT: math.tanh
// FORM: kf.yield
// OFF-LABEL: function @rnn_cell
// OFF: kernels {{ *}}5 {{ *}}2
func.func @rnn_cell(%x: tensor<15x30xf32>, %wx: tensor<40x30xf32>, %h: tensor<15x60xf32>, %wh: tensor<40x60xf32>, %bias: tensor<40xf32>) -> tensor<15x40xf32> {
  %wxt = kf.transpose %wx [1, 0] : tensor<40x30xf32>
  %0 = kf.matmul %x, %wxt : tensor<15x30xf32>, tensor<30x40xf32>
  %wht = kf.transpose %wh [1, 0] : tensor<40x60xf32>
  %1 = kf.matmul %h, %wht : tensor<15x60xf32>, tensor<60x40xf32>
  %2 = kf.add %0, %1 : tensor<15x40xf32>, tensor<15x40xf32>
  %3 = kf.add %2, %bias : tensor<15x40xf32>, tensor<40xf32>
  %4 = kf.tanh %3 : tensor<15x40xf32>
  return %4 : tensor<15x40xf32>
}

// -----

// Three products: a tree of two sums, one kernel. Fused: 256 + 256 + 128
// + 128 + 512 + 512 in, 256 out = 2048 elements.
// CHECK-LABEL: function @three
// CHECK: kernels {{ *}}5 {{ *}}1
// CHECK: elements {{ *}}{{[0-9]+}} {{ *}}2048
// CHECK: ops matmul, matmul, add, matmul, add
// OFF-LABEL: function @three
// OFF: kernels {{ *}}5 {{ *}}3
func.func @three(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x8xf32>, %d: tensor<8x16xf32>, %e: tensor<16x32xf32>, %f: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %0 = kf.matmul %a, %b : tensor<16x16xf32>, tensor<16x16xf32>
  %1 = kf.matmul %c, %d : tensor<16x8xf32>, tensor<8x16xf32>
  %2 = kf.add %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
  %3 = kf.matmul %e, %f : tensor<16x32xf32>, tensor<32x16xf32>
  %4 = kf.add %2, %3 : tensor<16x16xf32>, tensor<16x16xf32>
  return %4 : tensor<16x16xf32>
}

// -----

// Batched, the second matmul's B broadcast over the batch (each step reads
// its operands through its own maps). Fused: 2x5x16 + 2x16x12 + 2x5x4 +
// 4x12 in (160 + 384 + 40 + 48), 120 out = 752 elements.
// CHECK-LABEL: function @batched
// CHECK: kernels {{ *}}3 {{ *}}1
// CHECK: elements {{ *}}{{[0-9]+}} {{ *}}752
func.func @batched(%a: tensor<2x5x16xf32>, %b: tensor<2x16x12xf32>, %c: tensor<2x5x4xf32>, %d: tensor<4x12xf32>) -> tensor<2x5x12xf32> {
  %0 = kf.matmul %a, %b : tensor<2x5x16xf32>, tensor<2x16x12xf32>
  %1 = kf.matmul %c, %d : tensor<2x5x4xf32>, tensor<4x12xf32>
  %2 = kf.add %0, %1 : tensor<2x5x12xf32>, tensor<2x5x12xf32>
  return %2 : tensor<2x5x12xf32>
}

// -----

// Not a chain: f16 products. PyTorch rounds each product to f16 and then
// their sum; one accumulator would round the sum once, an ulp away. Each
// matmul keeps its kernel (the sum the second's epilogue).
// CHECK-LABEL: function @half
// CHECK: kernels {{ *}}3 {{ *}}2
// CHECK: matmul_0 -> matmul_add_1 (matmul -> add): matmul-boundary
func.func @half(%a: tensor<40x32xf16>, %b: tensor<32x24xf16>, %c: tensor<40x48xf16>, %d: tensor<48x24xf16>) -> tensor<40x24xf16> {
  %0 = kf.matmul %a, %b : tensor<40x32xf16>, tensor<32x24xf16>
  %1 = kf.matmul %c, %d : tensor<40x48xf16>, tensor<48x24xf16>
  %2 = kf.add %0, %1 : tensor<40x24xf16>, tensor<40x24xf16>
  return %2 : tensor<40x24xf16>
}

// -----

// Dynamic rows: the same kernel (the products' rows are one symbol, both
// read from %x; the report counts x once, as it counts every input, though
// each step reads it). Products whose dynamic rows come from different tensors
// are not known equal when kernels are formed (kf-to-linalg checks them
// at run time) and stay two kernels.
// CHECK-LABEL: function @dynamic
// CHECK: kernels {{ *}}3 {{ *}}1
func.func @dynamic(%x: tensor<?x12xf32>, %b: tensor<12x20xf32>, %d: tensor<12x20xf32>) -> tensor<?x20xf32> {
  %0 = kf.matmul %x, %b : tensor<?x12xf32>, tensor<12x20xf32>
  %1 = kf.matmul %x, %d : tensor<?x12xf32>, tensor<12x20xf32>
  %2 = kf.add %0, %1 : tensor<?x20xf32>, tensor<?x20xf32>
  return %2 : tensor<?x20xf32>
}

// -----

// Not a chain: a @ b is also returned, so its product must be written; the
// kernel of c @ d reads it back as its epilogue's operand (2 kernels).
// CHECK-LABEL: function @product_returned
// CHECK: kernels {{ *}}3 {{ *}}2
// CHECK: matmul_0 -> matmul_add_1 (matmul -> add): matmul-boundary
func.func @product_returned(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = kf.matmul %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = kf.matmul %c, %d : tensor<8x8xf32>, tensor<8x8xf32>
  %2 = kf.add %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  return %2, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Not a chain: a difference (one accumulator only adds).
// CHECK-LABEL: function @difference
// CHECK: kernels {{ *}}3 {{ *}}2
// CHECK: (matmul -> sub): matmul-boundary
func.func @difference(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = kf.matmul %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = kf.matmul %c, %d : tensor<8x8xf32>, tensor<8x8xf32>
  %2 = kf.sub %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Not a chain: a product scaled before the sum (its scale would apply to
// the other's too).
// CHECK-LABEL: function @scaled
// CHECK: kernels {{ *}}4 {{ *}}2
// CHECK: matmul-boundary
func.func @scaled(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>, %s: tensor<f32>) -> tensor<8x8xf32> {
  %0 = kf.matmul %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = kf.matmul %c, %d : tensor<8x8xf32>, tensor<8x8xf32>
  %2 = kf.mul %1, %s : tensor<8x8xf32>, tensor<f32>
  %3 = kf.add %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

// Not a chain: the products have different shapes (c @ d is one row,
// broadcast over a @ b's rows: its kernel cannot be the same tile loop).
// CHECK-LABEL: function @broadcast_product
// CHECK: kernels {{ *}}3 {{ *}}2
// CHECK: matmul-boundary
func.func @broadcast_product(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<1x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = kf.matmul %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = kf.matmul %c, %d : tensor<1x8xf32>, tensor<8x8xf32>
  %2 = kf.add %0, %1 : tensor<8x8xf32>, tensor<1x8xf32>
  return %2 : tensor<8x8xf32>
}
