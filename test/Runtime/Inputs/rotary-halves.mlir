// A rotary position embedding as Llama and Mistral apply it (transformers'
// apply_rotary_pos_emb): q [B, T, H, D] split into heads [B, H, T, D], then
// q * cos + rotate_half(q) * sin, where rotate_half(q) is
// cat(-q[..., D/2:], q[..., :D/2]) along D. Fused, kf.cat reads q at
// d mod (D/2) + D/2 and d mod (D/2) along the row.
func.func @rotary(%q: tensor<2x5x3x16xf32>, %cos: tensor<5x16xf32>, %sin: tensor<5x16xf32>) -> tensor<2x3x5x16xf32> {
  %t = kf.transpose %q [0, 2, 1, 3] : tensor<2x5x3x16xf32>
  %hi = kf.slice %t starts [0, 0, 0, 8] ends [2, 3, 5, 16] steps [1, 1, 1, 1] : tensor<2x3x5x16xf32>
  %lo = kf.slice %t starts [0, 0, 0, 0] ends [2, 3, 5, 8] steps [1, 1, 1, 1] : tensor<2x3x5x16xf32>
  %n = kf.neg %hi : tensor<2x3x5x8xf32>
  %r = kf.cat %n, %lo dim 3 : tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>
  %a = kf.mul %t, %cos : tensor<2x3x5x16xf32>, tensor<5x16xf32>
  %b = kf.mul %r, %sin : tensor<2x3x5x16xf32>, tensor<5x16xf32>
  %y = kf.add %a, %b : tensor<2x3x5x16xf32>, tensor<2x3x5x16xf32>
  return %y : tensor<2x3x5x16xf32>
}

// Rows of 8: halves of 4, so vectors of 4 lanes; 13 rows of 7 tokens
// (a tail of 3 in the last block of rows, none along the row).
func.func @rotary8(%q: tensor<13x7x8xf32>, %cos: tensor<7x8xf32>, %sin: tensor<7x8xf32>) -> tensor<13x7x8xf32> {
  %hi = kf.slice %q starts [0, 0, 4] ends [13, 7, 8] steps [1, 1, 1] : tensor<13x7x8xf32>
  %lo = kf.slice %q starts [0, 0, 0] ends [13, 7, 4] steps [1, 1, 1] : tensor<13x7x8xf32>
  %n = kf.neg %hi : tensor<13x7x4xf32>
  %r = kf.cat %n, %lo dim 2 : tensor<13x7x4xf32>, tensor<13x7x4xf32>
  %a = kf.mul %q, %cos : tensor<13x7x8xf32>, tensor<7x8xf32>
  %b = kf.mul %r, %sin : tensor<13x7x8xf32>, tensor<7x8xf32>
  %y = kf.add %a, %b : tensor<13x7x8xf32>, tensor<13x7x8xf32>
  return %y : tensor<13x7x8xf32>
}
