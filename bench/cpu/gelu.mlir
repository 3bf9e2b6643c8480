// F.gelu(x) (exact: 0.5 x (1 + erf(x / sqrt 2))) over N elements: the
// activation of GPT-2 and BERT MLPs, whose erf is the math the CPU code
// computes itself (kf-host-math) or calls libm for.
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @gelu(%x: tensor<${N}xf32>) -> tensor<${N}xf32> {
  %y = kf.gelu %x : tensor<${N}xf32>
  return %y : tensor<${N}xf32>
}
