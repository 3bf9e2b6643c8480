// The host runtime's row kernels (kfuse-run --device=cpu: the vector passes
// of HostRowEmitter) take the moments of layer_norm, rms_norm, var and std
// of f32 in f64 (issue 27, items 4 and 5), against float64 references
// computed by moments-range.mlir.py: constant rows of values f32 cannot sum
// exactly (0.7, 0.1, 1/3, 123.456) normalize to exactly 0 at row lengths
// around the vector width and the block; rows of +-3e38 to +-1; rows of
// normal values times 1e20 (squares past f32) and times 1e-25 (squares
// below its denormals) give their float64 std, layer_norm and rms_norm
// within 1e-6, and times 1e18 their var (a sum of squares past f32).
// Before, the constant rows gave up to 3.8e-05, the 3e38 rows 0, std of
// the 1e20 rows inf and of the 1e-25 rows 0, var of the 1e18 rows inf,
// layer_norm and rms_norm of the 1e20 rows 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/m.so
// RUN: %python %s.py %t kfuse-run | FileCheck %s

// CHECK: constant rows 37 ok
// CHECK: constant rows 1000 ok
// CHECK: constant rows 1023 ok
// CHECK: constant rows 4099 ok
// CHECK: huge rows ok
// CHECK: scale 1e+20 ok
// CHECK: scale 1e-25 ok
// CHECK: var 1e+18 ok
// CHECK-NOT: MISMATCH

func.func @ln37(%x: tensor<?x37xf32>) -> tensor<?x37xf32> {
  %y = kf.layer_norm %x normalized_shape [37] eps 1.0e-5 : tensor<?x37xf32>
  return %y : tensor<?x37xf32>
}
func.func @ln1000(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %y = kf.layer_norm %x normalized_shape [1000] eps 1.0e-5 : tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}
func.func @ln1023(%x: tensor<?x1023xf32>) -> tensor<?x1023xf32> {
  %y = kf.layer_norm %x normalized_shape [1023] eps 1.0e-5 : tensor<?x1023xf32>
  return %y : tensor<?x1023xf32>
}
func.func @ln4099(%x: tensor<?x4099xf32>) -> tensor<?x4099xf32> {
  %y = kf.layer_norm %x normalized_shape [4099] eps 1.0e-5 : tensor<?x4099xf32>
  return %y : tensor<?x4099xf32>
}
func.func @ln8(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %y = kf.layer_norm %x normalized_shape [8] eps 1.0e-5 : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
// var (correction 1) and std (correction 0) over a dynamic row length: n
// is counted in the kernel.
func.func @var_std(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %v = kf.var %x dims [1] : tensor<?x?xf32>
  %s = kf.std %x dims [1] correction 0 : tensor<?x?xf32>
  return %v, %s : tensor<?xf32>, tensor<?xf32>
}
func.func @rms(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %y = kf.rms_norm %x normalized_shape [1000] : tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}
