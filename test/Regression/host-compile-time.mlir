// Found by kf_fuzz.py --kfuse-run --dynamic 1.0 (seed 6, program 96):
// kfuse-compile --emit=lib ran for minutes. LLVM's SLP vectorizer packed
// the eager host code's memref descriptors into <4 x ptr> stores of vector
// GEPs, and x86 instruction selection did not finish on them (llc alone:
// over 20 s, against 0.13 s without SLP). The host code is now optimized
// at O3 without the SLP vectorizer (loops are still vectorized); the
// library builds in about half a second.
// RUN: timeout 120 kfuse-compile %s --emit=lib -o %t.so
// RUN: kfuse-run %t.so --check --device=cpu --repeat=0 --dim d0=8 --dim d1=1 \
// RUN:   --dim d2=4 --dim d3=4 --dim d4=4 | FileCheck %s
// CHECK: check against the CPU, unfused: {{.*}}: ok
func.func @p6_96(%arg0: tensor<4x?xf64>, %arg1: tensor<8xbf16>, %arg2: tensor<?x?xf64>, %arg3: tensor<1xi64>, %arg4: tensor<8x4xf64>, %arg5: tensor<?xbf16>, %arg6: tensor<?xi64>, %arg7: tensor<4xbf16>) -> (tensor<?xbf16>, tensor<?xbf16>, tensor<2x2x4xf64>) {
  %v0 = kf.softmax %arg0 dim -1 : tensor<4x?xf64>
  %v1 = kf.neg %v0 : tensor<4x?xf64>
  %v2 = kf.silu %arg0 : tensor<4x?xf64>
  %v3 = kf.sigmoid %v1 : tensor<4x?xf64>
  %v4 = kf.min %v1 dims [0, 1] keepdim : tensor<4x?xf64>
  %v5 = kf.maximum %v3, %arg1 : tensor<4x?xf64>, tensor<8xbf16>
  %v6 = kf.div %v4, %v0 : tensor<1x1xf64>, tensor<4x?xf64>
  %v7 = kf.cos %v3 : tensor<4x?xf64>
  %v8 = kf.log %arg1 : tensor<8xbf16>
  %v9 = kf.reshape %v4 [-1, 1, 1] : tensor<1x1xf64>
  %v10 = kf.exp %v5 : tensor<4x8xf64>
  %v11 = kf.maximum %v7, %arg1 : tensor<4x?xf64>, tensor<8xbf16>
  %v12 = kf.sub %v11, %v2 : tensor<4x8xf64>, tensor<4x?xf64>
  %v13 = kf.ne %v10, %v12 : tensor<4x8xf64>, tensor<4x8xf64>
  %v14 = kf.reshape %v8 [4, -1, 2] : tensor<8xbf16>
  %v15 = kf.matmul %v4, %arg2 : tensor<1x1xf64>, tensor<?x?xf64>
  %v16 = kf.exp %v15 : tensor<1x?xf64>
  %v17 = kf.sub %arg2, %v16 : tensor<?x?xf64>, tensor<1x?xf64>
  %v18 = kf.minimum %v16, %arg3 : tensor<1x?xf64>, tensor<1xi64>
  %v19 = kf.transpose %v13 [1, 0] : tensor<4x8xi1>
  %v20 = kf.reshape %v6 [-1, 1, 8] : tensor<4x?xf64>
  %v21 = kf.eq %v19, %v16 : tensor<8x4xi1>, tensor<1x?xf64>
  %v22 = kf.cast %arg3 : tensor<1xi64> to i1
  %v23 = kf.transpose %v9 [1, 0, 2] : tensor<1x1x1xf64>
  %v24 = kf.matmul %v11, %arg4 : tensor<4x8xf64>, tensor<8x4xf64>
  %v25 = kf.gelu %arg1 : tensor<8xbf16>
  %v26 = kf.transpose %v15 [0, 1] : tensor<1x?xf64>
  %v27 = kf.sub %v26, %v16 : tensor<1x?xf64>, tensor<1x?xf64>
  %v28 = kf.maximum %v27, %v17 : tensor<1x?xf64>, tensor<?x?xf64>
  %v29 = kf.minimum %v23, %v21 : tensor<1x1x1xf64>, tensor<8x4xi1>
  %v30 = kf.minimum %v29, %arg5 : tensor<1x8x4xf64>, tensor<?xbf16>
  %v31 = kf.tanh %arg5 : tensor<?xbf16>
  %v32 = kf.sum %v31 dims [0] : tensor<?xbf16>
  %v33 = kf.cast %v18 : tensor<1x?xf64> to bf16
  %v34 = kf.div %arg5, %arg6 : tensor<?xbf16>, tensor<?xi64>
  %v35 = kf.mul %v20, %v22 : tensor<?x1x8xf64>, tensor<1xi1>
  %v36 = kf.layer_norm %arg5 weight %arg7 : tensor<4xbf16> normalized_shape [4] eps 1.0e-05 : tensor<?xbf16>
  %v37 = kf.sin %arg5 : tensor<?xbf16>
  %v38 = kf.broadcast_to %v18 [2, 2, 4] : tensor<1x?xf64>
  return %v36, %v37, %v38 : tensor<?xbf16>, tensor<?xbf16>, tensor<2x2x4xf64>
}

