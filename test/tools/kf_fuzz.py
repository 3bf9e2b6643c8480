#!/usr/bin/env python3
"""Random kf programs, run fused and unfused; results and counts must agree.

Deterministic from a seed: `--seed S --count N` generates N programs of 1 to
40 ops over the op set (elementwise with broadcasting and mixed dtypes,
comparisons, where, casts, reductions, reshape, transpose, broadcast_to,
matmul, softmax, log_softmax, layer_norm), several outputs and diamonds. Each
program's type rules are mirrored here, so a program kfuse refuses is itself
a finding. Every program is run through kf-cpu-pipeline fused and unfused
(fusion_diff.py) and its kernel report must show fused <= eager in kernels,
transfers and bytes. On a failure the program is shrunk to the shortest
failing prefix and saved under --save-dir as a regression test.

usage: kf_fuzz.py --kfuse-opt PATH --runner CMD [--seed S] [--count N]
                  [--batch B] [--save-dir DIR] [--candidate FLAG]
                  [--pointwise-only] [--skip-unmapped] [--rtol R] [--atol A]
With --candidate=--kf-gpu-emulation-pipeline --skip-unmapped it checks the
GPU mappings (run on the host by kf-emulate-gpu-launches) against the
unfused CPU pipeline, counting programs with a kernel no GPU mapping serves
as skipped; --rtol/--atol allow for reductions combined in another order.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLOATS = ["f32", "f16", "bf16", "f64"]
INTS = ["i32", "i64"]
RANK = {"i1": 0, "i32": 1, "i64": 1, "f16": 2, "bf16": 2, "f32": 2, "f64": 2}


def category(t):
    return 0 if t == "i1" else 1 if t in INTS else 2


def width(t):
    return {"i1": 1, "i32": 32, "i64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}[t]


def promote(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    if category(a) != category(b):
        return a if category(a) > category(b) else b
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return a if width(a) >= width(b) else b


def result_type(operands):
    """torch.result_type over (shape, dtype) operands, 0-d ones weaker."""
    dim = zero = None
    for shape, t in operands:
        if shape:
            dim = promote(dim, t)
        else:
            zero = promote(zero, t)
    if dim is None:
        return zero
    if zero is None or category(dim) >= category(zero):
        return dim
    if category(dim) == 0 or category(zero) == 2:
        return promote(dim, zero)
    return dim


def broadcast(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(max(x, y) if 1 in (x, y) else x)
    return out[::-1]


def ttype(shape, t):
    return "tensor<" + "".join(f"{d}x" for d in shape) + t + ">"


class Program:
    def __init__(self, rng, name, nops, pointwise_only=False):
        self.rng, self.name = rng, name
        self.pointwise_only = pointwise_only
        self.args, self.vals, self.lines = [], [], []
        for _ in range(rng.randint(1, 3)):
            self.new_arg()
        for _ in range(nops):
            self.add_op()
        # Several outputs: the last 1 to 3 values made (chosen once, so the
        # program's text is the same however often it is printed).
        produced = [v for v in self.vals if v[0].startswith("%v")]
        k = min(len(produced), rng.randint(1, 3))
        self.outputs = produced[-k:] if produced else [self.args[0]]

    def new_arg(self, shape=None, dtype=None):
        rng = self.rng
        if shape is None:
            shape = [rng.choice([1, 2, 3, 4, 5, 8]) for _ in range(rng.choice([0, 1, 1, 2, 2, 2, 3]))]
        if dtype is None:
            dtype = rng.choice(["f32"] * 6 + ["f16", "bf16", "f64", "i32", "i64", "i1"])
        v = (f"%arg{len(self.args)}", shape, dtype)
        self.args.append(v)
        self.vals.append(v)
        return v

    def emit(self, text, shape, dtype):
        name = f"%v{len(self.lines)}"
        self.lines.append(f"  {name} = {text}")
        v = (name, shape, dtype)
        self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True):
        # Later values are likelier: chains and diamonds over fresh results.
        cands = [v for v in self.vals if pred(v)]
        if not cands:
            return None
        return cands[min(len(cands) - 1, int(len(cands) * self.rng.random() ** 0.5))]

    def floaty(self, v):
        """v as a float tensor (a cast when it is not)."""
        if v[2] in FLOATS:
            return v
        return self.emit(f"kf.cast {v[0]} : {ttype(v[1], v[2])} to f32", v[1], "f32")

    def add_op(self):
        rng = self.rng
        kinds = ["unary"] * 5 + ["binary"] * 6 + ["compare", "where", "cast", "reshape",
                                                  "broadcast"]
        if not self.pointwise_only:
            kinds += ["reduce", "reduce", "transpose", "matmul", "softmax", "layer_norm"]
        kind = rng.choice(kinds)
        getattr(self, "op_" + kind)()

    def op_unary(self):
        x = self.pick()
        ops = ["exp", "tanh", "sigmoid", "sin", "cos", "sqrt", "log", "rsqrt", "reciprocal"]
        if x[2] != "i1":
            ops += ["neg", "abs", "relu"] * 2
        if x[2] in FLOATS:
            ops += ["gelu", "silu"]
        op = self.rng.choice(ops)
        t = x[2] if op in ("neg", "abs", "relu", "gelu", "silu") or x[2] in FLOATS else "f32"
        self.emit(f"kf.{op} {x[0]} : {ttype(x[1], x[2])}", x[1], t)

    def partner(self, x):
        y = self.pick(lambda v: broadcast(x[1], v[1]) is not None and v is not x)
        if y is None or self.rng.random() < 0.25:
            # A fresh argument shaped like a suffix of x (a bias), or a scalar.
            k = self.rng.randint(0, len(x[1]))
            shape = [d if self.rng.random() < 0.8 else 1 for d in x[1][len(x[1]) - k:]]
            y = self.new_arg(shape)
        return y

    def op_binary(self):
        x = self.pick()
        y = self.partner(x)
        shape = broadcast(x[1], y[1])
        t = result_type([(x[1], x[2]), (y[1], y[2])])
        ops = ["add", "mul", "maximum", "minimum", "div"]
        if t != "i1":
            ops += ["sub", "sub", "pow"]
        op = self.rng.choice(ops)
        rt = "f32" if op == "div" and t not in FLOATS else t
        self.emit(f"kf.{op} {x[0]}, {y[0]} : {ttype(x[1], x[2])}, {ttype(y[1], y[2])}", shape, rt)

    def op_compare(self):
        x = self.pick()
        y = self.partner(x)
        op = self.rng.choice(["eq", "ne", "lt", "le", "gt", "ge"])
        self.emit(f"kf.{op} {x[0]}, {y[0]} : {ttype(x[1], x[2])}, {ttype(y[1], y[2])}",
                  broadcast(x[1], y[1]), "i1")

    def op_where(self):
        c = self.pick(lambda v: v[2] == "i1")
        if c is None:
            return self.op_compare()
        a = self.partner(c)
        b = self.partner(a)
        shape = broadcast(broadcast(c[1], a[1]) or [], b[1]) if broadcast(c[1], a[1]) is not None else None
        if shape is None or broadcast(c[1], a[1]) is None:
            return
        t = result_type([(a[1], a[2]), (b[1], b[2])])
        self.emit(f"kf.where {c[0]}, {a[0]}, {b[0]} : {ttype(c[1], c[2])}, {ttype(a[1], a[2])}, {ttype(b[1], b[2])}",
                  broadcast(broadcast(c[1], a[1]), b[1]), t)

    def op_cast(self):
        # float -> int is undefined for NaN and out-of-range values: left out.
        x = self.pick()
        targets = ["i1"] + (FLOATS if x[2] in FLOATS else FLOATS + INTS)
        t = self.rng.choice(targets)
        self.emit(f"kf.cast {x[0]} : {ttype(x[1], x[2])} to {t}", x[1], t)

    def op_reduce(self):
        x = self.pick(lambda v: len(v[1]) >= 1)
        if x is None:
            return
        op = self.rng.choice(["sum", "max", "min", "mean"])
        if op == "mean":
            x = self.floaty(x)
        r = len(x[1])
        dims = sorted(self.rng.sample(range(r), self.rng.randint(1, r)))
        keep = self.rng.random() < 0.5
        shape = [1 if i in dims else d for i, d in enumerate(x[1])] if keep else \
            [d for i, d in enumerate(x[1]) if i not in dims]
        t = "i64" if op == "sum" and x[2] not in FLOATS else x[2]
        self.emit(f"kf.{op} {x[0]} dims [{', '.join(map(str, dims))}]{' keepdim' if keep else ''} : {ttype(x[1], x[2])}",
                  shape, t)

    def op_reshape(self):
        x = self.pick(lambda v: len(v[1]) >= 1)
        if x is None:
            return
        n = 1
        for d in x[1]:
            n *= d
        f = self.rng.choice([d for d in range(1, n + 1) if n % d == 0])
        shape = self.rng.choice([[n], [f, n // f], [n // f, 1, f]])
        spec = list(shape)
        spec[self.rng.randrange(len(spec))] = -1
        self.emit(f"kf.reshape {x[0]} [{', '.join(map(str, spec))}] : {ttype(x[1], x[2])}", shape, x[2])

    def op_transpose(self):
        x = self.pick(lambda v: len(v[1]) >= 2)
        if x is None:
            return
        perm = list(range(len(x[1])))
        self.rng.shuffle(perm)
        self.emit(f"kf.transpose {x[0]} [{', '.join(map(str, perm))}] : {ttype(x[1], x[2])}",
                  [x[1][p] for p in perm], x[2])

    def op_broadcast(self):
        x = self.pick(lambda v: len(v[1]) <= 2)
        if x is None:
            return
        shape = [self.rng.choice([2, 3])] + [self.rng.choice([2, 3]) if d == 1 else d for d in x[1]]
        self.emit(f"kf.broadcast_to {x[0]} [{', '.join(map(str, shape))}] : {ttype(x[1], x[2])}", shape, x[2])

    def op_matmul(self):
        a = self.pick(lambda v: len(v[1]) >= 2 and v[2] != "i1")
        if a is None:
            return
        n = self.rng.choice([1, 2, 3, 4])
        b = self.new_arg([a[1][-1], n], self.rng.choice(["f32", a[2]]))
        t = result_type([(a[1], a[2]), (b[1], b[2])])
        self.emit(f"kf.matmul {a[0]}, {b[0]} : {ttype(a[1], a[2])}, {ttype(b[1], b[2])}",
                  a[1][:-1] + [n], t)

    def op_softmax(self):
        x = self.pick(lambda v: len(v[1]) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        op = self.rng.choice(["softmax", "log_softmax"])
        d = self.rng.randrange(-len(x[1]), len(x[1]))
        self.emit(f"kf.{op} {x[0]} dim {d} : {ttype(x[1], x[2])}", x[1], x[2])

    def op_layer_norm(self):
        x = self.pick(lambda v: len(v[1]) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        norm = x[1][-self.rng.randint(1, len(x[1])):]
        extra = ""
        if self.rng.random() < 0.5:
            w = self.new_arg(list(norm), x[2])
            extra += f" weight {w[0]} : {ttype(w[1], w[2])}"
        if self.rng.random() < 0.5:
            b = self.new_arg(list(norm), x[2])
            extra += f" bias {b[0]} : {ttype(b[1], b[2])}"
        self.emit(f"kf.layer_norm {x[0]}{extra} normalized_shape [{', '.join(map(str, norm))}] eps 1.0e-05 : {ttype(x[1], x[2])}",
                  x[1], x[2])

    def text(self, lines=None, outputs=None):
        lines = self.lines if lines is None else lines
        if outputs is None:
            outputs = self.outputs
        args = ", ".join(f"{n}: {ttype(s, t)}" for n, s, t in self.args)
        rets = ", ".join(ttype(s, t) for _, s, t in outputs)
        return (f"func.func @{self.name}({args}) -> ({rets}) {{\n" + "\n".join(lines) +
                f"\n  return {', '.join(n for n, _, _ in outputs)} : {rets}\n}}\n"), outputs


def check(text, a):
    """None when the program passes, else what failed."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        rep = subprocess.run([a.kfuse_opt, path, "--kf-kernel-report=format=json", "-o", "/dev/null"],
                             capture_output=True, text=True)
        if rep.returncode:
            return "kfuse-opt refused or failed:\n" + rep.stderr
        for fn in json.loads(rep.stdout)["functions"]:
            for key in ("kernels", "transfers", "bytes"):
                if fn["fused"][key] > fn["eager"][key]:
                    return f"@{fn['name']}: fused {key} {fn['fused'][key]} > eager {fn['eager'][key]}"
        diff = subprocess.run([sys.executable, os.path.join(HERE, "fusion_diff.py"),
                               "--kfuse-opt", a.kfuse_opt, "--runner", a.runner,
                               f"--rtol={a.rtol}", f"--atol={a.atol}",
                               "--candidate=" + a.candidate, path],
                              capture_output=True, text=True)
        if diff.returncode:
            if a.skip_unmapped and "cannot be mapped to the GPU yet" in diff.stderr:
                return SKIPPED
            return diff.stdout + diff.stderr
        return None
    finally:
        os.unlink(path)


