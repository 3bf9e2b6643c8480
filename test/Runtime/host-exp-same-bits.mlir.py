# Runs host-exp-same-bits.mlir's three functions on the same inputs with
# kfuse-run on the CPU; compares them bit for bit, and with numpy's float64
# exp in ulp of the f32 result.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from kfuse_run_entry import run_entry  # noqa: E402

out = sys.argv[1]
lib = os.path.join(out, "p.so")
rng = np.random.default_rng(29)


def run(entry, inputs):
    return run_entry(sys.argv[2], lib, entry, inputs, out)


x = rng.uniform(-87.0, 88.5, (5, 1003)).astype(np.float32)
x[0, :6] = [0.0, -0.0, np.nan, -np.inf, np.inf, -104.5]
x[4, -1] = 88.72  # the last element: a pointwise kernel's scalar tail
# Around the flush to 0: below -104 the lanes compute exp(0) and give 0
# (exp(-104) < 2^-150 rounds to 0 in f32), above it subnormal results.
x[1, :6] = [-104.0, -104.001, -103.9, -100.0, -90.0, -3.4e38]
zero = np.zeros((5, 1), np.float32)

a = run("pointwise_exp", [x])
b = run("row_exp", [x])
c = run("broadcast_exp", [x, zero])


def same(p, q):
    nan = np.isnan(q)
    return bool((np.isnan(p) == nan).all()) and p[~nan].tobytes() == q[~nan].tobytes()


print("pointwise and row:", "same bits" if same(a, b) else "DIFFER")
print("pointwise and broadcast:", "same bits" if same(a, c) else "DIFFER")

finite = np.isfinite(x) & (x > -87.33) & (x < 88.72)
exact = np.exp(x[finite].astype(np.float64))
ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
err = np.abs(a[finite].astype(np.float64) - exact) / ulp
print("within 1.01 ulp of float64 exp:", "yes" if err.max() <= 1.01 else f"NO ({err.max()})")
row0 = a[0, :6]
ok = (row0[0] == 1 and row0[1] == 1 and np.isnan(row0[2]) and row0[3] == 0 and
      np.isinf(row0[4]) and row0[4] > 0 and row0[5] == 0)
print("specials:", "ok" if ok else f"WRONG {row0}")
# The subnormal range, against float64 exp rounded to f32: within one
# subnormal step (1.4e-45), zero where the rounded value is.
row1, want = a[1, :6].astype(np.float64), np.exp(x[1, :6].astype(np.float64)).astype(np.float32)
low = (np.abs(row1 - want) <= 1.5e-45).all() and (row1[[0, 1, 5]] == 0).all() and row1[2] > 0
print("subnormals:", "ok" if low else f"WRONG {row1} against {want}")
