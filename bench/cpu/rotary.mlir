// A rotary position embedding as transformers' Llama and Mistral apply it
// to queries: q [B, T, H, D] split into heads [B, H, T, D], then
// q * cos + rotate_half(q) * sin, rotate_half(q) = cat(-q[..., D/2:],
// q[..., :D/2]). kfuse fuses it into one kernel whose kf.cat reads q at
// d mod (D/2) + D/2 and d mod (D/2) along the row.
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @rotary(%q: tensor<${B}x${T}x${H}x${D}xf32>, %cos: tensor<${T}x${D}xf32>, %sin: tensor<${T}x${D}xf32>) -> tensor<${B}x${H}x${T}x${D}xf32> {
  %t = kf.transpose %q [0, 2, 1, 3] : tensor<${B}x${T}x${H}x${D}xf32>
  %hi = kf.slice %t starts [0, 0, 0, ${HALF}] ends [${B}, ${H}, ${T}, ${D}] steps [1, 1, 1, 1] : tensor<${B}x${H}x${T}x${D}xf32>
  %lo = kf.slice %t starts [0, 0, 0, 0] ends [${B}, ${H}, ${T}, ${HALF}] steps [1, 1, 1, 1] : tensor<${B}x${H}x${T}x${D}xf32>
  %n = kf.neg %hi : tensor<${B}x${H}x${T}x${HALF}xf32>
  %r = kf.cat %n, %lo dim 3 : tensor<${B}x${H}x${T}x${HALF}xf32>, tensor<${B}x${H}x${T}x${HALF}xf32>
  %a = kf.mul %t, %cos : tensor<${B}x${H}x${T}x${D}xf32>, tensor<${T}x${D}xf32>
  %b = kf.mul %r, %sin : tensor<${B}x${H}x${T}x${D}xf32>, tensor<${T}x${D}xf32>
  %y = kf.add %a, %b : tensor<${B}x${H}x${T}x${D}xf32>, tensor<${B}x${H}x${T}x${D}xf32>
  return %y : tensor<${B}x${H}x${T}x${D}xf32>
}
