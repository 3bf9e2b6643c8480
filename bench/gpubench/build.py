"""gpu_bench.py --build (bench/pack.sh): the families', models' and sweep's libraries."""
import json
import os
import string
import subprocess
import sys
import tempfile

from .catalogue import model_rows, rows, spec_library
from .common import (CHIP_SPECS, FAMILY_COMPILE_ARGS, FAMILY_TEMPLATE, HERE, MODEL_NAMES,
                     MODEL_SIZES, SPEC_RE, SWEEP_MATMULS, TEMPLATE_FAMILIES)


def compile_lib(args, src, lib, extra=()):
    """kfuse-compile SRC --emit=lib: None, or its error (first error line).
    A --gpu-chip in `extra` replaces the one of --compile-arg."""
    base = args.compile_arg
    if any(e.startswith("--gpu-chip=") for e in extra):
        base = [a for a in base if not a.startswith("--gpu-chip=")]
    cmd = [args.kfuse_compile, src, "--emit=lib", "-o", lib] + base + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 0:
        return None
    lines = [x for x in p.stderr.splitlines() if "error" in x] or p.stderr.splitlines() or [
        f"exit {p.returncode}"]
    return lines[0].strip()[:300]


def has_torch(python):
    if not python or not os.access(python, os.X_OK):
        return False
    try:
        found = subprocess.run(
            [python, "-c", "import importlib.util, sys; "
             "sys.exit(importlib.util.find_spec('torch') is None)"],
            capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return False
    return found.returncode == 0


def torch_python(given):
    """A Python that can import torch (for kfuse-import), or None: --torch-
    python, this one, KFUSE_TORCH_PYTHON, the venv of scripts/setup.sh
    (KFUSE_VENV, else ${XDG_CACHE_HOME:-~/.cache}/kfuse/venv), as
    kfuse-import and test/lit.cfg.py look for it."""
    if given:
        return given if has_torch(given) else None
    venv = os.environ.get("KFUSE_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kfuse", "venv")
    for python in (sys.executable, os.environ.get("KFUSE_TORCH_PYTHON"),
                   os.path.join(venv, "bin", "python")):
        if has_torch(python):
            return python
    return None


def build_models(args, info):
    """bench/models.py's models through kfuse-import and kfuse-compile."""
    if args.no_models:
        info["models"] = {n: "not built (--no-models)" for n in MODEL_NAMES}
        print("model rows: not built (--no-models)")
        return
    python = torch_python(args.torch_python)
    if python is None:
        why = "no Python with PyTorch for kfuse-import (--torch-python, KFUSE_TORCH_PYTHON " \
              "or scripts/setup.sh's venv)"
        info["models"] = {n: "not built: " + why for n in MODEL_NAMES}
        print("model rows skipped: " + why)
        return
    env = dict(os.environ, **{k: str(v) for k, v in MODEL_SIZES[args.sizes].items()})
    sizes = " ".join(f"{k}={v}" for k, v in MODEL_SIZES[args.sizes].items())
    importer = os.path.join(HERE, "..", "importer", "kfuse-import")
    for row in model_rows(args.sizes):
        name = row["function"]
        src = os.path.join(args.programs, name + ".mlir")
        p = subprocess.run([python, importer, os.path.join(HERE, "models.py"), "--model", name,
                            "-o", src], capture_output=True, text=True, env=env)
        why = None
        if p.returncode != 0:
            why = "kfuse-import failed: " + (p.stderr.strip().splitlines() or ["?"])[-1][:300]
        else:
            why = compile_lib(args, src, os.path.join(args.programs, row["library"]))
            why = why and "kfuse-compile failed: " + why
        if why:
            info["models"][name] = "not built: " + why
            print(f"gpu_bench: WARNING: model row {name} not built: {why}")
        else:
            info["models"][name] = "built"
            print(f"built {row['library']}: {name} ({sizes})")


def build_sweep(args, info):
    """The sweep's matmuls again for each SPEC of --matmul-tiles, a library
    each; a SPEC (or one matmul of it) kfuse-compile refuses is recorded."""
    specs = [s.strip() for s in (args.matmul_tiles or "").split(",") if s.strip()]
    if not specs:
        return
    p = subprocess.run([args.kfuse_compile, "--help"], capture_output=True, text=True)
    if "matmul-tiles" not in p.stdout + p.stderr:
        info["sweep_note"] = (f"matmul tile sweep skipped: {args.kfuse_compile} has no "
                              "--matmul-tiles")
        print(info["sweep_note"])
        return
    text = open(os.path.join(HERE, "gpu", "matmul.mlir")).read()
    functions = {}
    for t, n in SWEEP_MATMULS[args.sizes]:
        name = f"matmul_{t}_{n}x{n}"
        functions[name] = string.Template(text).substitute(N=n, T=t, NAME=name)
    src = os.path.join(args.programs, "matmul_sweep.mlir")
    with open(src, "w") as f:
        f.write("\n".join(functions.values()))
    for spec in specs:
        entry = {"spec": spec, "library": None, "functions": [], "refused": {}}
        info["sweep"].append(entry)
        if not SPEC_RE.match(spec) and spec not in CHIP_SPECS:
            entry["refused"]["*"] = "not a SPEC (MxNxK/WMxWN/STAGES[/GROUP_M], or sm_90a)"
            print(f"matmul tiles {spec}: refused: {entry['refused']['*']}")
            continue
        lib = os.path.join(args.programs, spec_library(spec))
        flag = CHIP_SPECS.get(spec, ["--matmul-tiles=" + spec])
        why = compile_lib(args, src, lib, flag)
        accepted = list(functions)
        if why:  # which matmuls it refuses: each alone, the rest together
            accepted = []
            with tempfile.TemporaryDirectory() as tmp:
                for name, body in functions.items():
                    one = os.path.join(tmp, name + ".mlir")
                    with open(one, "w") as f:
                        f.write(body)
                    err = compile_lib(args, one, os.path.join(tmp, name + ".so"), flag)
                    if err:
                        entry["refused"][name] = err
                    else:
                        accepted.append(name)
            if accepted:
                part = os.path.join(args.programs, spec_library(spec)[:-3] + ".mlir")
                with open(part, "w") as f:
                    f.write("\n".join(functions[n] for n in accepted))
                err = compile_lib(args, part, lib, flag)
                if err:
                    entry["refused"]["*"] = err
                    accepted = []
            if not accepted and len(set(entry["refused"].values())) <= 1:
                entry["refused"] = {"*": why}  # the SPEC itself, whatever the matmul
        for name, err in entry["refused"].items():
            print(f"matmul tiles {spec}: kfuse-compile refuses {name}: {err}")
        if accepted:
            entry["library"], entry["functions"] = os.path.basename(lib), accepted
            print(f"built {entry['library']}: {', '.join(accepted)} ({' '.join(flag)})")


def build(args):
    os.makedirs(args.programs, exist_ok=True)
    modules = {}
    for row in rows(args.sizes):
        if row["family"] not in TEMPLATE_FAMILIES:
            continue
        template = FAMILY_TEMPLATE.get(row["family"], row["family"])
        text = open(os.path.join(HERE, "gpu", template + ".mlir")).read()
        body = string.Template(text).substitute(row["values"])
        if row["function"] not in modules.setdefault(row["family"], {}):
            modules[row["family"]][row["function"]] = body
    for family, functions in modules.items():
        src = os.path.join(args.programs, family + ".mlir")
        with open(src, "w") as f:
            f.write("\n".join(functions.values()))
        cmd = [args.kfuse_compile, src, "--emit=lib", "-o",
               os.path.join(args.programs, family + ".so")] + args.compile_arg + \
            FAMILY_COMPILE_ARGS.get(family, [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"gpu_bench: {' '.join(cmd)} failed:\n{p.stderr}")
        print(f"built {family}.so: {', '.join(functions)}")
    info = {"sizes": args.sizes, "models": {}, "sweep": []}
    build_models(args, info)
    build_sweep(args, info)
    with open(os.path.join(args.programs, "build.json"), "w") as f:
        json.dump(info, f, indent=2)
    return 0


def read_build(programs):
    try:
        with open(os.path.join(programs, "build.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
