// Found by kf_fuzz.py (seed 1, program 91), kept as the fuzzer shrank it:
// a chain of reshapes (collapse then expand) read a kernel's result and fed
// it back into the same kernel (%v12 = reshape of %v11, read by the lt that
// joins %v11's kernel). Only the last reshape of the chain was cloned into
// the kernel, leaving a cycle; now the whole chain is.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels -o /dev/null
// RUN: %fusion-diff %s

func.func @p1_91(%arg0: tensor<1x3x1xf32>, %arg1: tensor<3x1xf32>, %arg2: tensor<3x1xf32>, %arg3: tensor<1x4xf32>, %arg4: tensor<f32>, %arg5: tensor<3x1xf64>, %arg6: tensor<3x1xf32>) -> (tensor<3x1xf32>) {
  %v0 = kf.neg %arg0 : tensor<1x3x1xf32>
  %v1 = kf.sub %v0, %arg0 : tensor<1x3x1xf32>, tensor<1x3x1xf32>
  %v2 = kf.reshape %v1 [3, -1] : tensor<1x3x1xf32>
  %v3 = kf.layer_norm %v0 normalized_shape [1] eps 1.0e-05 : tensor<1x3x1xf32>
  %v4 = kf.neg %v3 : tensor<1x3x1xf32>
  %v5 = kf.gelu %v3 : tensor<1x3x1xf32>
  %v6 = kf.add %v5, %v4 : tensor<1x3x1xf32>, tensor<1x3x1xf32>
  %v7 = kf.reshape %v0 [3, -1] : tensor<1x3x1xf32>
  %v8 = kf.layer_norm %v4 weight %arg1 : tensor<3x1xf32> bias %arg2 : tensor<3x1xf32> normalized_shape [3, 1] eps 1.0e-05 : tensor<1x3x1xf32>
  %v9 = kf.log_softmax %v4 dim 1 : tensor<1x3x1xf32>
  %v10 = kf.rsqrt %v5 : tensor<1x3x1xf32>
  %v11 = kf.maximum %v3, %arg2 : tensor<1x3x1xf32>, tensor<3x1xf32>
  %v12 = kf.reshape %v11 [3, -1] : tensor<1x3x1xf32>
  %v13 = kf.matmul %v11, %arg3 : tensor<1x3x1xf32>, tensor<1x4xf32>
  %v14 = kf.lt %arg1, %v12 : tensor<3x1xf32>, tensor<3x1xf32>
  %v15 = kf.min %arg3 dims [1] : tensor<1x4xf32>
  %v16 = kf.softmax %arg3 dim -2 : tensor<1x4xf32>
  %v17 = kf.log %v14 : tensor<3x1xi1>
  %v18 = kf.gt %v16, %v17 : tensor<1x4xf32>, tensor<3x1xf32>
  %v19 = kf.log_softmax %v13 dim -1 : tensor<1x3x4xf32>
  %v20 = kf.cos %v8 : tensor<1x3x1xf32>
  %v21 = kf.where %v14, %v11, %v6 : tensor<3x1xi1>, tensor<1x3x1xf32>, tensor<1x3x1xf32>
  %v22 = kf.lt %v13, %v21 : tensor<1x3x4xf32>, tensor<1x3x1xf32>
  %v23 = kf.tanh %v14 : tensor<3x1xi1>
  %v24 = kf.softmax %v11 dim 0 : tensor<1x3x1xf32>
  %v25 = kf.cast %v14 : tensor<3x1xi1> to f32
  %v26 = kf.log_softmax %v25 dim 0 : tensor<3x1xf32>
  %v27 = kf.ne %v23, %arg4 : tensor<3x1xf32>, tensor<f32>
  %v28 = kf.le %v23, %arg5 : tensor<3x1xf32>, tensor<3x1xf64>
  %v29 = kf.transpose %v14 [1, 0] : tensor<3x1xi1>
  %v30 = kf.layer_norm %v8 weight %arg6 : tensor<3x1xf32> normalized_shape [3, 1] eps 1.0e-05 : tensor<1x3x1xf32>
  %v31 = kf.pow %arg2, %arg4 : tensor<3x1xf32>, tensor<f32>
  %v32 = kf.tanh %v18 : tensor<3x4xi1>
  %v33 = kf.div %v28, %arg4 : tensor<3x1xi1>, tensor<f32>
  %v34 = kf.sub %v20, %arg6 : tensor<1x3x1xf32>, tensor<3x1xf32>
  %v35 = kf.add %v5, %v17 : tensor<1x3x1xf32>, tensor<3x1xf32>
  %v36 = kf.mul %v12, %v26 : tensor<3x1xf32>, tensor<3x1xf32>
  return %v36 : tensor<3x1xf32>
}
