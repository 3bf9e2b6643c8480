#!/usr/bin/env python3
"""Random kf programs, run fused and unfused; results and counts must agree.

Deterministic from a seed: `--seed S --count N` generates N programs
(kf_gen.py: 1 to 40 ops over the op set, broadcasting, mixed dtypes, static
and dynamic dims, several outputs, diamonds). For each program the kernel
report (kfuse-opt --kf-kernel-report) must show fused <= eager in kernels,
transfers and bytes (byte counts of dynamic programs are polynomials in the
size symbols: compared at the program's sizes and at other points), and
the results must agree, checked one of two ways:
  - default: through kfuse-opt and mlir-runner (fusion_diff.py):
    `--candidate` (kf-cpu-pipeline fused, or the GPU mappings run by
    kf-emulate-gpu-launches: --candidate=--kf-gpu-emulation-pipeline
    --skip-unmapped) against the unfused kf-cpu-pipeline;
  - `--kfuse-run`: as a user runs it, kfuse-compile --emit=lib then
    `kfuse-run --check` (fused on --device: the GPU where one is present,
    else the host build of the GPU kernels; against the program's float64
    reference, kfuse-compile --float64-reference, within its error bound,
    and the unfused program on the CPU held to the same). Programs are compiled
    --batch at a time into one library, and a library has GPU code only
    when the GPU mappings serve all of its programs: on a GPU use --batch 1.
`--half-reference`: f16 and bf16 programs rich in reductions (sum, mean,
max, min, matmul, softmax, log_softmax, layer_norm) among well-conditioned
elementwise ops (kf_gen.py HalfProgram), against the same program in f32
run unfused; each result within the error bound the generator derived for
it (one rounding of the result, 2^-11 f16, 2^-8 bf16, plus what its inputs'
roundings carry). The candidate as above (fused CPU, or the GPU mappings).
On a failure the program is shrunk to the shortest failing prefix and saved
under --save-dir as a regression test.

`--pack DIR` compiles each program into DIR (a library each, and
DIR/programs.txt) for a machine without MLIR; there `--prebuilt DIR
--kfuse-run PATH --device cuda` runs them (bench/gpu-check.sh does).
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
sys.path.insert(0, HERE)
from kf_gen import EXTRA_KINDS, HalfProgram, Program  # noqa: E402

# A program with a kernel the GPU mappings do not serve (--skip-unmapped);
# the refusal of the last one skipped is in skip_reason.
SKIPPED = "skipped"
skip_reason = ""


class Unit:
    """One function to check: a program or a prefix of it."""

    def __init__(self, prog, lines=None, outputs=None, args=None):
        self.name, self.dims = prog.name, prog.dims(args)
        self.text = prog.text(lines, outputs, args)[0]


def evaluate(expr, point):
    """A report's count (a number or a polynomial such as "4*d1 + 16*d0")
    at point (symbol number -> size, None where unknown); None when it
    needs an unknown size."""
    if isinstance(expr, int):
        return expr
    total = 0
    for term in expr.replace(" - ", " + -").split(" + "):
        sign, term = (-1, term[1:]) if term.startswith("-") else (1, term)
        value = 1
        for factor in term.split("*"):
            v = point[int(factor[1:])] if factor.startswith("d") else int(factor)
            if v is None:
                return None
            value *= v
        total += sign * value
    return total


def assign(symbols, arg_sizes):
    """Sizes of all the report's symbols: the argument dims given, sizes
    computed from them ("(2*d0) / 8") computed, others unknown. None when
    a division is not exact: no run has those sizes (a reshape's inferred
    size must divide), so nothing is compared there."""
    point = list(arg_sizes) + [None] * (len(symbols) - len(arg_sizes))
    for i in range(len(arg_sizes), len(symbols)):
        m = re.fullmatch(r"\((.*)\) / (\d+)", symbols[i])
        if m:
            v = evaluate(m.group(1), point)
            if v is not None and v % int(m.group(2)):
                return None
            point[i] = None if v is None else v // int(m.group(2))
    return point


def counts_error(report, dims):
    """Fused must not have more kernels, transfers or bytes than eager: at
    the program's own sizes and at other argument sizes (all 1, 2, 13, and
    mixed), since they may be anything when run. A count that needs a size
    the report cannot name is compared at none."""
    for fn in report["functions"]:
        symbols = fn.get("symbols", [])
        n = sum(1 for s in symbols if s.startswith("dim "))
        points = [assign(symbols, dims.get(fn["name"], [1] * n))]
        points += [assign(symbols, [v] * n) for v in (1, 2, 13)]
        points.append(assign(symbols, [3 + 7 * i % 11 for i in range(n)]))
        points = [p for p in points if p is not None]
        for key in ("kernels", "transfers", "bytes"):
            for point in points:
                f = evaluate(fn["fused"][key], point)
                e = evaluate(fn["eager"][key], point)
                if f is not None and e is not None and f > e:
                    return (f"@{fn['name']}: fused {key} {fn['fused'][key]} > eager "
                            f"{fn['eager'][key]} (at {point}: {f} > {e})")
    return None


def check(units, a, stats=None):
    """None when the units pass, else what failed (or SKIPPED)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.mlir")
        with open(path, "w") as f:
            f.write("\n".join(u.text for u in units))
        rep = subprocess.run([a.kfuse_opt, path, "--kf-kernel-report=format=json", "-o", "/dev/null"],
                             capture_output=True, text=True)
        if rep.returncode:
            return "kfuse-opt refused or failed:\n" + rep.stderr
        err = counts_error(json.loads(rep.stdout), {u.name: u.dims for u in units})
        if err:
            return err
        if a.kfuse_run:
            lib = os.path.join(tmp, "program.so")
            ref = os.path.join(tmp, "reference.so")
            built = subprocess.run([a.kfuse_compile, path, "--emit=lib", "-o", lib],
                                   capture_output=True, text=True)
            if built.returncode:
                return "kfuse-compile --emit=lib refused or failed:\n" + built.stderr
            # The float64 reference that --check compares with.
            built = subprocess.run([a.kfuse_compile, path, "--emit=lib", "--float64-reference",
                                    "-o", ref], capture_output=True, text=True)
            if built.returncode:
                return "kfuse-compile --float64-reference refused or failed:\n" + built.stderr
            for u in units:
                err = run_check(lib, u.name, u.dims, a, stats, ref)
                if err:
                    return err
            return None
        diff = subprocess.run([sys.executable, os.path.join(HERE, "fusion_diff.py"),
                               "--kfuse-opt", a.kfuse_opt, "--runner", a.runner,
                               f"--rtol={a.rtol}", f"--atol={a.atol}",
                               "--candidate=" + a.candidate, path]
                              + (["--half-reference"] if a.half_reference else []),
                              capture_output=True, text=True)
        if diff.returncode:
            if a.skip_unmapped and "cannot be mapped to the GPU yet" in diff.stderr:
                global skip_reason
                skip_reason = next(line for line in diff.stderr.splitlines()
                                   if "cannot be mapped to the GPU yet" in line)
                return SKIPPED
            return diff.stdout + diff.stderr
        return None


