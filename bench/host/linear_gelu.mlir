// BERT's MLP up-projection with its GELU epilogue, 512 x 64 x 128, on
// kfuse-run's random inputs (uniform in [-2, 2]): the Linear's outputs have
// a standard deviation near 11, so some lanes of most vectors are past
// x = -13, GELU's subnormal tail (gelu_wide.mlir).
//   KFUSE_NUM_THREADS=1 bash bench/ab-compilers.sh OLD/kfuse-compile build/bin/kfuse-compile 9 bench/host/*.mlir
func.func @linear_gelu(%x: tensor<512x64xf32>, %w: tensor<128x64xf32>, %b: tensor<128xf32>) -> tensor<512x128xf32> {
  %wt = kf.transpose %w [1, 0] : tensor<128x64xf32>
  %m = kf.matmul %x, %wt : tensor<512x64xf32>, tensor<64x128xf32>
  %a = kf.add %m, %b : tensor<512x128xf32>, tensor<128xf32>
  %y = kf.gelu %a : tensor<512x128xf32>
  return %y : tensor<512x128xf32>
}
