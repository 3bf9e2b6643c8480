#!/usr/bin/env python3
"""Runs every function of a kf test file two ways; results must agree.

For each public function in FILE whose arguments are ranked tensors, builds
a @main that calls it on deterministic inputs (dynamic dims get the sizes
given by a `// DIMS: 3` line, default 3, or by a `// DIMS @f: 3 4 1` line,
one size per `?` of f's arguments in order), prints every result as f64, and
runs it through two kfuse-opt pipelines with mlir-runner: by default
`--kf-cpu-pipeline=fusion=on` against `--kf-cpu-pipeline=fusion=off`
(fusion never changes a result); `--candidate` names another, such as the
GPU mapping run as host loops (`--kf-gpu-emulation-pipeline`), which is
compared with the unfused CPU pipeline computing as the GPU does
(`f64-moments=false`: layer_norm's, rms_norm's, var's and std's moments in
f32, where the CPU takes them in f64). The printed arrays must match (NaN
matches NaN).

`--half-reference`: the reference is FILE with its f16 and bf16 types made
f32 (the harness's inputs are exact in all three), run unfused on the CPU;
the candidate is FILE as it is. A `// TOL @f: ATOL RTOL ...` line (a pair
per result of f; kf_gen.py's HalfProgram writes them) gives f's results
their own tolerances. `--candidate-output FILE` compares what a run printed
before (mlir-runner's output) in place of running the candidate.

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


def printed_quantum(f, e):
    """A unit in the last printed digit of each element (the runner prints
    6 significant digits): two values 1 ulp apart on either side of a
    rounding boundary print a unit apart (0.2440555 +- 1 ulp: 0.244055 and
    0.244056, a difference of 4e-6 relative that rtol 1e-6 read as a
    failure)."""
    m = np.maximum(np.abs(np.nan_to_num(f, posinf=0, neginf=0)),
                   np.abs(np.nan_to_num(e, posinf=0, neginf=0)))
    with np.errstate(divide="ignore"):
        exponent = np.floor(np.log10(np.where(m > 0, m, 1.0)))
    return np.where(m > 0, 10.0 ** (exponent - 5), 0.0)


def agree(f, e, atol, rtol):
    """allclose (NaNs equal), within the printing's own quantum too."""
    with np.errstate(invalid="ignore"):
        close = np.abs(f - e) <= atol + rtol * np.abs(e) + printed_quantum(f, e)
    same = (f == e) | (np.isnan(f) & np.isnan(e))
    return bool(np.all(close | same))


def to_f32(source):
    """source with its f16 and bf16 element types (and casts to them) f32."""
    return re.sub(r"(?<=[x<\s])b?f16\b", "f32", source)


def tolerances(source, funcs, counts, atol, rtol):
    """(atol, rtol) of each printed array: a function's `// TOL` line, else
    the defaults."""
    per_function = {m.group(1): [float(x) for x in m.group(2).split()]
                    for m in re.finditer(r"^// TOL @(\w+):((?: \S+)*)$", source, re.M)}
    out = []
    for name, n in zip(funcs, counts):
        tol = per_function.get(name)
        if tol is not None and len(tol) != 2 * n:
            sys.exit(f"fusion-diff: the TOL line of @{name} has {len(tol)} numbers, "
                     f"not 2 for each of its {n} results")
        out += [(tol[2 * k], tol[2 * k + 1]) if tol else (atol, rtol) for k in range(n)]
    return out


def parse_output(text):
    # printMemref prints an element of an array with a size-0 dim all the
    # same (read from its base: uninitialized memory, which differed from
    # run to run), so the sizes in the header decide: such an array is empty.
    parts = re.split(r"(Unranked Memref[^\n]*\n)", text)[1:]
    num = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
    arrays = []
    for header, b in zip(parts[0::2], parts[1::2]):
        sizes = re.search(r"sizes = \[([^\]]*)\]", header)
        empty = bool(sizes) and any(int(d) == 0 for d in sizes.group(1).replace(",", " ").split())
        arrays.append(np.array([]) if empty else np.array([float(x) for x in num.findall(b)]))
    return arrays


def run(kfuse_opt, runner, module, pipeline):
    lowered = subprocess.run([kfuse_opt, pipeline],
                             input=module, capture_output=True, text=True)
    if lowered.returncode:
        sys.exit(f"fusion-diff: kfuse-opt {pipeline} failed:\n{lowered.stderr}")
    ran = subprocess.run(runner, shell=True, input=lowered.stdout,
                         capture_output=True, text=True)
    if ran.returncode:
        sys.exit(f"fusion-diff: runner ({pipeline}) failed:\n{ran.stderr}")
    return parse_output(ran.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kfuse-opt", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--candidate", default="--kf-cpu-pipeline=fusion=on")
    ap.add_argument("--reference", help="default: --kf-cpu-pipeline=fusion=off, with "
                    "f64-moments=false for a GPU emulation candidate")
    # Reductions that combine in another order (a GPU's tree of shuffles)
    # differ in the last bits: give them a relative tolerance.
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--half-reference", action="store_true",
                    help="the reference: the program with f16/bf16 made f32")
    ap.add_argument("--candidate-output", metavar="FILE",
                    help="compare this recorded output in place of running the candidate")
    ap.add_argument("file")
    a = ap.parse_args()
    if a.reference is None:
        a.reference = "--kf-cpu-pipeline=fusion=off"
        if "emulation" in a.candidate:
            a.reference += " f64-moments=false"
    source = open(a.file, encoding="utf-8").read()
    m = re.search(r"^// DIMS: (\d+)", source, re.M)
    dyn = m.group(1) if m else "3"
    module, funcs = harness(source, dyn)
    if a.candidate_output:
        a.candidate = a.candidate_output
        fused = parse_output(open(a.candidate_output, encoding="utf-8").read())
    else:
        fused = run(a.kfuse_opt, a.runner, module, a.candidate)
    if a.half_reference:
        eager = run(a.kfuse_opt, a.runner, harness(to_f32(source), dyn)[0], a.reference)
        a.reference += " (f32)"
    else:
        eager = run(a.kfuse_opt, a.runner, module, a.reference)
    if len(fused) != len(eager) or not fused:
        sys.exit(f"fusion-diff: {len(fused)} arrays fused, {len(eager)} unfused")
    counts = [len(TENSOR.findall(m.group(3))) for m in FUNC.finditer(source)
              if m.group(1) in funcs]
    tols = tolerances(source, funcs, counts, a.atol, a.rtol)
    for i, (f, e) in enumerate(zip(fused, eager)):
        atol, rtol = tols[i] if len(tols) == len(fused) else (a.atol, a.rtol)
        if f.shape != e.shape or not agree(f, e, atol, rtol):
            excess = np.abs(f - e) - rtol * np.abs(e) - printed_quantum(f, e)
            if f.shape == e.shape:
                # NaN on both sides agrees; NaN on one side is the worst.
                both = np.isnan(f) & np.isnan(e)
                excess = np.where(both, -np.inf, np.where(np.isnan(excess), np.inf, excess))
            bad = np.argmax(excess) if f.shape == e.shape else 0
            where = (f"; worst at [{bad}]: {f[bad]!r} against {e[bad]!r}, allowed "
                     f"{atol:g} + {rtol:g} * |reference| + a unit of the 6th digit"
                     if f.shape == e.shape else "")
            sys.exit(f"fusion-diff: array #{i} differs{where}\n  {a.candidate}: {f}\n"
                     f"  {a.reference}: {e}")
    print(f"fusion-diff: {len(funcs)} functions, {len(fused)} arrays agree")


if __name__ == "__main__":
    main()