def run_args(lib, name, dims, a, ref=None):
    args = [a.kfuse_run, lib, "--entry", name, "--check", "--format=json", "--warmup=0",
            "--repeat=1", f"--seed={a.seed}", f"--device={a.device}"]
    if ref:
        args += ["--reference", ref]
    for k, size in enumerate(dims):
        args += ["--dim", f"d{k}={size}"]
    return args


def run_check(lib, name, dims, a, stats, ref=None):
    """kfuse-run --check of one function (against the float64 reference
    library `ref`): None when it passes."""
    ran = subprocess.run(run_args(lib, name, dims, a, ref), capture_output=True, text=True)
    try:
        report = json.loads(ran.stdout)
    except ValueError:
        return f"kfuse-run @{name} failed (exit {ran.returncode}):\n{ran.stderr}"
    check = report.get("check", {})
    if not check.get("passed"):
        return (f"kfuse-run --check @{name} on {report['device']}: results differ from the "
                f"{check.get('reference')} reference: {check.get('detail')}")
    if stats is not None:
        stats["gpu" if not report["device"].startswith("cpu") else "cpu"] += 1
    return None


def signature(error):
    """The kind of a failure: its first error line without paths and numbers."""
    for line in error.splitlines():
        if "error" in line or "differs" in line or "differ " in line or "fused" in line:
            return re.sub(r"[0-9]+|/\S+|%\w+|@\w+", "", line)
    return error[:80]


