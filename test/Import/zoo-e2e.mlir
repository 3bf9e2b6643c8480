// REQUIRES: torch
// The model catalogue (importer/kfuse_import/zoo.py), imported and run with
// kfuse-run on the CPU (--input-dir), each result compared with PyTorch's on
// the same inputs (Inputs/run_e2e.py); the dynamic batch runs at two sizes.
// RUN: rm -rf %t && %torch-python %S/Inputs/run_e2e.py --kfuse-run %kfuse_obj/bin/kfuse-run --work %t --catalogue zoo --also-constants mlp 2>&1 | FileCheck %s

// CHECK: mlp: ok, 1 result, max abs error {{.*}} (rtol 1e-05, atol 1e-05)
// CHECK: mlp with weights as constants: ok, 1 result
// CHECK: attention: ok, 1 result
// CHECK: layer_norm: ok, 1 result
// CHECK: rms_norm: ok, 1 result
// CHECK: rms_norm_module: ok, 1 result
// CHECK: gelu_mlp: ok, 1 result
// CHECK: swiglu_mlp: ok, 1 result
// CHECK: residual_block: ok, 1 result
// CHECK: cross_entropy: ok, 1 result
// CHECK: mlp_dynamic_batch: ok, 1 result
// CHECK: mlp_dynamic_batch at batch 3: ok, 1 result
// CHECK: layer_norm_bf16: ok, 1 result, max abs error {{.*}} (rtol 0.02, atol 0.02)
// CHECK: gelu_mlp_f16: ok, 1 result, max abs error {{.*}} (rtol 0.002, atol 0.002)
// Deeper models against the model in float64: within 10x PyTorch's error.
// CHECK: tiny_resnet: ok, 1 result, error {{.*}} against float64, PyTorch float32's {{.*}} (bound 10x)
// CHECK: tiny_gpt2: ok, 1 result, error {{.*}} against float64, PyTorch float32's {{.*}} (bound 10x)
// CHECK-NOT: FAIL
