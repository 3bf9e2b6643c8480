func.func @f(%a: tensor<-3xf32>) {
  return
}