def live(lines, outputs, args):
    """The lines and arguments the outputs need."""
    need = {v.name for v in outputs}
    kept = []
    for line in reversed(lines):
        name, rhs = line.strip().split(" = ", 1)
        if name in need:
            kept.append(line)
            need |= set(re.findall(r"%(?:v|arg)\d+\b", rhs))
    return kept[::-1], [v for v in args if v.name in need]


def shrink(prog, error, a, checker=None):
    """The shortest prefix of the program that fails the same way, returning
    its last value; then without the ops and arguments that value does not
    need, when that still fails the same way (checker: check, or another
    with its signature)."""
    want = signature(error)
    checker = checker or check

    def same(unit):
        err = checker([unit], a)
        return err and err is not SKIPPED and signature(err) == want
    for n in range(1, len(prog.lines) + 1):
        out = [v for v in prog.vals if v.name == f"%v{n - 1}"]
        unit = Unit(prog, prog.lines[:n], out)
        if same(unit):
            lines, args = live(prog.lines[:n], out, prog.args)
            smaller = Unit(prog, lines, out, args)
            return smaller if same(smaller) else unit
    return Unit(prog)


def drop_ops(prog, error, checker, a):
    """The program without each op in turn (and the ops that read it, last
    op first), and without each output, while it fails the same way: for
    failures a prefix does not keep (a kernel of several results)."""
    want = signature(error)
    byname = {v.name: v for v in prog.vals}

    def reads(line):
        return set(re.findall(r"%(?:v|arg)\d+\b", line.split(" = ", 1)[1]))

    def unit(lines, outs):
        need = set(outs).union(*(reads(line) for line in lines))
        return Unit(prog, lines, [byname[o] for o in outs],
                    [v for v in prog.args if v.name in need])

    def same(lines, outs):
        err = outs and checker([unit(lines, outs)], a)
        return bool(err) and err is not SKIPPED and signature(err) == want
    lines, outs = list(prog.lines), [v.name for v in prog.outputs]
    changed = True
    while changed:
        changed = False
        for k in range(len(lines) - 1, -1, -1):
            if k >= len(lines):
                continue
            gone = {lines[k].split(" = ")[0].strip()}
            for line in lines[k + 1:]:
                if reads(line) & gone:
                    gone.add(line.split(" = ")[0].strip())
            kept = [line for line in lines if line.split(" = ")[0].strip() not in gone]
            if same(kept, [o for o in outs if o not in gone]):
                lines, outs, changed = kept, [o for o in outs if o not in gone], True
        for o in list(outs):
            if len(outs) > 1 and same(lines, [x for x in outs if x != o]):
                outs, changed = [x for x in outs if x != o], True
    return unit(lines, outs)


def regression_test(unit, a):
    head = f"// Found by kf_fuzz.py (seed {a.seed}); fused and unfused must agree.\n"
    if not a.kfuse_run:
        half = " --half-reference" if a.half_reference else ""
        return head + f"// RUN: %fusion-diff --candidate={a.candidate}{half} %s\n\n" + unit.text
    dims = "".join(f" --dim d{k}={size}" for k, size in enumerate(unit.dims))
    return (head + "// RUN: kfuse-compile %s --emit=lib -o %t.so\n"
            "// RUN: kfuse-compile %s --emit=lib --float64-reference -o %t.ref.so\n"
            f"// RUN: kfuse-run %t.so --check --reference %t.ref.so --device=cpu --seed={a.seed}"
            f"{dims} | FileCheck %s\n"
            "// CHECK: check against the CPU, unfused: {{.*}}: ok\n\n" + unit.text)


