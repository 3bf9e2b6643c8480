// The MLP block of examples/mlp.mlir, relu(x @ w1 + b1) @ w2 + b2, with a
// static batch B (every framework gets the same static shapes).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @mlp(%x: tensor<${B}x256xf32>, %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
               %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>) -> tensor<${B}x256xf32> {
  %h = kf.matmul %x, %w1 : tensor<${B}x256xf32>, tensor<256x1024xf32>
  %hb = kf.add %h, %b1 : tensor<${B}x1024xf32>, tensor<1024xf32>
  %a = kf.relu %hb : tensor<${B}x1024xf32>
  %o = kf.matmul %a, %w2 : tensor<${B}x1024xf32>, tensor<1024x256xf32>
  %y = kf.add %o, %b2 : tensor<${B}x256xf32>, tensor<256xf32>
  return %y : tensor<${B}x256xf32>
}
