# Runs attention-host.mlir's functions through kfuse-run on the CPU and
# compares each with numpy's attention in float64.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from kfuse_run_entry import run_entry  # noqa: E402

out = sys.argv[1]
lib = os.path.join(out, "a.so")
rng = np.random.default_rng(0)


def run(entry, inputs, tag):
    return run_entry(sys.argv[2], lib, entry, inputs, out, tag, extra=["--warmup=0"])


def attention(q, k, v, mask, scale):
    s = (q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64)) * scale + mask
    with np.errstate(invalid="ignore"):
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
    return p @ v.astype(np.float64)


def close(got, want, v):
    nan = np.isnan(want)
    atol = 1e-5 * np.abs(v).max()
    return bool((np.isnan(got) == nan).all()) and np.allclose(got[~nan], want[~nan], rtol=0, atol=atol)


for m, n in [(1, 1), (16, 31), (17, 32), (70, 33), (5, 70)]:
    q = rng.standard_normal((2, m, 8)).astype(np.float32)
    k = rng.standard_normal((2, n, 8)).astype(np.float32)
    v = rng.standard_normal((2, n, 4)).astype(np.float32)
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    masked = (j > i + n // 2) | ((i == 3) if n > 1 else False) | ((i % 5 == 1) & (j < 40) & (n > 40))
    mask = np.where(masked, -np.inf, rng.uniform(-1, 1, (m, n))).astype(np.float32)
    got = run("masked", [q, k, v, mask], f"{m}x{n}")
    want = attention(q, k, v, mask.astype(np.float64), np.float64(np.float32(0.35355339)))
    print("masked", (m, n), "ok" if close(got, want, v) else f"MISMATCH {np.nanmax(np.abs(got - want))}")

qkv = rng.standard_normal((2, 16, 96)).astype(np.float32)
mask = np.triu(np.full((16, 16), -np.inf, np.float32), 1)
got = run("heads", [qkv, mask], "gpt2")
heads = lambda x: x.reshape(2, 16, 4, 8).transpose(0, 2, 1, 3)
q, k, v = heads(qkv[..., :32]), heads(qkv[..., 32:64]), heads(qkv[..., 64:])
want = attention(q, k, v, mask.astype(np.float64), 1 / np.float64(np.float32(2.828)))
want = want.transpose(0, 2, 1, 3).reshape(2, 16, 32)
print("heads", "ok" if close(got, want, v) else f"MISMATCH {np.nanmax(np.abs(got - want))}")

q, k, v = (rng.standard_normal((2, 16, 8)).astype(np.float32) for _ in range(3))
keep = rng.uniform(size=(2, 16, 16)) < 0.5
keep[0, 3, :] = False  # masked whole: zeros
keep[1, 7, :] = False
keep[1, 9, :20] = False  # (no-op beyond 16 keys) masked whole too
got = run("safe", [q, k, v, keep], "safe")
want = attention(q, k, v, np.where(keep, 0.0, -np.inf), 0.25)
want[~keep.any(-1)] = 0.0  # PyTorch's safe softmax
ok = close(got, want, v) and (got[0, 3] == 0).all() and (got[1, 7] == 0).all() and (got[1, 9] == 0).all()
print("safe", "ok" if ok else f"MISMATCH {np.nanmax(np.abs(got - want))}")
