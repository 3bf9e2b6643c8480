// A kernel that merging the bodies erases: the slice reads only the cat's
// second operand, so once the cat and the slice share a kernel the
// rms_norm's kernel has no reader left and the greedy driver erases it.
// kf-form-kernels' mapping check still held it and printed the freed op in
// its diagnostic: a crash (fuzz seed 2711, program 155, with
// KF_GEN_READ_BACK=1; the program cut down by the fuzzer). Each stage now
// forgets such kernels; the program compiles and matches numpy.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report=format=json -o /dev/null
// RUN: %run-check %s --input "arg0=i32[1x1x5]" --input "arg1=f32[1x1]" --input "arg2=f16[1x1]" \
// RUN:   --expect "arg2.astype(np.float32)" -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=OUT
// CHECK-LABEL: func.func @p2711_155
// CHECK-COUNT-1: kf.kernel
// CHECK-NOT: kf.kernel
// OUT: result0 {{.*}} matches numpy
func.func @p2711_155(%arg2: tensor<1x1x5xi32>, %arg7: tensor<1x1xf32>, %arg10: tensor<1x1xf16>) -> (tensor<1x1xf32>) {
  %v4 = kf.cat %arg2 dim -3 : tensor<1x1x5xi32>
  %v22 = kf.sum %v4 dims [2] : tensor<1x1x5xi32>
  %v26 = kf.cast %v22 : tensor<1x1xi64> to f32
  %v27 = kf.rms_norm %v26 weight %arg7 : tensor<1x1xf32> normalized_shape [1, 1] : tensor<1x1xf32>
  %v44 = kf.cat %v27, %arg10 dim -2 : tensor<1x1xf32>, tensor<1x1xf16>
  %v47 = kf.slice %v44 starts [1, 0] ends [9223372036854775807, 9223372036854775807] steps [1, 1] : tensor<2x1xf32>
  return %v47 : tensor<1x1xf32>
}
