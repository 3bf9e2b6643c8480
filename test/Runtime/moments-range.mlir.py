# Runs moments-range.mlir's functions through kfuse-run on the CPU and
# compares them with float64 references computed here.
import os
import subprocess
import sys

import numpy as np

out = sys.argv[1]
lib = os.path.join(out, "m.so")
rng = np.random.default_rng(27)


def run(entry, x, results=1):
    arg = os.path.join(out, f"{entry}_x.npy")
    np.save(arg, x)
    args = [sys.argv[2], lib, "--entry", entry, "--device=cpu", "--repeat=0",
            "--input", f"arg0={arg}"]
    paths = [os.path.join(out, f"{entry}_r{k}.npy") for k in range(results)]
    for k, p in enumerate(paths):
        args += ["--output", f"result{k}={p}"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return [np.load(p) for p in paths]


def layer_norm(x, eps=1e-5):
    x = x.astype(np.float64)
    c = x - x.mean(-1, keepdims=True)
    return c / np.sqrt((c * c).mean(-1, keepdims=True) + eps)


def close(got, want, rtol=1e-6, atol=0.0):
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= atol + rtol * np.abs(want)))


# Rows of constants that f32 cannot sum exactly: exactly 0.
for n in [37, 1000, 1023, 4099]:
    x = np.array([[v] * n for v in [0.7, 0.1, 1 / 3, 123.456, -2.3e-3]], np.float32)
    (y,) = run(f"ln{n}", x)
    print("constant rows", n, "ok" if not np.any(y) else f"MISMATCH (max |y| {np.abs(y).max()})")

# Rows whose deviations square past f32's range.
huge = np.array([[3e38, -3e38] * 4, [3.4e38] * 8, [3e38, 3e38, -3e38, -1e38] * 2,
                 [-3.4e38] * 7 + [3.4e38]], np.float32)
(y,) = run("ln8", huge)
print("huge rows", "ok" if close(y, layer_norm(huge)) else f"MISMATCH\n{y}\n{layer_norm(huge)}")

# Normal values scaled so that their f32 squares overflow, or underflow:
# layer_norm, rms_norm and std are representable (var is not: 1e40 is inf
# and 1e-50 is 0 in f32, rightly); var is checked on values of 1e18, whose
# squares' f32 sum overflows although the variance, 1e36, does not.
for scale in [1e20, 1e-25]:
    x = (rng.standard_normal((6, 1000)) * scale).astype(np.float32)
    x64 = x.astype(np.float64)
    (ln,) = run("ln1000", x)
    _, s = run("var_std", x, results=2)
    (rms,) = run("rms", x)
    rms_want = x64 / np.sqrt((x64 * x64).mean(-1, keepdims=True) + np.finfo(np.float32).eps)
    checks = [close(ln, layer_norm(x), atol=1e-6), close(s, x64.std(-1)),
              close(rms, rms_want, atol=1e-6)]
    print("scale", f"{scale:g}", "ok" if all(checks) else f"MISMATCH {checks}")
x = (rng.standard_normal((6, 1000)) * 1e18).astype(np.float32)
v, _ = run("var_std", x, results=2)
want = x.astype(np.float64).var(-1, ddof=1)
print("var 1e+18", "ok" if close(v, want) else f"MISMATCH\n{v}\n{want}")
