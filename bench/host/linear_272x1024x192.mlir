// ViT-Tiny's MLP down-projection at K = 1024 (272 tokens, 192 wide): x @ w.t()
// + b on the host. A's rows are 4 * K bytes apart: read in place unless more
// than 3 of a register tile's 6 rows share an L1 set (K = 1024: all six;
// passes/host/mappings/HostMatmulPanels.cpp, rowsReadInPlace).
//   KFUSE_NUM_THREADS=1 bash bench/ab-compilers.sh OLD/kfuse-compile build/bin/kfuse-compile 9 bench/host/*.mlir
func.func @linear(%x: tensor<272x1024xf32>, %w: tensor<192x1024xf32>, %b: tensor<192xf32>) -> tensor<272x192xf32> {
  %wt = kf.transpose %w [1, 0] : tensor<192x1024xf32>
  %m = kf.matmul %x, %wt : tensor<272x1024xf32>, tensor<1024x192xf32>
  %y = kf.add %m, %b : tensor<272x192xf32>, tensor<192xf32>
  return %y : tensor<272x192xf32>
}