# A program with a kernel the GPU mappings do not serve (--skip-unmapped).
SKIPPED = "skipped"


def signature(error):
    """The kind of a failure: its first error line without paths and numbers."""
    for line in error.splitlines():
        if "error" in line or "differs" in line or "fused" in line:
            return re.sub(r"[0-9]+|/\S+|%\w+", "", line)
    return error[:80]


def shrink(prog, error, a):
    """The shortest prefix of the program that fails the same way, returning
    its last value."""
    want = signature(error)
    for n in range(1, len(prog.lines) + 1):
        out = [v for v in prog.vals if v[0] == f"%v{n - 1}"]
        text, _ = prog.text(prog.lines[:n], out)
        err = check(text, a)
        if err and signature(err) == want:
            return text
    return prog.text()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kfuse-opt", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--save-dir")
    ap.add_argument("--candidate", default="--kf-cpu-pipeline=fusion=on",
                    help="the pipeline compared with the unfused CPU one")
    ap.add_argument("--skip-unmapped", action="store_true",
                    help="count programs the GPU mappings refuse as skipped")
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--pointwise-only", action="store_true",
                    help="elementwise, broadcast and reshape ops only (what "
                         "the GPU mapping serves today)")
    a = ap.parse_args()
    progs = []
    for i in range(a.count):
        rng = random.Random(a.seed * 1000003 + i)
        progs.append(Program(rng, f"p{a.seed}_{i}", rng.randint(1, 40), a.pointwise_only))
    failures = skipped = 0
    for start in range(0, len(progs), a.batch):
        batch = progs[start:start + a.batch]
        text = "\n".join(p.text()[0] for p in batch)
        if check(text, a) is None:
            continue
        for p in batch:  # find which one fails
            err = check(p.text()[0], a)
            if err is None:
                continue
            if err is SKIPPED:
                skipped += 1
                continue
            failures += 1
            small = shrink(p, err, a)
            print(f"kf-fuzz: {p.name} fails:\n{err}\nshrunk to:\n{small}")
            if a.save_dir:
                os.makedirs(a.save_dir, exist_ok=True)
                with open(os.path.join(a.save_dir, f"fuzz-{p.name}.mlir"), "w") as f:
                    f.write("// Found by kf_fuzz.py; the two pipelines must agree.\n"
                            f"// RUN: %fusion-diff --candidate={a.candidate} %s\n\n" + small)
    print(f"kf-fuzz: {len(progs) - failures - skipped} passed, {failures} failed"
          + (f", {skipped} skipped (no GPU mapping)" if a.skip_unmapped else "")
          + f" (seed {a.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
