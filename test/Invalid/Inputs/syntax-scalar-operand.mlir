func.func @f(%a: f32, %b: f32) -> f32 {
  %0 = kf.add %a, %b : f32, f32
  %1 = kf.relu %0 : f32
  return %1 : f32
}
