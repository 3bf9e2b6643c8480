# Measures how far each f32 math op of kfuse's CPU code is from the exact
# value, in units in the last place (ulp) of the f32 result, over 2^20
# points an op (seeded: half uniform over the op's inputs, half random f32
# bit patterns in them, plus zeros, denormals and the ends), against numpy's
# float64 functions. Asserts the bound that docs/reference/accuracy.md
# states for the op (the table is read from the document, so the two cannot
# drift apart) and prints the measured maximum.
#
# Inputs a denser search found hardest (HARD) are measured too.
#
# usage: ulp-bounds.mlir.py OUT_DIR KFUSE_RUN [--points N] [--measure]
# (--measure prints every op's maximum and the worst input, bound or not.)
import math
import os
import re
import subprocess
import sys

import numpy as np

F32 = np.finfo(np.float32)
TINY = float(np.float32(2.0 ** -149))  # the smallest denormal

# op -> (inputs lo, hi, float64 reference). Inputs are where the result is
# a normal f32 or an overflow (see the document's "inputs" column).
OPS = {
    "exp": (-87.33, 88.72, np.exp),
    "exp2": (-126.0, 127.99, np.exp2),
    "expm1": (-100.0, 88.72, np.expm1),
    "log": (TINY, float(F32.max), np.log),
    "log1p": (-1.0 + 2.0 ** -24, float(F32.max), np.log1p),
    "sqrt": (0.0, float(F32.max), np.sqrt),
    "rsqrt": (TINY, float(F32.max), lambda x: 1.0 / np.sqrt(x)),
    "reciprocal": (-float(F32.max), float(F32.max), lambda x: 1.0 / x),
    "tanh": (-float(F32.max), float(F32.max), np.tanh),
    "sigmoid": (-87.0, float(F32.max), lambda x: 1.0 / (1.0 + np.exp(-x))),
    "silu": (-87.0, float(F32.max), lambda x: x / (1.0 + np.exp(-x))),
    "sin": (-float(F32.max), float(F32.max), np.sin),
    "cos": (-float(F32.max), float(F32.max), np.cos),
    "erf": (-float(F32.max), float(F32.max), np.vectorize(math.erf, otypes=[np.float64])),
    # 0.5 x erfc(-x / sqrt 2): no cancellation in the reference.
    "gelu": (-13.0, float(F32.max),
             lambda x: 0.5 * x * np.vectorize(math.erfc, otypes=[np.float64])(-x / math.sqrt(2))),
    # 0.5 x (1 + tanh(y)) as x / (1 + exp(-2y)): no cancellation. y is
    # computed in float64 from the f32 x; the program computes it in f32,
    # as PyTorch does, which is part of the error measured.
    "gelu_tanh": (-3.0, 1e18,
                  lambda x: x / (1.0 + np.exp(-2.0 * math.sqrt(2.0 / math.pi)
                                              * (x + 0.044715 * x ** 3)))),
}


def documented_bounds():
    """{op: bound} from the table of docs/reference/accuracy.md."""
    doc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                       "reference", "accuracy.md")
    bounds, column = {}, None
    lines = open(doc, encoding="utf-8").readlines() if os.path.exists(doc) else []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2:
            continue
        if column is None and "bound (tested)" in cells:
            column = cells.index("bound (tested)")
            continue
        m = re.fullmatch(r"`(\w+)`", cells[0])
        if column is not None and m and m.group(1) in OPS:
            bounds[m.group(1)] = float(cells[column])
    return bounds


