// One MLP block: relu(x @ w1 + b1) @ w2 + b2, batch of any size.
func.func @mlp(%x: tensor<?x256xf32>, %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
               %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>) -> tensor<?x256xf32> {
  %h = kf.matmul %x, %w1 : tensor<?x256xf32>, tensor<256x1024xf32>
  %hb = kf.add %h, %b1 : tensor<?x1024xf32>, tensor<1024xf32>
  %a = kf.relu %hb : tensor<?x1024xf32>
  %o = kf.matmul %a, %w2 : tensor<?x1024xf32>, tensor<1024x256xf32>
  %y = kf.add %o, %b2 : tensor<?x256xf32>, tensor<256xf32>
  return %y : tensor<?x256xf32>
}
