// REQUIRES: torch-zoo
// Issue 28's zoo: 11 real architectures as transformers, timm and torchvision
// build them (importer/kfuse_import/zoo_real.py: small configurations, random
// weights, nothing downloaded), imported unmodified, run with kfuse-run on the
// CPU and checked against the model itself in float64: kfuse's error must be
// within 10x PyTorch's own float32 error (Inputs/run_e2e.py). They need
// what earlier kfuse refused: embeddings, F.scaled_dot_product_attention
// (causal, GQA, masks), transformers' mask builders (cumsum and integer
// gathers of constants, folded at import), convolutions, pooling heads.
// RUN: rm -rf %t && HF_HUB_OFFLINE=1 %torch-python %S/Inputs/run_e2e.py --kfuse-run %kfuse_obj/bin/kfuse-run --work %t --catalogue real 2>&1 | FileCheck %s

// CHECK: gpt2: ok, 1 result, error {{.*}} against float64, PyTorch float32's {{.*}} (bound 10x)
// CHECK: llama: ok, 1 result, error
// CHECK: mistral: ok, 1 result, error
// CHECK: bert: ok, 2 results, error
// CHECK: t5_encoder: ok, 1 result, error
// CHECK: hf_vit: ok, 2 results, error
// CHECK: timm_vit_tiny: ok, 1 result, error
// CHECK: timm_convnext_tiny: ok, 1 result, error
// CHECK: timm_mixer: ok, 1 result, error
// CHECK: torchvision_resnet18: ok, 1 result, error
// CHECK: llama_block_sdpa: ok, 1 result, error
// CHECK-NOT: FAIL
