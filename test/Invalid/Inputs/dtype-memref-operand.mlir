func.func @f(%a: memref<4xf32>) {
  %0 = kf.exp %a : memref<4xf32>
  return
}
