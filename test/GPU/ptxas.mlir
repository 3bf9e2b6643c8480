// The PTX of every example, the row kernels of row-kernels.mlir, the
// single-launch reductions and row chains (atomics, fences, a .global
// counter) and the matmul kernels of matmul-kernels.mlir and
// emulated-sync.mlir (reductions of every width) assembles with ptxas for sm_75,
// sm_80 and sm_90 (skipped where the CUDA toolkit is not installed).
// REQUIRES: ptxas
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   for f in %kfuse_src/examples/add.mlir %kfuse_src/examples/add_relu.mlir \
// RUN:            %kfuse_src/examples/softmax.mlir %kfuse_src/examples/mlp.mlir \
// RUN:            %S/row-kernels.mlir %S/matmul-kernels.mlir %S/emulated-sync.mlir \
// RUN:            %S/single-launch-reduction.mlir %S/reduction-chains.mlir %s; do \
// RUN:     kfuse-compile $f --emit=ptx --gpu-chip=$chip -o %t.$chip.ptx && \
// RUN:     %ptxas -arch=$chip %t.$chip.ptx -o %t.$chip.cubin || exit 1; \
// RUN:     kfuse-compile $f --emit=ptx --fusion=off --gpu-chip=$chip -o %t.$chip.eager.ptx && \
// RUN:     %ptxas -arch=$chip %t.$chip.eager.ptx -o %t.$chip.eager.cubin || exit 1; \
// RUN:   done; \
// RUN: done

// Broadcasts, 0-d operands, every dtype, dynamic dims, several outputs.
func.func @bias_gelu(%x: tensor<?x64xf32>, %b: tensor<64xf32>) -> tensor<?x64xf32> {
  %0 = kf.add %x, %b : tensor<?x64xf32>, tensor<64xf32>
  %1 = kf.gelu %0 : tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}
func.func @dtypes(%h: tensor<8x1xf16>, %b: tensor<16xbf16>, %d: tensor<f64>, %i: tensor<8x16xi64>) -> (tensor<8x16xf64>, tensor<8x16xi1>) {
  %0 = kf.mul %h, %b : tensor<8x1xf16>, tensor<16xbf16>
  %1 = kf.cast %0 : tensor<8x16xf32> to f64
  %2 = kf.pow %1, %d : tensor<8x16xf64>, tensor<f64>
  %3 = kf.gt %i, %2 : tensor<8x16xi64>, tensor<8x16xf64>
  return %2, %3 : tensor<8x16xf64>, tensor<8x16xi1>
}
func.func @where_tanh(%c: tensor<4x4xi1>, %x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = kf.tanh %x : tensor<4x4xf32>
  %1 = kf.sigmoid %x : tensor<4x4xf32>
  %2 = kf.where %c, %0, %1 : tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
