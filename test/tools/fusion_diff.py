#!/usr/bin/env python3
"""Runs every function of a kf test file two ways; results must agree.

For each public function in FILE whose arguments are ranked tensors, builds
a @main that calls it on deterministic inputs (dynamic dims get the sizes
given by a `// DIMS: 3` line, default 3, or by a `// DIMS @f: 3 4 1` line,
one size per `?` of f's arguments in order), prints every result as f64, and
runs it through two kfuse-opt pipelines with mlir-runner: by default
`--kf-cpu-pipeline=fusion=on` against `--kf-cpu-pipeline=fusion=none`
(fusion never changes a result); `--candidate` names another, such as the
GPU mapping run as host loops (`--kf-gpu-emulation-pipeline`). The printed
arrays must match (NaN matches NaN).

usage: fusion_diff.py --kfuse-opt PATH --runner 'CMD' [--candidate FLAG] FILE
Prints "fusion-diff: N functions, M arrays agree" or the first difference.
"""
import argparse
import re
import subprocess
import sys

import numpy as np

FUNC = re.compile(r"^func\.func @(\w+)\((.*?)\)\s*->\s*\(?(.*?)\)?\s*\{", re.M | re.S)
TENSOR = re.compile(r"tensor<([^>]*)>")


def split_type(t):
    """'4x?x8xf32' -> (['4', '?', '8'], 'f32')."""
    parts = t.split("x")
    return parts[:-1], parts[-1]


def literal(shape, dtype, seed):
    """A deterministic dense literal of the given static shape."""
    n = int(np.prod(shape)) if shape else 1
    rng = np.random.default_rng(seed)
    if dtype == "i1":
        vals = ["true" if v else "false" for v in rng.integers(0, 2, n)]
    elif dtype in ("i32", "i64"):
        vals = [str(v) for v in rng.integers(-5, 6, n)]
    else:  # values that f16/bf16 hold exactly: steps of 0.25 in [-4, 4)
        vals = ["%.2f" % (v / 4) for v in rng.integers(-16, 16, n)]
    arr = np.array(vals, dtype=object).reshape(shape) if shape else vals[0]

    def fmt(a):
        if isinstance(a, np.ndarray):
            return "[" + ", ".join(fmt(x) for x in a) + "]"
        return a
    return fmt(arr)


def harness(source, dyn):
    per_function = {m.group(1): m.group(2).split()
                    for m in re.finditer(r"^// DIMS @(\w+):((?: \d+)*)$", source, re.M)}
    out = [source, "func.func private @printMemrefF64(memref<*xf64>)"]
    funcs = []
    for m in FUNC.finditer(source):
        name, args, results = m.group(1), m.group(2), m.group(3)
        if name == "main":
            continue
        arg_types = TENSOR.findall(args)
        res_types = TENSOR.findall(results)
        if not res_types:
            continue
        funcs.append(name)
        body, operands = [], []
        sizes = iter(per_function.get(name, []))
        for i, t in enumerate(arg_types):
            dims, dt = split_type(t)
            static = [next(sizes, dyn) if d == "?" else d for d in dims]
            st = "x".join(static + [dt])
            v = f"%{name}_a{i}"
            body.append(f"  {v}s = arith.constant dense<{literal([int(d) for d in static], dt, i)}> : tensor<{st}>")
            body.append(f"  {v} = tensor.cast {v}s : tensor<{st}> to tensor<{t}>")
            operands.append(v)
        rt = ", ".join(f"tensor<{t}>" for t in res_types)
        at = ", ".join(f"tensor<{t}>" for t in arg_types)
        r = f"%{name}_r"
        body.append(f"  {r}:{len(res_types)} = call @{name}({', '.join(operands)}) : ({at}) -> ({rt})")
        for k, t in enumerate(res_types):
            dims, dt = split_type(t)
            t64 = "x".join(dims + ["f64"])
            body.append(f"  {r}{k}f = kf.cast {r}#{k} : tensor<{t}> to f64")
            body.append(f"  {r}{k}u = tensor.cast {r}{k}f : tensor<{t64}> to tensor<*xf64>")
            body.append(f"  {r}{k}m = bufferization.to_buffer {r}{k}u : tensor<*xf64> to memref<*xf64>")
            body.append(f"  call @printMemrefF64({r}{k}m) : (memref<*xf64>) -> ()")
        out.append(f"func.func @harness_{name}() {{\n" + "\n".join(body) + "\n  return\n}")
    calls = "\n".join(f"  call @harness_{f}() : () -> ()" for f in funcs)
    out.append("func.func @main() {\n" + calls + "\n  return\n}")
    return "\n".join(out), funcs


def run(kfuse_opt, runner, module, pipeline):
    lowered = subprocess.run([kfuse_opt, pipeline],
                             input=module, capture_output=True, text=True)
    if lowered.returncode:
        sys.exit(f"fusion-diff: kfuse-opt {pipeline} failed:\n{lowered.stderr}")
    ran = subprocess.run(runner, shell=True, input=lowered.stdout,
                         capture_output=True, text=True)
    if ran.returncode:
        sys.exit(f"fusion-diff: runner ({pipeline}) failed:\n{ran.stderr}")
    blocks = re.split(r"Unranked Memref[^\n]*\n", ran.stdout)[1:]
    num = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
    return [np.array([float(x) for x in num.findall(b)]) for b in blocks]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kfuse-opt", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--candidate", default="--kf-cpu-pipeline=fusion=on")
    ap.add_argument("--reference", default="--kf-cpu-pipeline=fusion=none")
    # Reductions that combine in another order (a GPU's tree of shuffles)
    # differ in the last bits: give them a relative tolerance.
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("file")
    a = ap.parse_args()
    source = open(a.file, encoding="utf-8").read()
    m = re.search(r"^// DIMS: (\d+)", source, re.M)
    module, funcs = harness(source, m.group(1) if m else "3")
    fused = run(a.kfuse_opt, a.runner, module, a.candidate)
    eager = run(a.kfuse_opt, a.runner, module, a.reference)
    if len(fused) != len(eager) or not fused:
        sys.exit(f"fusion-diff: {len(fused)} arrays fused, {len(eager)} unfused")
    for i, (f, e) in enumerate(zip(fused, eager)):
        if f.shape != e.shape or not np.allclose(f, e, rtol=a.rtol, atol=a.atol, equal_nan=True):
            sys.exit(f"fusion-diff: array #{i} differs\n  {a.candidate}: {f}\n  {a.reference}: {e}")
    print(f"fusion-diff: {len(funcs)} functions, {len(fused)} arrays agree")


if __name__ == "__main__":
    main()
