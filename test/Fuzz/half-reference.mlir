// f16 and bf16 programs rich in reductions (sum, mean, max, min, matmul,
// softmax, log_softmax, layer_norm among well-conditioned elementwise ops;
// test/harness/kf_gen.py HalfProgram) against the same programs with f32
// types run unfused: inputs are exact in all three, and each result must be
// within the bound the generator derived for it: one rounding of the result
// (rtol 2 * 2^-11 f16, 2 * 2^-8 bf16) plus what the roundings of its inputs
// carry (atol). It guards kfuse's half numerics: sums, means and matmuls
// accumulated in f32, softmax, log_softmax and layer_norm computed in f32,
// each rounded once (accumulating in f16 fails it: half-reference-sum.mlir).
// Fused on the CPU (seed 31) and through the GPU mappings run by
// kf-emulate-gpu-launches (seed 32; every program maps). Any seed and
// count:
//   python3 test/harness/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
//     --runner '...mlir-runner...' --half-reference --seed 101 --count 200
// RUN: %kf-fuzz --half-reference --seed 31 --count 60 | FileCheck %s --check-prefix=CPU
// CPU: kf-fuzz: 60 passed, 0 failed (seed 31; {{[0-9]+}} with dynamic dims; {{[0-9]+}} f16, {{[0-9]+}} bf16)
// RUN: %kf-fuzz --half-reference --seed 32 --count 30 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   | FileCheck %s --check-prefix=GPU
// GPU: kf-fuzz: 30 passed, 0 failed (seed 32;
