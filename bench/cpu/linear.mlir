// nn.Linear as kfuse-import writes it: x @ w.t() + b, w stored [N, K]
// (out_features, in_features). M x K x N: BERT's and ViT-Tiny's Linears.
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @linear(%x: tensor<${M}x${K}xf32>, %w: tensor<${N}x${K}xf32>,
                  %b: tensor<${N}xf32>) -> tensor<${M}x${N}xf32> {
  %wt = kf.transpose %w [1, 0] : tensor<${N}x${K}xf32>
  %h = kf.matmul %x, %wt : tensor<${M}x${K}xf32>, tensor<${K}x${N}xf32>
  %y = kf.add %h, %b : tensor<${M}x${N}xf32>, tensor<${N}xf32>
  return %y : tensor<${M}x${N}xf32>
}
