#!/usr/bin/env python3
"""Runs a kf program with kfuse-run on numpy inputs and checks its results.

  run_check.py --kfuse-run BIN PROGRAM --input arg0=f32[1000] ... \
      --expect "np.maximum(arg0 + arg1, 0)" [-- kfuse-run options]

Inputs are drawn by numpy from --seed, written as .npy and passed with
--input; each --expect is a numpy expression over arg0, arg1, ... (helpers:
softmax, relu, bf16) for result0, result1, ... The expected values are computed
here, independently of kfuse. kfuse-run's own output is printed so that
FileCheck can read it; a mismatch prints the worst element and exits 1.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
          "i32": np.int32, "i64": np.int64, "i1": np.bool_}
TOLERANCE = {np.float32: (1e-5, 1e-5), np.float64: (1e-12, 1e-12), np.float16: (1e-3, 1e-3)}


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def relu(x):
    return np.maximum(x, 0)


def bf16(x):
    """x rounded to bfloat16 (8 significant bits, ties to even), computed
    exactly in float64 (normal values; numpy has no bf16)."""
    m, e = np.frexp(np.asarray(x, dtype=np.float64))
    return np.ldexp(np.round(m * 256), e - 8)


def make_input(spec, rng):
    m = re.fullmatch(r"(arg\d+)=(\w+)\[([\d,x ]*)\](:special|:ties|:unit|:fill=[-+.\de]+)?", spec)
    if not m:
        sys.exit(f"run_check: bad --input {spec!r} (want argN=f32[4x8], ...:special, "
                 "...:ties, ...:unit or ...:fill=V)")
    name, dtype, dims, special = m.groups()
    shape = tuple(int(d) for d in re.split(r"[x,]", dims) if d.strip())
    t = DTYPES[dtype]
    if t == np.bool_:
        value = rng.random(shape) < 0.5
    elif np.issubdtype(t, np.integer):
        value = rng.integers(-8, 9, size=shape).astype(t)
    elif special and special.startswith(":fill="):
        value = np.full(shape, float(special[len(":fill="):]), dtype=t)
    elif special == ":unit":  # [0, 1): sums without cancellation
        value = rng.random(shape).astype(t)
    elif special == ":ties":
        # Halfway between two bf16 values (which round to the even one),
        # and just above or below halfway by less than a float's precision
        # for f64 (rounding through f32 would make those ties too).
        base = rng.integers(128, 256, size=shape) / 128.0 + 1 / 256
        nudge = rng.integers(-1, 2, size=shape) * (2.0 ** -30 if t == np.float64 else 2.0 ** -21)
        scale = rng.choice([-1.0, 1.0], size=shape) * 2.0 ** rng.integers(-8, 9, size=shape)
        value = (base * (1 + nudge) * scale).astype(t)
    else:
        value = rng.uniform(-2, 2, size=shape).astype(t)
        if special:
            # NaN, infinities, signed zero and a huge value, spread out.
            flat = value.reshape(-1)
            specials = np.array([np.nan, np.inf, -np.inf, -0.0, 3e38], dtype=t)
            flat[rng.integers(0, flat.size, size=min(flat.size, 64))] = \
                np.resize(specials, min(flat.size, 64))
    return name, value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kfuse-run", required=True)
    parser.add_argument("program")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float, help="relative tolerance (default: by dtype)")
    parser.add_argument("--atol", type=float, help="absolute tolerance (default: by dtype)")
    args, rest = parser.parse_known_args()
    rest = [r for r in rest if r != "--"]
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        env = {}
        command = [args.kfuse_run, args.program] + rest
        for spec in args.input:
            name, value = make_input(spec, rng)
            env[name] = value
            path = os.path.join(tmp, name + ".npy")
            np.save(path, value)
            command.append(f"--input={name}={path}")
        outputs = [os.path.join(tmp, f"result{i}.npy") for i in range(len(args.expect))]
        command += [f"--output=result{i}={p}" for i, p in enumerate(outputs)]
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        print(run.stdout, end="")
        if run.returncode != 0:
            print(f"run_check: kfuse-run exited with {run.returncode}")
            return 1
        status = 0
        for i, (expr, path) in enumerate(zip(args.expect, outputs)):
            got = np.load(path)
            want = np.asarray(eval(expr, {"np": np, "softmax": softmax, "relu": relu, "bf16": bf16}, env))
            if got.shape != want.shape:
                print(f"result{i}: shape {got.shape}, expected {want.shape}")
                status = 1
                continue
            atol, rtol = TOLERANCE.get(want.dtype.type, (0, 0))
            rtol = rtol if args.rtol is None else args.rtol
            atol = atol if args.atol is None else args.atol
            close = np.isclose(got, want, atol=atol, rtol=rtol, equal_nan=True)
            if close.all():
                err = np.max(np.abs(got.astype(np.float64) - want)) if got.size else 0.0
                rel = np.max(np.abs(got.astype(np.float64) - want) /
                             np.maximum(np.abs(want), np.finfo(np.float64).tiny)) if got.size else 0.0
                print(f"run_check: result{i} {got.dtype}{list(got.shape)} matches numpy "
                      f"(max abs error {err:.3g}, max rel error {rel:.3g})")
            else:
                bad = np.argwhere(~close)[0]
                print(f"run_check: result{i} differs at {tuple(bad)}: "
                      f"{got[tuple(bad)]} vs numpy {want[tuple(bad)]} "
                      f"({(~close).sum()} elements)")
                status = 1
        return status


if __name__ == "__main__":
    sys.exit(main())
