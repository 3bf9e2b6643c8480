// softmax over the rows of a [1024, 1024] f32 matrix (torch.softmax(x, -1)).
func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}
