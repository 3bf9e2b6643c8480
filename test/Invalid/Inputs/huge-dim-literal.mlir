func.func @f(%a: tensor<18446744073709551616xf32>) {
  return
}