def pack(progs, a):
    """Each program compiled into a.pack (for --prebuilt on a GPU machine)."""
    os.makedirs(a.pack, exist_ok=True)
    listing = []
    for p in progs:
        src = os.path.join(a.pack, p.name + ".mlir")
        with open(src, "w") as f:
            f.write(p.text()[0])
        built = subprocess.run([a.kfuse_compile, src, "--emit=lib", "-o",
                                os.path.join(a.pack, p.name + ".so")], capture_output=True, text=True)
        if not built.returncode:  # and its float64 reference, for --check
            built = subprocess.run([a.kfuse_compile, src, "--emit=lib", "--float64-reference",
                                    "-o", os.path.join(a.pack, p.name + ".reference.so")],
                                   capture_output=True, text=True)
        if built.returncode:
            print(f"kf-fuzz: {p.name} does not compile:\n{built.stderr}")
            return 1
        listing.append(" ".join([p.name] + [str(d) for d in p.dims()]))
    with open(os.path.join(a.pack, "programs.txt"), "w") as f:
        f.write(f"seed {a.seed}\n" + "\n".join(listing) + "\n")
    print(f"kf-fuzz: {len(progs)} programs compiled into {a.pack}")
    return 0


def run_prebuilt(a):
    """kfuse-run --check over the libraries --pack made."""
    with open(os.path.join(a.prebuilt, "programs.txt")) as f:
        lines = f.read().split("\n")
    a.seed = int(lines[0].split()[1])
    stats = {"gpu": 0, "cpu": 0}
    failures = 0
    for line in filter(None, lines[1:]):
        name, *dims = line.split()
        ref = os.path.join(a.prebuilt, name + ".reference.so")
        err = run_check(os.path.join(a.prebuilt, name + ".so"), name, dims, a, stats,
                        ref if os.path.exists(ref) else None)
        if err:
            failures += 1
            print(f"kf-fuzz: {name} fails:\n{err}\n(source: {a.prebuilt}/{name}.mlir)")
    print(f"kf-fuzz: {stats['gpu'] + stats['cpu']} passed ({stats['gpu']} on the GPU, "
          f"{stats['cpu']} on the CPU), {failures} failed (prebuilt, seed {a.seed})")
    return 1 if failures else 0


# --- The mapping invariant (--check-mapped) ---
#
# Every kernel kf-form-kernels forms has a GPU mapping, unless one of its
# ops has none even alone (kf_gen.NO_GPU_MAPPING: such programs are exempt).
# No execution: kfuse-opt --kf-to-linalg --kf-form-kernels
# --kf-assign-kernel-mappings=serial-fallback over a batch of programs, and
# a kernel mapped `serial` is one no GPU mapping serves (the same decision
# that, without the fallback, is "cannot be mapped to the GPU yet"). The
# same with --kf-form-kernels=check-mappings=false measures the planner's
# rules alone; the `unmappable` boundaries (kf.boundaries on each function)
# are where the check kept ops apart.

MAP_PASSES = ["--kf-to-linalg", "--kf-form-kernels", "--kf-assign-kernel-mappings"]


