// Matmul and transpose kernels run on the CPU through kfuse-run (tiles of
// the result spread over the cores), checked against numpy and against the
// unfused program; sizes that are not multiples of the 16x16 tile.
// RUN: %run-check %S/../GPU/matmul-kernels.mlir --input "arg0=f32[37x50]" --input "arg1=f32[50x23]" \
// RUN:   --input "arg2=f32[23]" --expect "np.maximum(arg0 @ arg1 + arg2, 0)" \
// RUN:   -- --entry=linear_relu --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=LINEAR
// LINEAR: kernels {{ *}}3 {{ *}}1
// LINEAR: check against the CPU, unfused: {{.*}}: ok
// LINEAR: run_check: result0 float32[37, 23] matches numpy
// RUN: %run-check %S/../GPU/matmul-kernels.mlir --input "arg0=f32[37x23]" --expect "arg0.T" \
// RUN:   -- --entry=transpose --device=cpu --repeat=0 | FileCheck %s --check-prefix=TRANSPOSE
// TRANSPOSE: run_check: result0 float32[23, 37] matches numpy
func.func private @none()
