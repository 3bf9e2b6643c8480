// The four versions of each function in a library (--emit=lib) are named
// <function>__<variant>. A private callee kept its own name in all four
// objects, and the link failed ("multiple definition of `g'"); a function
// named f__host_fused beside f took the host version's name. Every defined
// function is now renamed per variant (longer names first), and each
// function computes what it says, checked against numpy.
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[37]" --input "arg1=f32[37]" \
// RUN:   --expect "np.maximum(arg0 + arg1, 0) * arg1" \
// RUN:   -- --entry f --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=F
// F: check against the CPU, unfused: {{.*}}: ok
// F: run_check: result0 float32[37] matches numpy
// RUN: %run-check %t.so --input "arg0=f32[37]" --input "arg1=f32[37]" \
// RUN:   --expect "arg0 - arg1" \
// RUN:   -- --entry f__host_fused --device=cpu --repeat=0 --check \
// RUN:   | FileCheck %s --check-prefix=NAMED
// NAMED: check against the CPU, unfused: {{.*}}: ok
// NAMED: run_check: result0 float32[37] matches numpy
// Only the public functions are entries.
// RUN: not kfuse-run %t.so --entry g --device=cpu 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: error: {{.*}}g
func.func private @g(%a: tensor<37xf32>) -> tensor<37xf32> {
  %0 = kf.relu %a : tensor<37xf32>
  return %0 : tensor<37xf32>
}

func.func @f(%a: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<37xf32> {
  %0 = kf.add %a, %b : tensor<37xf32>, tensor<37xf32>
  %1 = func.call @g(%0) : (tensor<37xf32>) -> tensor<37xf32>
  %2 = kf.mul %1, %b : tensor<37xf32>, tensor<37xf32>
  return %2 : tensor<37xf32>
}

func.func @f__host_fused(%a: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<37xf32> {
  %0 = kf.sub %a, %b : tensor<37xf32>, tensor<37xf32>
  return %0 : tensor<37xf32>
}