def mapping_run(units, a, form="--kf-form-kernels", fallback=True):
    """kfuse-opt's mapping passes over units: (None, {function: [serial
    kernels, unmappable boundaries, serial kernels without a matmul]}) or
    (error text, None)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.mlir")
        with open(path, "w") as f:
            f.write("\n".join(u.text for u in units))
        assign = "--kf-assign-kernel-mappings" + ("=serial-fallback" if fallback else "")
        run = subprocess.run([a.kfuse_opt, path, "--kf-to-linalg", form, assign,
                              "-mlir-print-op-on-diagnostic=false"],
                             capture_output=True, text=True)
    if run.returncode:
        return run.stderr or f"kfuse-opt exited {run.returncode}", None
    found, name = {}, None
    for line in run.stdout.splitlines():
        m = re.match(r"\s*func\.func @(\w+)", line)
        if m:
            name = m.group(1)
            found[name] = [0, line.count("reason = unmappable"), 0, []]
        elif name and re.search(r"kf\.kernel .* mapping serial ", line):
            found[name][0] += 1
            found[name][2] += '"matmul"' not in line
            found[name][3].append(line.strip())
    return None, found


def mapping_batch(units, a, form="--kf-form-kernels"):
    """{name: mapping_run's list, or an error text}:
    the batch at once, halved until alone when kfuse-opt fails on it."""
    err, found = mapping_run(units, a, form)
    if err is None:
        return found
    if len(units) == 1:
        return {units[0].name: err}
    half = len(units) // 2
    return {**mapping_batch(units[:half], a, form), **mapping_batch(units[half:], a, form)}


def mapping_error(unit, a):
    """What fails in one unit: kfuse-opt's error, or None when it maps."""
    err, found = mapping_run([unit], a, fallback=False)
    return err


def unmapped_error(unit, a, exempt):
    """None when every kernel of unit has a GPU mapping (when exempt: every
    kernel without a matmul), else what fails: kfuse-opt's refusal, or the
    kernels mapped serial."""
    err, found = mapping_run([unit], a)
    if err:
        return err
    bad = [k for k in found[unit.name][3] if not (exempt and '"matmul"' in k)]
    if not bad:
        return None
    return "error: a kernel no GPU mapping serves (mapped serial):\n" + "\n".join(bad)


def check_mapped(progs, a):
    """The mapping invariant over progs; 1 when a program breaks it."""
    broken = refused = exempt = planner_unmapped = unmappable = 0
    for start in range(0, len(progs), a.batch):
        batch = progs[start:start + a.batch]
        units = [Unit(p) for p in batch]
        checked = mapping_batch(units, a)
        alone = mapping_batch(units, a, "--kf-form-kernels=check-mappings=false")
        for p in batch:
            res = checked[p.name]
            if p.gpu_unmappable:
                exempt += 1
            elif isinstance(alone[p.name], list) and alone[p.name][0]:
                planner_unmapped += 1
            if isinstance(res, list):
                unmappable += res[1]
                # An exempt program's serial kernels must each hold a matmul.
                if not res[2 if p.gpu_unmappable else 0]:
                    continue
                err = unmapped_error(Unit(p), a, bool(p.gpu_unmappable))
                what = "breaks the mapping invariant"
                broken += 1
            else:
                err, what = res, "is refused by kfuse-opt"
                refused += 1
            def checker(units, a, exempt=bool(p.gpu_unmappable)):
                return unmapped_error(units[0], a, exempt)
            small = shrink(p, err, a, checker)
            if small.text == Unit(p).text:  # no prefix fails the same way
                small = drop_ops(p, err, checker, a)
            # kfuse-opt's own words (it stops at the first kernel refused:
            # in an exempt program, the batched matmul's)
            why = "" if p.gpu_unmappable else mapping_error(small, a) or ""
            print(f"kf-fuzz: {p.name} {what}:\n{err}\nshrunk to:\n{small.text}{why}")
            if a.save_dir:
                os.makedirs(a.save_dir, exist_ok=True)
                with open(os.path.join(a.save_dir, f"mapping-{p.name}.mlir"), "w") as f:
                    f.write(f"// Found by kf_fuzz.py --check-mapped (seed {a.seed}).\n"
                            f"// RUN: kfuse-opt %s {' '.join(MAP_PASSES)}\n\n" + small.text)
    print(f"kf-fuzz: {len(progs)} programs: {len(progs) - broken - refused} keep the mapping "
          f"invariant ({exempt} exempt: an op no GPU mapping serves), {broken} break it, "
          f"{refused} refused by kfuse-opt; planner alone (check-mappings=false): "
          f"{planner_unmapped} programs unmapped; {unmappable} boundaries unmappable "
          f"(seed {a.seed})")
    return 1 if broken or refused else 0


def ops_alone(progs, a):
    """Each op of progs in a function of its own through the mapping
    passes: which ops no GPU mapping serves even alone (NO_GPU_MAPPING)."""
    units = []
    for p in progs:
        byname = {v.name: v for v in p.vals}
        for line in p.lines:
            name, rhs = line.strip().split(" = ", 1)
            operands = []
            for n in re.findall(r"%(?:v|arg)\d+\b", rhs):
                if byname[n] not in operands:
                    operands.append(byname[n])
            u = Unit(p, [line], [byname[name]], operands)
            u.name = f"{p.name}_{name[1:]}"
            u.text = u.text.replace(f"@{p.name}(", f"@{u.name}(").replace(
                f"@{p.name}:", f"@{u.name}:")
            u.op = line
            units.append(u)
    kinds = {}
    failures = 0
    for start in range(0, len(units), a.batch * 10):
        batch = units[start:start + a.batch * 10]
        found = mapping_batch(batch, a)
        for u in batch:
            res = found[u.name]
            if isinstance(res, list) and not res[0]:
                continue
            if not isinstance(res, list):
                failures += 1
                print(f"kf-fuzz: kfuse-opt refused or failed:\n{res}\n{u.text}")
                continue
            op = re.search(r"= (kf\.\w+)", u.op).group(1)
            ranks = re.findall(r"tensor<((?:[0-9?]+x)*)", u.op.split(" : ", 1)[1])
            key = f"{op} of ranks {','.join(str(r.count('x')) for r in ranks)}"
            if key not in kinds:
                print(f"kf-fuzz: no GPU mapping alone: {u.op.strip()}\n  {mapping_error(u, a)}")
            kinds[key] = kinds.get(key, 0) + 1
    print(f"kf-fuzz: {len(units)} ops alone, {sum(kinds.values())} with no GPU mapping: "
          + ", ".join(f"{k} ({n})" for k, n in sorted(kinds.items())) + f"; {failures} refused")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kfuse-opt")
    ap.add_argument("--runner", help="mlir-runner command (fusion_diff.py)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--save-dir")
    ap.add_argument("--kinds", help="op kinds added to the draw (kf_gen.EXTRA_KINDS, "
                    "comma-separated): " + ", ".join(EXTRA_KINDS))
    ap.add_argument("--candidate", default="--kf-cpu-pipeline=fusion=on",
                    help="the pipeline compared with the unfused CPU one")
    ap.add_argument("--skip-unmapped", action="store_true",
                    help="count programs the GPU mappings refuse as skipped")
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--dynamic", type=float, default=0.3,
                    help="share of programs with dynamic argument dims")
    ap.add_argument("--pointwise-only", action="store_true",
                    help="elementwise, broadcast and reshape ops only")
    ap.add_argument("--half-reference", action="store_true",
                    help="f16/bf16 programs against the same program in f32")
    ap.add_argument("--kfuse-run", help="check with kfuse-compile --emit=lib and kfuse-run --check")
    ap.add_argument("--kfuse-compile", help="default: next to --kfuse-run")
    ap.add_argument("--device", default="auto", help="kfuse-run --device")
    ap.add_argument("--pack", metavar="DIR", help="compile the programs into DIR, run nothing")
    ap.add_argument("--prebuilt", metavar="DIR", help="run what --pack compiled (with --kfuse-run)")
    ap.add_argument("--check-mapped", action="store_true",
                    help="no execution: every kernel kf-form-kernels forms has a GPU mapping "
                         "(programs with an op of kf_gen.NO_GPU_MAPPING exempt)")
    ap.add_argument("--ops-alone", action="store_true",
                    help="each op through the mapping passes alone: those no GPU mapping serves")
    a = ap.parse_args()
    if a.kfuse_run and not a.kfuse_compile:
        a.kfuse_compile = os.path.join(os.path.dirname(a.kfuse_run), "kfuse-compile")
    if a.prebuilt:
        if not a.kfuse_run:
            ap.error("--prebuilt needs --kfuse-run")
        return run_prebuilt(a)
    if not a.kfuse_opt or not (a.runner or a.kfuse_run or a.pack or a.check_mapped
                               or a.ops_alone):
        ap.error("needs --kfuse-opt and --runner (or --kfuse-run, or --pack with --kfuse-compile)")
    if a.half_reference and (a.kfuse_run or a.pack or a.pointwise_only):
        ap.error("--half-reference runs through fusion_diff.py: not with --kfuse-run, --pack "
                 "or --pointwise-only")
    for kind in (a.kinds.split(",") if a.kinds else ()):
        if kind not in EXTRA_KINDS:
            ap.error(f"--kinds: unknown kind {kind!r} (known: {', '.join(EXTRA_KINDS)})")
    progs = []
    for i in range(a.count):
        rng = random.Random(a.seed * 1000003 + i)
        if a.half_reference:
            progs.append(HalfProgram(rng, f"h{a.seed}_{i}", rng.randint(1, 20), a.dynamic))
        else:
            progs.append(Program(rng, f"p{a.seed}_{i}", rng.randint(1, 40), a.pointwise_only,
                                 a.dynamic, a.kinds.split(",") if a.kinds else ()))
    if a.check_mapped:
        return check_mapped(progs, a)
    if a.ops_alone:
        return ops_alone(progs, a)
    if a.pack:
        if not a.kfuse_compile:
            ap.error("--pack needs --kfuse-compile (or --kfuse-run)")
        return pack(progs, a)
    failures = skipped = exempt = 0
    stats = {"gpu": 0, "cpu": 0}
    for start in range(0, len(progs), a.batch):
        batch = progs[start:start + a.batch]
        batch_stats = {"gpu": 0, "cpu": 0}
        if check([Unit(p) for p in batch], a, batch_stats) is None:
            for k in stats:
                stats[k] += batch_stats[k]
            continue
        for p in batch:  # find which one fails
            err = check([Unit(p)], a, stats)
            if err is None:
                continue
            if err is SKIPPED:
                # Which program and why: the skip count must fall to the
                # programs with an op of kf_gen.NO_GPU_MAPPING.
                skipped += 1
                exempt += bool(p.gpu_unmappable)
                print(f"kf-fuzz: {p.name} skipped{' (exempt)' if p.gpu_unmappable else ''}: "
                      f"{skip_reason.split('error: ', 1)[-1]}")
                continue
            failures += 1
            small = shrink(p, err, a)
            print(f"kf-fuzz: {p.name} fails:\n{err}\nshrunk to:\n{small.text}")
            if a.save_dir:
                os.makedirs(a.save_dir, exist_ok=True)
                with open(os.path.join(a.save_dir, f"fuzz-{p.name}.mlir"), "w") as f:
                    f.write(regression_test(small, a))
    dynamic = sum(1 for p in progs if p.dims())
    where = (f" ({stats['gpu']} on the GPU, {stats['cpu']} on the CPU)" if a.kfuse_run else "")
    print(f"kf-fuzz: {len(progs) - failures - skipped} passed{where}, {failures} failed"
          + (f", {skipped} skipped (no GPU mapping; {exempt} of them with an op of "
             f"kf_gen.NO_GPU_MAPPING)" if a.skip_unmapped else "")
          + f" (seed {a.seed}; {dynamic} with dynamic dims"
          + (f"; {sum(1 for p in progs if p.half == 'f16')} f16, "
             f"{sum(1 for p in progs if p.half == 'bf16')} bf16" if a.half_reference else "")
          + ")")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
