// Byte counts that need a size computed from the argument dims: the rows of
// a [d0, 2] tensor reshaped to rows of 8 are (2*d0) / 8 (a symbol the
// manifest names by that expression). At d0 = 12 that is 3 rows of 8
// bf16: cos reads the 24 elements and writes 24, sin the same; eager
// 4 * 48 = 192 bytes, fused 96. They printed as "?" before.
// RUN: kfuse-run %s --device=cpu --dim d0=12 --repeat=1 | FileCheck %s
// CHECK: kernels 2 1
// CHECK: bytes 192 B 96 B
// CHECK: pointwise_cos_sin_0 1 {{.*}} 96 B
func.func @rows_of_eight(%x: tensor<?x2xbf16>) -> tensor<?x8xbf16> {
  %0 = kf.reshape %x [-1, 8] : tensor<?x2xbf16>
  %1 = kf.cos %0 : tensor<?x8xbf16>
  %2 = kf.sin %1 : tensor<?x8xbf16>
  return %2 : tensor<?x8xbf16>
}
