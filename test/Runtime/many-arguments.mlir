// kfuse-run calls an entry with one pointer per argument and result (and
// one for the results): up to 64, through callers made at compile time (it
// stopped at 12 before, which 3 of 100 random programs exceeded).
// 20 arguments summed, checked against numpy; then 70 arguments: refused
// with the count and the limit, exit 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "n = 20; args = ', '.join(f'%%a{i}: tensor<5xf32>' for i in range(n)); body = ''.join(f'  %%s{i} = kf.add %%s{i - 1}, %%a{i} : tensor<5xf32>, tensor<5xf32>\n' for i in range(1, n)).replace('%%s0,', '%%a0,'); print(f'func.func @sum20({args}) -> tensor<5xf32> {{\n{body}  return %%s{n - 1} : tensor<5xf32>\n}}')" > %t/sum20.mlir
// RUN: %run-check %t/sum20.mlir \
// RUN:   --input "arg0=f32[5]" --input "arg1=f32[5]" --input "arg2=f32[5]" --input "arg3=f32[5]" \
// RUN:   --input "arg4=f32[5]" --input "arg5=f32[5]" --input "arg6=f32[5]" --input "arg7=f32[5]" \
// RUN:   --input "arg8=f32[5]" --input "arg9=f32[5]" --input "arg10=f32[5]" --input "arg11=f32[5]" \
// RUN:   --input "arg12=f32[5]" --input "arg13=f32[5]" --input "arg14=f32[5]" --input "arg15=f32[5]" \
// RUN:   --input "arg16=f32[5]" --input "arg17=f32[5]" --input "arg18=f32[5]" --input "arg19=f32[5]" \
// RUN:   --expect "sum([arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, arg10, arg11, arg12, arg13, arg14, arg15, arg16, arg17, arg18, arg19])" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s
// CHECK: run_check: result0 float32[5] matches numpy
// RUN: %python -c "n = 70; args = ', '.join(f'%%a{i}: tensor<5xf32>' for i in range(n)); print(f'func.func @many({args}) -> tensor<5xf32> {{\n  return %%a0 : tensor<5xf32>\n}}')" > %t/many.mlir
// RUN: not kfuse-run %t/many.mlir --device=cpu 2>&1 | FileCheck %s --check-prefix=TOOMANY
// TOOMANY: kfuse-run: error: many takes 71 pointers (70 arguments, the results); kfuse-run passes at most 64
func.func private @none()
