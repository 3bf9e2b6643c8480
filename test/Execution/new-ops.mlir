// The ops of issue 12 run on the CPU and agree with numpy, edge cases
// included: NaN and infinities, negative operands of remainder and
// floor_divide, integer division by 0, round half to even, ties and NaN in
// argmax/argmin, correction 0/1 and n <= correction in var.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s "--kf-cpu-pipeline=fusion=off" | %run-cpu | %numpy-check %s

// NUMPY: nan, inf = np.nan, np.inf
// NUMPY: x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1e-8, -1e-7, nan, inf, -inf, 3.7], np.float32)
// NUMPY: i = np.array([7, -7, 7, -7, 0, 5, -2147483648, 9], np.int32)
// NUMPY: j = np.array([3, 3, -3, -3, 3, 0, -1, -4], np.int32)
// NUMPY: a = np.array([7, -7, 7, -7, 5.5, -5.5, 0, 3, -3], np.float32)
// NUMPY: b = np.array([3, 3, -3, -3, 2, 2, 0, inf, inf], np.float32)
// NUMPY: M = np.array([[1, 3, 3, 0], [2, -1, 4, 4], [0.5, 0.5, 0.5, 0.5]], np.float32)
// NUMPY: w = np.array([0.5, -1, 2, 1], np.float32)
// NUMPY: Z = np.array([[1, 2, 3, 4], [-0.5, 0.25, 8, -3]], np.float32)
// NUMPY: B = np.array([[[1, 2], [-2, 0], [0.5, 3]], [[4, -1], [0, 1], [-1, 2]]], np.float32)
// NUMPY: mu = np.array([0.5, -1, 2], np.float32); var = np.array([4, 0.25, 1], np.float32)
// NUMPY: g = np.array([2, 1, -1], np.float32); be = np.array([0, 1, 0.5], np.float32)
// NUMPY: T = np.array([[1, 3, 3, 0], [nan, 2, nan, 5], [-1, -1, -4, -4]], np.float32)
// NUMPY: C = np.array([[1.5, 2, 3], [-4, 5, 6]], np.float32); D = np.array([[7, 8, -9]], np.int32)
// NUMPY: from math import erf
// NUMPY: import warnings; warnings.simplefilter("ignore")  # ddof >= n warns

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func @show_f32(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func @show_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}
func.func @show_i64(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1.0e-8, -1.0e-7, 0x7FC00000, 0x7F800000, 0xFF800000, 3.7]> : tensor<12xf32>
  %i = kf.constant dense<[7, -7, 7, -7, 0, 5, -2147483648, 9]> : tensor<8xi32>
  %j = kf.constant dense<[3, 3, -3, -3, 3, 0, -1, -4]> : tensor<8xi32>
  %a = kf.constant dense<[7.0, -7.0, 7.0, -7.0, 5.5, -5.5, 0.0, 3.0, -3.0]> : tensor<9xf32>
  %b = kf.constant dense<[3.0, 3.0, -3.0, -3.0, 2.0, 2.0, 0.0, 0x7F800000, 0x7F800000]> : tensor<9xf32>
  %m25 = kf.constant dense<-2.5> : tensor<f64>
  %M = kf.constant dense<[[1.0, 3.0, 3.0, 0.0], [2.0, -1.0, 4.0, 4.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<3x4xf32>
  %w = kf.constant dense<[0.5, -1.0, 2.0, 1.0]> : tensor<4xf32>
  %Z = kf.constant dense<[[1.0, 2.0, 3.0, 4.0], [-0.5, 0.25, 8.0, -3.0]]> : tensor<2x4xf32>
  %B = kf.constant dense<[[[1.0, 2.0], [-2.0, 0.0], [0.5, 3.0]], [[4.0, -1.0], [0.0, 1.0], [-1.0, 2.0]]]> : tensor<2x3x2xf32>
  %mu = kf.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %var = kf.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %g = kf.constant dense<[2.0, 1.0, -1.0]> : tensor<3xf32>
  %be = kf.constant dense<[0.0, 1.0, 0.5]> : tensor<3xf32>
  %T = kf.constant dense<[[1.0, 3.0, 3.0, 0.0], [0x7FC00000, 2.0, 0x7FC00000, 5.0], [-1.0, -1.0, -4.0, -4.0]]> : tensor<3x4xf32>
  %C = kf.constant dense<[[1.5, 2.0, 3.0], [-4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %D = kf.constant dense<[[7, 8, -9]]> : tensor<1x3xi32>

  // exp2, log1p, expm1, erf: float math, NaN and infinities through.
  // NUMPY: expect(np.exp2(x))
  %r0 = kf.exp2 %x : tensor<12xf32>
  %u0 = tensor.cast %r0 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u0) : (tensor<*xf32>) -> ()

  // Small arguments keep full relative precision (atol=0): 1e-8 and -1e-7
  // would print 0 as log(1 + x) or exp(x) - 1 in f32.
  // NUMPY: expect(np.log1p(x), 1e-4, 0)
  %r1 = kf.log1p %x : tensor<12xf32>
  %u1 = tensor.cast %r1 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u1) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.expm1(x), 1e-4, 0)
  %r2 = kf.expm1 %x : tensor<12xf32>
  %u2 = tensor.cast %r2 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u2) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.vectorize(erf)(x).astype(np.float32))
  %r3 = kf.erf %x : tensor<12xf32>
  %u3 = tensor.cast %r3 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u3) : (tensor<*xf32>) -> ()

  // floor, ceil; round halves to even (-2.5 -> -2, 0.5 -> 0, 2.5 -> 2).
  // NUMPY: expect(np.floor(x))
  %r4 = kf.floor %x : tensor<12xf32>
  %u4 = tensor.cast %r4 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u4) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.ceil(x))
  %r5 = kf.ceil %x : tensor<12xf32>
  %u5 = tensor.cast %r5 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u5) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.round(x))
  %r6 = kf.round %x : tensor<12xf32>
  %u6 = tensor.cast %r6 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u6) : (tensor<*xf32>) -> ()

  // f16 computes in f32 and rounds once.
  // NUMPY: expect(np.round(x.astype(np.float16)).astype(np.float32))
  %h = kf.cast %x : tensor<12xf32> to f16
  %rh = kf.round %h : tensor<12xf16>
  %r7 = kf.cast %rh : tensor<12xf16> to f32
  %u7 = tensor.cast %r7 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u7) : (tensor<*xf32>) -> ()

  // clamp keeps NaN; min > max gives max everywhere (but NaN).
  // NUMPY: expect(np.minimum(np.maximum(x, -1), 2))
  %r8 = kf.clamp %x min(-1) max(2.0) : tensor<12xf32>
  %u8 = tensor.cast %r8 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u8) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.where(np.isnan(x), np.nan, 1.0))
  %r9 = kf.clamp %x min(3.0) max(1.0) : tensor<12xf32>
  %u9 = tensor.cast %r9 : tensor<12xf32> to tensor<*xf32>
  call @show_f32(%u9) : (tensor<*xf32>) -> ()

  // Integer inputs: floor/round are the identity; clamp stays int with int
  // bounds and is f32 with a float bound.
  // NUMPY: expect(i + j)
  %fi = kf.floor %i : tensor<8xi32>
  %r10 = kf.add %fi, %j : tensor<8xi32>, tensor<8xi32>
  %u10 = tensor.cast %r10 : tensor<8xi32> to tensor<*xi32>
  call @show_i32(%u10) : (tensor<*xi32>) -> ()

  // NUMPY: expect(np.clip(i, -3, 5))
  %r11 = kf.clamp %i min(-3) max(5) : tensor<8xi32>
  %u11 = tensor.cast %r11 : tensor<8xi32> to tensor<*xi32>
  call @show_i32(%u11) : (tensor<*xi32>) -> ()

  // NUMPY: expect(np.maximum(i, 0.5))
  %r12 = kf.clamp %i min(0.5) : tensor<8xi32>
  %u12 = tensor.cast %r12 : tensor<8xf32> to tensor<*xf32>
  call @show_f32(%u12) : (tensor<*xf32>) -> ()

  // remainder and floor_divide: Python's rules, as numpy's; an integer divisor
  // of 0 gives 0 (numpy), INT_MIN // -1 wraps.
  // NUMPY: expect(np.remainder(i, j))
  %r13 = kf.remainder %i, %j : tensor<8xi32>, tensor<8xi32>
  %u13 = tensor.cast %r13 : tensor<8xi32> to tensor<*xi32>
  call @show_i32(%u13) : (tensor<*xi32>) -> ()

  // NUMPY: expect(np.floor_divide(i, j))
  %r14 = kf.floor_divide %i, %j : tensor<8xi32>, tensor<8xi32>
  %u14 = tensor.cast %r14 : tensor<8xi32> to tensor<*xi32>
  call @show_i32(%u14) : (tensor<*xi32>) -> ()

  // Floats: the divisor's sign (-7 % 3 = 2, 7 % -3 = -2), x % 0 = NaN,
  // -3 % inf = inf, -3 // inf = -1, 7 // 0 = inf.
  // NUMPY: expect(np.remainder(a, b))
  %r15 = kf.remainder %a, %b : tensor<9xf32>, tensor<9xf32>
  %u15 = tensor.cast %r15 : tensor<9xf32> to tensor<*xf32>
  call @show_f32(%u15) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.floor_divide(a, b))
  %r16 = kf.floor_divide %a, %b : tensor<9xf32>, tensor<9xf32>
  %u16 = tensor.cast %r16 : tensor<9xf32> to tensor<*xf32>
  call @show_f32(%u16) : (tensor<*xf32>) -> ()

  // f64 and a broadcast 0-d divisor.
  // NUMPY: expect(np.floor_divide(a.astype(np.float64), -2.5))
  %ad = kf.cast %a : tensor<9xf32> to f64
  %q = kf.floor_divide %ad, %m25 : tensor<9xf64>, tensor<f64>
  %r17 = kf.cast %q : tensor<9xf64> to f32
  %u17 = tensor.cast %r17 : tensor<9xf32> to tensor<*xf32>
  call @show_f32(%u17) : (tensor<*xf32>) -> ()

  // var and std: correction 1 (default) and 0; n <= correction gives inf
  // (a non-zero sum over 0) or NaN (0 / 0), as torch and numpy.
  // NUMPY: expect(np.var(M, axis=1, ddof=1))
  %r18 = kf.var %M dims [1] : tensor<3x4xf32>
  %u18 = tensor.cast %r18 : tensor<3xf32> to tensor<*xf32>
  call @show_f32(%u18) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.var(M, axis=1, ddof=0, keepdims=True))
  %r19 = kf.var %M dims [1] correction 0 keepdim : tensor<3x4xf32>
  %u19 = tensor.cast %r19 : tensor<3x1xf32> to tensor<*xf32>
  call @show_f32(%u19) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.std(M, ddof=1))
  %r20 = kf.std %M : tensor<3x4xf32>
  %u20 = tensor.cast %r20 : tensor<f32> to tensor<*xf32>
  call @show_f32(%u20) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.var(M, axis=0, ddof=3))
  %r21 = kf.var %M dims [0] correction 3 : tensor<3x4xf32>
  %u21 = tensor.cast %r21 : tensor<4xf32> to tensor<*xf32>
  call @show_f32(%u21) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.var(M, axis=1, ddof=5))
  %r22 = kf.var %M dims [1] correction 5 : tensor<3x4xf32>
  %u22 = tensor.cast %r22 : tensor<3xf32> to tensor<*xf32>
  call @show_f32(%u22) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.var(M[:1], axis=0, ddof=1))
  %M1 = kf.constant dense<[[1.0, 3.0, 3.0, 0.0]]> : tensor<1x4xf32>
  %r23 = kf.var %M1 dims [0] : tensor<1x4xf32>
  %u23 = tensor.cast %r23 : tensor<4xf32> to tensor<*xf32>
  call @show_f32(%u23) : (tensor<*xf32>) -> ()

  // A dynamic reduced dim: n is read at run time.
  // NUMPY: expect(np.std(M, axis=0, ddof=1))
  %Md = tensor.cast %M : tensor<3x4xf32> to tensor<?x4xf32>
  %r24 = kf.std %Md dims [0] : tensor<?x4xf32>
  %u24 = tensor.cast %r24 : tensor<4xf32> to tensor<*xf32>
  call @show_f32(%u24) : (tensor<*xf32>) -> ()

  // bf16 computes in f32, rounded once (8 bits of precision: rtol 2^-8).
  // NUMPY: expect(np.var(M, axis=1, ddof=1), 4e-3)
  %Mb = kf.cast %M : tensor<3x4xf32> to bf16
  %vb = kf.var %Mb dims [1] : tensor<3x4xbf16>
  %r25 = kf.cast %vb : tensor<3xbf16> to f32
  %u25 = tensor.cast %r25 : tensor<3xf32> to tensor<*xf32>
  call @show_f32(%u25) : (tensor<*xf32>) -> ()

  // rms_norm: default eps is finfo(f32).eps; with a weight; over two dims.
  // NUMPY: expect(M / np.sqrt((M * M).mean(axis=1, keepdims=True) + np.finfo(np.float32).eps) * w)
  %r26 = kf.rms_norm %M weight %w : tensor<4xf32> normalized_shape [4] : tensor<3x4xf32>
  %u26 = tensor.cast %r26 : tensor<3x4xf32> to tensor<*xf32>
  call @show_f32(%u26) : (tensor<*xf32>) -> ()

  // NUMPY: expect(M / np.sqrt((M * M).mean() + 0.5))
  %r27 = kf.rms_norm %M normalized_shape [3, 4] eps 0.5 : tensor<3x4xf32>
  %u27 = tensor.cast %r27 : tensor<3x4xf32> to tensor<*xf32>
  call @show_f32(%u27) : (tensor<*xf32>) -> ()

  // f16 input: f16's eps (2^-10) and a result rounded to f16.
  // NUMPY: expect((Z / np.sqrt((Z * Z).mean(axis=1, keepdims=True) + 2.0**-10)).astype(np.float16), 1e-3)
  %Zh = kf.cast %Z : tensor<2x4xf32> to f16
  %nh = kf.rms_norm %Zh normalized_shape [4] : tensor<2x4xf16>
  %r28 = kf.cast %nh : tensor<2x4xf16> to f32
  %u28 = tensor.cast %r28 : tensor<2x4xf32> to tensor<*xf32>
  call @show_f32(%u28) : (tensor<*xf32>) -> ()

  // batch_norm (inference): per channel of dim 1, with weight and bias.
  // NUMPY: expect((B - mu[None, :, None]) / np.sqrt(var[None, :, None] + 1e-5) * g[None, :, None] + be[None, :, None])
  %r29 = kf.batch_norm %B, %mu, %var weight %g : tensor<3xf32> bias %be : tensor<3xf32> : tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>
  %u29 = tensor.cast %r29 : tensor<2x3x2xf32> to tensor<*xf32>
  call @show_f32(%u29) : (tensor<*xf32>) -> ()

  // Rank 2, no weight or bias, eps 0.1.
  // NUMPY: expect((B[:, :, 0] - mu) / np.sqrt(var + 0.1))
  %B2 = kf.constant dense<[[1.0, -2.0, 0.5], [4.0, 0.0, -1.0]]> : tensor<2x3xf32>
  %r30 = kf.batch_norm %B2, %mu, %var eps 0.1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
  %u30 = tensor.cast %r30 : tensor<2x3xf32> to tensor<*xf32>
  call @show_f32(%u30) : (tensor<*xf32>) -> ()

  // argmax/argmin: the first index of ties; a NaN is both the maximum and
  // the minimum (its first index).
  // NUMPY: expect(np.argmax(T, axis=1))
  %r31 = kf.argmax %T dim 1 : tensor<3x4xf32>
  %u31 = tensor.cast %r31 : tensor<3xi64> to tensor<*xi64>
  call @show_i64(%u31) : (tensor<*xi64>) -> ()

  // NUMPY: expect(np.argmin(T, axis=1))
  %r32 = kf.argmin %T dim -1 : tensor<3x4xf32>
  %u32 = tensor.cast %r32 : tensor<3xi64> to tensor<*xi64>
  call @show_i64(%u32) : (tensor<*xi64>) -> ()

  // NUMPY: expect(np.argmin(T, axis=0)[None, :])
  %r33 = kf.argmin %T dim 0 keepdim : tensor<3x4xf32>
  %u33 = tensor.cast %r33 : tensor<1x4xi64> to tensor<*xi64>
  call @show_i64(%u33) : (tensor<*xi64>) -> ()

  // Without dim: the flattened index.
  // NUMPY: expect(np.argmax(T))
  %r34 = kf.argmax %T : tensor<3x4xf32>
  %u34 = tensor.cast %r34 : tensor<i64> to tensor<*xi64>
  call @show_i64(%u34) : (tensor<*xi64>) -> ()

  // NUMPY: expect(np.argmax(i))
  %r35 = kf.argmax %i dim 0 : tensor<8xi32>
  %u35 = tensor.cast %r35 : tensor<i64> to tensor<*xi64>
  call @show_i64(%u35) : (tensor<*xi64>) -> ()

  // NUMPY: expect(np.argmin(i))
  %r36 = kf.argmin %i : tensor<8xi32>
  %u36 = tensor.cast %r36 : tensor<i64> to tensor<*xi64>
  call @show_i64(%u36) : (tensor<*xi64>) -> ()

  // cat: along dim 0 with promotion (i32 -> f32), along the last dim, an
  // empty tensor, one tensor.
  // NUMPY: expect(np.concatenate([C, D.astype(np.float32)], axis=0))
  %r37 = kf.cat %C, %D dim 0 : tensor<2x3xf32>, tensor<1x3xi32>
  %u37 = tensor.cast %r37 : tensor<3x3xf32> to tensor<*xf32>
  call @show_f32(%u37) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.concatenate([C, C[:, :1], C], axis=1))
  %C1 = kf.constant dense<[[1.5], [-4.0]]> : tensor<2x1xf32>
  %r38 = kf.cat %C, %C1, %C dim -1 : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>
  %u38 = tensor.cast %r38 : tensor<2x7xf32> to tensor<*xf32>
  call @show_f32(%u38) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.concatenate([D, D], axis=0))
  %E = kf.constant dense<> : tensor<0x3xi32>
  %r39 = kf.cat %E, %D, %E, %D dim 0 : tensor<0x3xi32>, tensor<1x3xi32>, tensor<0x3xi32>, tensor<1x3xi32>
  %u39 = tensor.cast %r39 : tensor<2x3xi32> to tensor<*xi32>
  call @show_i32(%u39) : (tensor<*xi32>) -> ()

  // NUMPY: expect(C)
  %r40 = kf.cat %C dim 1 : tensor<2x3xf32>
  %u40 = tensor.cast %r40 : tensor<2x3xf32> to tensor<*xf32>
  call @show_f32(%u40) : (tensor<*xf32>) -> ()
  return
}
