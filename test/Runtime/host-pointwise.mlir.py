# Runs host-pointwise.mlir's functions through kfuse-run on the CPU and
# compares each with numpy, bit for bit (one rounding per op either way).
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from kfuse_run_entry import run_entry  # noqa: E402

out = sys.argv[1]
lib = os.path.join(out, "p.so")
rng = np.random.default_rng(0)


def run(entry, inputs):
    return run_entry(sys.argv[2], lib, entry, inputs, out)


def same(a, b):
    """Bit for bit (so -0 is not +0), but a NaN's sign and payload are free
    (a conversion through f32 may give the canonical NaN)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    nan = np.isnan(b)
    return bool((np.isnan(a) == nan).all()) and a[~nan].tobytes() == b[~nan].tobytes()


def specials(n, dtype):
    x = rng.standard_normal(n).astype(dtype)
    x[: min(n, 4)] = np.array([-0.0, np.nan, -np.inf, np.inf], dtype)[: min(n, 4)]
    return x


for n in [1, 7, 8, 9, 16383, 16384, 16385, 50001]:
    x, y = specials(n, np.float32), rng.standard_normal(n).astype(np.float32)
    y[: min(n, 1)] = -0.0  # 2 * -0 + -0 = -0: relu keeps it
    s = x * np.float32(2) + y
    want = np.where(s < 0, np.float32(0), s)
    print("f32", n, "ok" if same(run("fma_relu", [x, y]), want) else "MISMATCH")

for n in [1, 5, 16389]:
    x, y = specials(n, np.float32), rng.standard_normal(n)
    want = x.astype(np.float64) - y
    print("f64", n, "ok" if same(run("widen", [x, y]), want) else "MISMATCH")

for n in [17, 16400]:
    x, y = specials(n, np.float16), rng.standard_normal(n).astype(np.float16)
    want = -(x * y)
    print("f16", n, "ok" if same(run("half", [x, y]), want) else "MISMATCH")

for shape in [(1, 1), (3, 17), (5, 16384), (2, 20000), (700, 33), (0, 9)]:
    x = rng.standard_normal(shape).astype(np.float32)
    bias = rng.standard_normal(shape[1]).astype(np.float32)
    scale = rng.standard_normal((shape[0], 1)).astype(np.float32)
    want = (x + bias) * scale
    print("bias", shape, "ok" if same(run("bias", [x, bias, scale]), want) else "MISMATCH")

for shape in [(1, 1), (33, 65), (64, 32), (0, 5)]:
    x = rng.standard_normal(shape).astype(np.float32)
    print("tr", shape, "ok" if same(run("tr", [x]), np.ascontiguousarray(x.T)) else "MISMATCH")

for shape in [(2, 64, 96), (3, 40, 70)]:
    x = specials(int(np.prod(shape)), np.float32).reshape(shape)
    bias = rng.standard_normal(shape[1]).astype(np.float32)
    y = np.ascontiguousarray(x.transpose(0, 2, 1)) + bias
    want = np.where(y < 0, np.float32(0), y)
    print("trb", shape, "ok" if same(run("trb", [x, bias]), want) else "MISMATCH")

for shape in [(3, 33, 40), (2, 1, 70)]:
    x = specials(int(np.prod(shape)), np.float32).reshape(shape)
    t = np.ascontiguousarray(x.transpose(2, 0, 1))
    want = np.where(t < 0, np.float32(0), t)
    print("tr3", shape, "ok" if same(run("tr3", [x]), want) else "MISMATCH")
