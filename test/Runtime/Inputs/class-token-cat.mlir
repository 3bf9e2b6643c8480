// ViT's class token put before the patches and the position embedding
// added (timm's vision_transformer.py): kf.cat reads the patches at
// (t - 1) mod 4 along the tokens, a map that is no projection.
func.func @class_token(%cls: tensor<1x1x20xf32>, %p: tensor<3x4x20xf32>, %pos: tensor<1x5x20xf32>) -> tensor<3x5x20xf32> {
  %e = kf.broadcast_to %cls [3, -1, -1] : tensor<1x1x20xf32>
  %c = kf.cat %e, %p dim 1 : tensor<3x1x20xf32>, tensor<3x4x20xf32>
  %y = kf.add %c, %pos : tensor<3x5x20xf32>, tensor<1x5x20xf32>
  return %y : tensor<3x5x20xf32>
}
