"""The benchmark's constants: peaks, dtypes, tolerances, the model sizes, the sweep."""
import os
import re

import numpy as np

# bench/ (or a bundle's root): gpu_bench.py, gpu/*.mlir, models.py.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PEAK_TFLOPS = {"f16": 989.0, "bf16": 989.0, "f32": 67.0}  # H200 SXM, dense

NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16}

BYTES = {"f32": 4, "f16": 2, "bf16": 2}

TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 3e-2}  # of max |reference|

TEMPLATE_FAMILIES = ("softmax", "layer_norm", "matmul", "transpose", "add_relu", "softmax_t",
                     "softmax_t_unfused")

# A family built from another's template with its own kfuse-compile
# options: softmax(x).t().contiguous() as one kernel (the
# transposed-epilogue rule: the row kernel writes each row down a column,
# stride R) and as the row kernel and a transpose kernel, side by side.
FAMILY_TEMPLATE = {"softmax_t_unfused": "softmax_t"}
FAMILY_COMPILE_ARGS = {"softmax_t_unfused": ["--fusion=transposed-epilogue=false"]}

# torch.compile of a lone matmul calls cuBLAS, as torch eager does: not timed.
NO_COMPILE_FAMILIES = ("matmul",)

# bench/models.py's sizes (its environment variables), set explicitly on
# both sides: kfuse-import at --build, the reference module on the GPU.
# "full" is models.py's defaults (issue 25's sizes).
MODEL_SIZES = {
    "full": dict(GPT2_B=8, GPT2_T=512, GPT2_D=768, LLAMA_ROWS=4096, LLAMA_D=2048,
                 LLAMA_HIDDEN=5632),
    "dry": dict(GPT2_B=1, GPT2_T=8, GPT2_D=24, LLAMA_ROWS=4, LLAMA_D=8, LLAMA_HIDDEN=16),
}

MODEL_NAMES = ("gpt2_block", "llama_mlp")

GPT2_HEADS = 12  # models.GPT2Block's default

# The tile sweep's matmuls (kept few: a library a SPEC travels in the
# bundle), in the order they run: a size's SPECs one after another, so that
# a sweep cut short by its time still compares whole sizes. f32 without
# TF32 may not be a tensor-core kernel (then the tiles change nothing).
SWEEP_MATMULS = {
    "full": [("f16", 4096), ("bf16", 4096), ("f16", 8192), ("bf16", 8192), ("f16", 2048),
             ("bf16", 2048), ("f16", 1024)],
    "dry": [("f16", 32), ("bf16", 32), ("f32", 32)],
}

SPEC_RE = re.compile(r"^\d+x\d+x\d+/\d+x\d+/\d+(/\d+)?$")

# A sweep entry that is a chip, not tiles: the same matmuls for sm_90a,
# where f16 and bf16 `a @ b` take the wgmma kernel (MatmulWgmma.cpp).
CHIP_SPECS = {"sm_90a": ["--gpu-chip=sm_90a"]}

PREFIX = "KFUSE-BENCH "  # a worker's messages on its stdout