def points(rng, lo, hi, n):
    """n f32 values in [lo, hi]: half uniform, half from random bit patterns
    (every binade, denormals included), the ends and the zeros first."""
    edges = [lo, hi, 0.0, -0.0, TINY, -TINY, float(F32.tiny), 1.0, -1.0]
    edges = np.array([e for e in edges if lo <= e <= hi], dtype=np.float32)
    uniform = rng.uniform(lo, hi, n // 2).astype(np.float32)
    bits = []
    while sum(len(b) for b in bits) < n - n // 2:
        b = rng.integers(0, 2 ** 32, 4 * n, dtype=np.uint64).astype(np.uint32).view(np.float32)
        bits.append(b[np.isfinite(b) & (b >= lo) & (b <= hi)])
    x = np.concatenate([uniform] + bits)[:n]
    x[: len(edges)] = edges
    return np.clip(x, np.float32(lo), np.float32(hi))


def ulp_error(y, ref):
    """|y - ref| in ulps of the f32 nearest ref (the denormal ulp, 2^-149,
    below 2^-126). An exact value past f32's range must give inf of its
    sign (0 ulp), otherwise inf ulp."""
    y = y.astype(np.float64)
    a = np.abs(ref)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
    ulp = np.exp2(np.maximum(e, -126.0) - 23.0)
    with np.errstate(over="ignore"):
        overflow = np.isinf(ref.astype(np.float32))
    err = np.abs(y - ref) / ulp
    err[overflow] = np.where(y[overflow] == ref.astype(np.float32)[overflow], 0.0, np.inf)
    err[np.isnan(ref) & np.isnan(y)] = 0.0
    err[np.isnan(err)] = np.inf
    return err


def run(out, kfuse_run, entry, x):
    arg = os.path.join(out, f"{entry}_x.npy")
    res = os.path.join(out, f"{entry}_y.npy")
    np.save(arg, x)
    subprocess.run([kfuse_run, os.path.join(out, "ops.so"), "--entry", entry, "--device=cpu",
                    "--repeat=0", "--input", f"arg0={arg}", "--output", f"result0={res}"],
                   check=True, stdout=subprocess.DEVNULL)
    return np.load(res)

# Inputs where denser searches found an op's largest errors, measured with
# the random ones: 2^20 random points put few where they matter (GELU's
# worst, 6.40 ulp at x = -2.497497, turned up in 4M points of [-13, -1.5]
# and never in the test's). For GELU, 36M points of 1e-5 <= |x| <= 13,
# log-uniform, 2026-12-07 (docs/reference/accuracy.md).
HARD = {
    "gelu": [-2.497497, 0.0149855735, -2.7749953, 0.02746273, -3.841623, 0.0076803383,
             -10.718229, -5.0958796],
}


def main():
    out, kfuse_run = sys.argv[1], sys.argv[2]
    n = int(sys.argv[sys.argv.index("--points") + 1]) if "--points" in sys.argv else 2 ** 20
    measure = "--measure" in sys.argv
    bounds = documented_bounds()
    missing = [op for op in OPS if op not in bounds]
    if missing and not measure:
        sys.exit(f"ulp-bounds: docs/reference/accuracy.md states no bound for {missing}")
    for k, (op, (lo, hi, reference)) in enumerate(OPS.items()):
        x = points(np.random.default_rng(1000 + k), lo, hi, n)
        x = np.concatenate([x, np.array(HARD.get(op, []), dtype=np.float32)])
        with np.errstate(all="ignore"):
            ref = reference(x.astype(np.float64))
        y = run(out, kfuse_run, op, x)
        with np.errstate(all="ignore"):
            err = ulp_error(y, ref)
        worst = int(np.argmax(err))
        bound = bounds.get(op)
        verdict = "ok" if bound is not None and err[worst] <= bound else "OVER"
        if measure:
            print(f"{op} max {err[worst]:.4f} ulp at x = {float(x[worst])!r} "
                  f"(bound {bound}) {verdict}")
        else:
            print(f"{op} within {bound} ulp: {verdict}"
                  + ("" if verdict == "ok" else f" ({err[worst]:.4f} ulp at x = {float(x[worst])!r})"))

    if not measure:
        gelu_tail(out, kfuse_run)


def gelu_tail(out, kfuse_run):
    """Below x = -13 GELU's true value is under |GELU(-13)| = 7.95e-38 (4
    x 2^-126), and below -13.14 it is a subnormal f32: kfuse flushes it to
    zero (so that no intermediate is subnormal, which x86 finishes in
    microcode), as PyTorch's f32 formula does from -5.7 on. Checked: every
    result there within 7.95e-38 of float64's erfc form, and -0, +0 or a
    normal number (never a subnormal); -13 itself is in the ulp range above.
    """
    x = np.concatenate([np.linspace(-40.0, -13.0, 4097, dtype=np.float32)[:-1],
                        np.nextafter(np.float32(-13.0), np.float32(-14.0), dtype=np.float32)[None],
                        np.array([-F32.max, -1e30, -14.85, -13.14, -13.0001], np.float32)])
    ref = 0.5 * x.astype(np.float64) * np.vectorize(math.erfc, otypes=[np.float64])(
        -x.astype(np.float64) / math.sqrt(2))
    y = run(out, kfuse_run, "gelu", x)
    subnormal = (y != 0) & (np.abs(y) < F32.tiny)
    far = np.abs(y.astype(np.float64) - ref) > 7.96e-38
    bad = subnormal | far | np.isnan(y)
    print("gelu below -13 flushed within 7.95e-38: "
          + ("ok" if not bad.any() else f"OVER (x = {float(x[np.argmax(bad)])!r}, "
                                          f"y = {float(y[np.argmax(bad)])!r})"))


main()
