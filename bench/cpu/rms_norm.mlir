// F.rms_norm(x, [C], eps=1e-6) without weight: x * rsqrt(mean(x * x) + eps)
// over the rows of an R x C matrix (kf has no rms_norm op; these primitives
// are what kfuse-import writes for it).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @rms_norm(%x: tensor<${R}x${C}xf32>) -> tensor<${R}x${C}xf32> {
  %sq = kf.mul %x, %x : tensor<${R}x${C}xf32>, tensor<${R}x${C}xf32>
  %ms = kf.mean %sq dims [1] keepdim : tensor<${R}x${C}xf32>
  %eps = kf.constant dense<1.0e-06> : tensor<f32>
  %v = kf.add %ms, %eps : tensor<${R}x1xf32>, tensor<f32>
  %r = kf.rsqrt %v : tensor<${R}x1xf32>
  %y = kf.mul %x, %r : tensor<${R}x${C}xf32>, tensor<${R}x1xf32>
  return %y : tensor<${R}x${C}xf32>
}
