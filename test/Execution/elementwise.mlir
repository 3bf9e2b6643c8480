// Elementwise ops run on the CPU and agree with numpy.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: a = np.array([[1.5, -2.0, 3.0, 0.25], [-4.0, 5.0, -0.5, 2.0]], np.float32)
// NUMPY: p = np.array([[0.5, 1.0, 2.0, 4.0], [8.0, 0.125, 3.0, 10.0]], np.float32)
// NUMPY: i = np.array([[7, -7, 3, 0], [-3, 9, 2, -1]], np.int32)
// NUMPY: j = np.array([[2, 2, -2, 5], [2, 4, 3, 1]], np.int32)
// NUMPY: from math import erf
// NUMPY: sig = lambda x: 1 / (1 + np.exp(-x))

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func @show_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %a = kf.constant dense<[[1.5, -2.0, 3.0, 0.25], [-4.0, 5.0, -0.5, 2.0]]> : tensor<2x4xf32>
  %p = kf.constant dense<[[0.5, 1.0, 2.0, 4.0], [8.0, 0.125, 3.0, 10.0]]> : tensor<2x4xf32>
  %i = kf.constant dense<[[7, -7, 3, 0], [-3, 9, 2, -1]]> : tensor<2x4xi32>
  %j = kf.constant dense<[[2, 2, -2, 5], [2, 4, 3, 1]]> : tensor<2x4xi32>

  // NUMPY: expect(a + p)
  %0 = kf.add %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u0 = tensor.cast %0 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  // NUMPY: expect(a - p)
  %1 = kf.sub %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u1 = tensor.cast %1 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  // NUMPY: expect(a * p)
  %2 = kf.mul %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u2 = tensor.cast %2 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  // NUMPY: expect(a / p)
  %3 = kf.div %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u3 = tensor.cast %3 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()
  // NUMPY: expect(np.maximum(a, p))
  %4 = kf.maximum %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u4 = tensor.cast %4 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  // NUMPY: expect(np.minimum(a, p))
  %5 = kf.minimum %a, %p : tensor<2x4xf32>, tensor<2x4xf32>
  %u5 = tensor.cast %5 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()
  // NUMPY: expect(np.power(p, a))
  %6 = kf.pow %p, %a : tensor<2x4xf32>, tensor<2x4xf32>
  %u6 = tensor.cast %6 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()

  // Integer ops stay integer; integer division is true division.
  // NUMPY: expect(i * j + i)
  %7 = kf.mul %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %8 = kf.add %7, %i : tensor<2x4xi32>, tensor<2x4xi32>
  %u8 = tensor.cast %8 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%u8) : (tensor<*xi32>) -> ()
  // NUMPY: expect(i / j)
  %9 = kf.div %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %u9 = tensor.cast %9 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u9) : (tensor<*xf32>) -> ()
  // NUMPY: expect(np.maximum(i, j) - np.minimum(i, j))
  %10 = kf.maximum %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %11 = kf.minimum %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %12 = kf.sub %10, %11 : tensor<2x4xi32>, tensor<2x4xi32>
  %u12 = tensor.cast %12 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%u12) : (tensor<*xi32>) -> ()

  // Comparisons give bool; shown as 0/1 through a cast to i32.
  // NUMPY: for cmp in (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal):
  // NUMPY:     expect(cmp(i, j).astype(np.int32))
  %c0 = kf.eq %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %c1 = kf.ne %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %c2 = kf.lt %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %c3 = kf.le %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %c4 = kf.gt %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %c5 = kf.ge %i, %j : tensor<2x4xi32>, tensor<2x4xi32>
  %k0 = kf.cast %c0 : tensor<2x4xi1> to i32
  %k1 = kf.cast %c1 : tensor<2x4xi1> to i32
  %k2 = kf.cast %c2 : tensor<2x4xi1> to i32
  %k3 = kf.cast %c3 : tensor<2x4xi1> to i32
  %k4 = kf.cast %c4 : tensor<2x4xi1> to i32
  %k5 = kf.cast %c5 : tensor<2x4xi1> to i32
  %v0 = tensor.cast %k0 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v0) : (tensor<*xi32>) -> ()
  %v1 = tensor.cast %k1 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v1) : (tensor<*xi32>) -> ()
  %v2 = tensor.cast %k2 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v2) : (tensor<*xi32>) -> ()
  %v3 = tensor.cast %k3 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v3) : (tensor<*xi32>) -> ()
  %v4 = tensor.cast %k4 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v4) : (tensor<*xi32>) -> ()
  %v5 = tensor.cast %k5 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%v5) : (tensor<*xi32>) -> ()

  // where(a > 0, a, p * 10)
  // NUMPY: expect(np.where(a > 0, a, p * 10))
  %z = kf.constant dense<0.0> : tensor<f32>
  %ten = kf.constant dense<10.0> : tensor<f32>
  %pos = kf.gt %a, %z : tensor<2x4xf32>, tensor<f32>
  %p10 = kf.mul %p, %ten : tensor<2x4xf32>, tensor<f32>
  %w = kf.where %pos, %a, %p10 : tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>
  %uw = tensor.cast %w : tensor<2x4xf32> to tensor<*xf32>
  call @show(%uw) : (tensor<*xf32>) -> ()

  // Unary ops on a (sign-neutral ones) and on p (positive ones).
  // NUMPY: expect(-a); expect(np.abs(a)); expect(np.maximum(a, 0)); expect(np.exp(a))
  // NUMPY: expect(np.tanh(a)); expect(sig(a)); expect(np.sin(a)); expect(np.cos(a))
  // NUMPY: expect(0.5 * a * (1 + np.vectorize(erf)(a / np.sqrt(2)))); expect(a * sig(a))
  // NUMPY: expect(np.log(p)); expect(np.sqrt(p)); expect(1 / np.sqrt(p)); expect(1 / p)
  %n0 = kf.neg %a : tensor<2x4xf32>
  %n1 = kf.abs %a : tensor<2x4xf32>
  %n2 = kf.relu %a : tensor<2x4xf32>
  %n3 = kf.exp %a : tensor<2x4xf32>
  %n4 = kf.tanh %a : tensor<2x4xf32>
  %n5 = kf.sigmoid %a : tensor<2x4xf32>
  %n6 = kf.sin %a : tensor<2x4xf32>
  %n7 = kf.cos %a : tensor<2x4xf32>
  %n8 = kf.gelu %a : tensor<2x4xf32>
  %n9 = kf.silu %a : tensor<2x4xf32>
  %n10 = kf.log %p : tensor<2x4xf32>
  %n11 = kf.sqrt %p : tensor<2x4xf32>
  %n12 = kf.rsqrt %p : tensor<2x4xf32>
  %n13 = kf.reciprocal %p : tensor<2x4xf32>
  %w0 = tensor.cast %n0 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w0) : (tensor<*xf32>) -> ()
  %w1 = tensor.cast %n1 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w1) : (tensor<*xf32>) -> ()
  %w2 = tensor.cast %n2 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w2) : (tensor<*xf32>) -> ()
  %w3 = tensor.cast %n3 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w3) : (tensor<*xf32>) -> ()
  %w4 = tensor.cast %n4 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w4) : (tensor<*xf32>) -> ()
  %w5 = tensor.cast %n5 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w5) : (tensor<*xf32>) -> ()
  %w6 = tensor.cast %n6 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w6) : (tensor<*xf32>) -> ()
  %w7 = tensor.cast %n7 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w7) : (tensor<*xf32>) -> ()
  %w8 = tensor.cast %n8 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w8) : (tensor<*xf32>) -> ()
  %w9 = tensor.cast %n9 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w9) : (tensor<*xf32>) -> ()
  %w10 = tensor.cast %n10 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w10) : (tensor<*xf32>) -> ()
  %w11 = tensor.cast %n11 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w11) : (tensor<*xf32>) -> ()
  %w12 = tensor.cast %n12 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w12) : (tensor<*xf32>) -> ()
  %w13 = tensor.cast %n13 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%w13) : (tensor<*xf32>) -> ()

  // Casts: float to int truncates toward zero; exp of an int is f32.
  // NUMPY: expect(a.astype(np.int32)); expect(np.exp(j.astype(np.float32)))
  %t0 = kf.cast %a : tensor<2x4xf32> to i32
  %x0 = tensor.cast %t0 : tensor<2x4xi32> to tensor<*xi32>
  call @show_i32(%x0) : (tensor<*xi32>) -> ()
  %t1 = kf.exp %j : tensor<2x4xi32>
  %x1 = tensor.cast %t1 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%x1) : (tensor<*xf32>) -> ()
  return
}
