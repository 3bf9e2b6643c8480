#!/usr/bin/env python3
"""The GPU half of bench/gpu-check.sh (see there), and the program builder
of bench/pack.sh.

  gpu_bench.py --build --sizes full|dry --kfuse-compile PATH --programs DIR
          [--matmul-tiles SPEC,SPEC...] [--torch-python PY] [--no-models]
      writes one module a family (bench/gpu/*.mlir templates, one function a
      row) into DIR and compiles each with kfuse-compile --emit=lib; imports
      the models of bench/models.py (kfuse-import, with a Python that has
      PyTorch: skipped with a note where there is none) into
      model_NAME.so; with --matmul-tiles, the matmul sweep's rows again for
      each SPEC (kfuse-compile --matmul-tiles=SPEC, where kfuse-compile has
      the option) into matmul_tSPEC.so. DIR/build.json says what was built
      and what was not, and why.
  gpu_bench.py --bundle B --out O [--dry-run] [--budget-s S] [--sweep-s S]
          [--total-s S]
      the examples against the CPU (kfuse-run), the benchmark rows (below),
      the model rows, the tile sweep's rows, the packed random programs
      (kf_fuzz.py --prebuilt) with what is left of the time.

Each benchmark row calls kfuse's compiled function through ctypes
(runtime.h; the library's fused GPU entry point) on tensors PyTorch
allocated on the same device (the driver's primary context, shared), and
times, interleaved in rounds: kfuse with CUDA-graph replay on, kfuse with it
off, torch eager and torch.compile (not for a lone matmul, which
torch.compile hands to cuBLAS as eager does: its first call's compile is
time the run does not have). Every time is wall clock per call over a loop
synchronized at its end (host overhead included, as a user sees it).
kfuse's result is checked against torch's before any timing. Rates: GB/s
(bytes a call: what the row must read and write) against the measured
device-to-device copy bandwidth, TFLOP/s against the H200's dense peaks
(989 f16/bf16, 67 f32 without TF32; torch.matmul runs with TF32 off).

The model rows (family "model": bench/models.py's gpt2_block and
llama_mlp, f32, weights from torch.manual_seed(0)) pass the module's
parameters (named_parameters() order, kfuse-import's) and then forward()'s
inputs; the reference is the module itself in eager f32, and torch.compile
compiles the module. The sweep rows (`matmul_f16_4096x4096
tiles=128x128x32/2x2/3`) run kfuse graph-on against torch eager (cuBLAS)
only, after every other row; the table's end says each size's best tiles.
A sweep row that fails is recorded and does not fail the run.

The rows run in worker processes (this script, --worker): the runtime
stops the process on a failed driver call (runtime.h), and a CUDA error can
poison the context, so a row that kills its worker is recorded as failed
and a fresh worker takes the rows after it; the sweep's rows get a worker
of their own. Without PyTorch (or with --no-torch), inputs come from numpy
(checked against numpy where that is cheap) and only kfuse is timed.
--dry-run (CI, the fake driver of test/fake-cuda): tiny sizes, nothing is
computed, no timing claims; where PyTorch is installed its rows still run
torch eager and torch.compile (backend 'eager': nothing is compiled)
through the same code as on the GPU, on CPU tensors: the fake driver's
device memory is host memory, and a CPU-only CI thus runs the torch code a
GPU machine runs. --device cpu --sizes dry (on a dry --build): a rehearsal
of the GPU run that computes, on kfuse's host code and CPU tensors, every
row checked against torch (the model rows' arguments included).
"""
import argparse
import ctypes
import functools
import glob
import importlib.util
import json
import os
import queue
import re
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PEAK_TFLOPS = {"f16": 989.0, "bf16": 989.0, "f32": 67.0}  # H200 SXM, dense
NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16}
BYTES = {"f32": 4, "f16": 2, "bf16": 2}
TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 3e-2}  # of max |reference|
TEMPLATE_FAMILIES = ("softmax", "layer_norm", "matmul", "transpose", "add_relu")
# torch.compile of a lone matmul calls cuBLAS, as torch eager does: not timed.
NO_COMPILE_FAMILIES = ("matmul",)
# bench/models.py's sizes (its environment variables), set explicitly on
# both sides: kfuse-import at --build, the reference module on the GPU.
# "full" is models.py's defaults (issue 25's sizes).
MODEL_SIZES = {
    "full": dict(GPT2_B=8, GPT2_T=512, GPT2_D=768, LLAMA_ROWS=4096, LLAMA_D=2048,
                 LLAMA_HIDDEN=5632),
    "dry": dict(GPT2_B=1, GPT2_T=8, GPT2_D=24, LLAMA_ROWS=4, LLAMA_D=8, LLAMA_HIDDEN=16),
}
MODEL_NAMES = ("gpt2_block", "llama_mlp")
GPT2_HEADS = 12  # models.GPT2Block's default
# The tile sweep's matmuls (kept few: a library a SPEC travels in the
# bundle), in the order they run: a size's SPECs one after another, so that
# a sweep cut short by its time still compares whole sizes. f32 without
# TF32 may not be a tensor-core kernel (then the tiles change nothing).
SWEEP_MATMULS = {
    "full": [("f16", 4096), ("bf16", 4096), ("f16", 8192), ("bf16", 8192), ("f16", 2048),
             ("bf16", 2048), ("f16", 1024)],
    "dry": [("f16", 32), ("bf16", 32), ("f32", 32)],
}
SPEC_RE = re.compile(r"^\d+x\d+x\d+/\d+x\d+/\d+(/\d+)?$")
# A sweep entry that is a chip, not tiles: the same matmuls for sm_90a,
# where f16 and bf16 `a @ b` take the wgmma kernel (MatmulWgmma.cpp).
CHIP_SPECS = {"sm_90a": ["--gpu-chip=sm_90a"]}
PREFIX = "KFUSE-BENCH "  # a worker's messages on its stdout


def model_rows(sizes):
    """The model rows: what they take (their forward()'s inputs; the
    weights come first, as the manifest says) and what they compute."""
    s = MODEL_SIZES[sizes]
    b, t, d = s["GPT2_B"], s["GPT2_T"], s["GPT2_D"]
    m = b * t  # tokens
    # GPT-2 block, one call: the Linear layers over M = B*T tokens,
    # c_attn D->3D, attn_proj D->D, c_fc D->4D, mlp_proj 4D->D:
    #   2*M*D*D * (3 + 1 + 4 + 4) = 24*M*D^2;
    # attention, per batch and head (hd = D/heads): q @ k^T is T x hd x T and
    # att @ v is T x T x hd: 2 * 2*T*T*hd each head, B*heads of them:
    #   4*B*T^2*D (the masked half counted as computed, as cuBLAS does).
    # Full size (B8 T512 D768): 24*4096*768^2 + 4*8*512^2*768
    #   = 57.98e9 + 6.44e9 = 64.4 GFLOP a call.
    gpt2_flops = 24 * m * d * d + 4 * b * t * t * d
    # Weights: ln_1, ln_2 (2D each), c_attn 3D^2+3D, attn_proj D^2+D, c_fc
    # 4D^2+4D, mlp_proj 4D^2+D; x and the mask in, x out.
    gpt2_bytes = 4 * (12 * d * d + 13 * d + 2 * m * d + t * t)
    r, ld, h = s["LLAMA_ROWS"], s["LLAMA_D"], s["LLAMA_HIDDEN"]
    # Llama MLP: w1 and w3 (D->H) and w2 (H->D) over ROWS rows:
    #   3 * 2*ROWS*D*H = 6*ROWS*D*H. Full size (4096 rows, 2048 -> 5632):
    #   6*4096*2048*5632 = 283.5 GFLOP a call.
    llama_flops = 6 * r * ld * h
    llama_bytes = 4 * (ld + 3 * ld * h + 2 * r * ld)
    return [
        dict(family="model", name="gpt2_block", function="gpt2_block", values={},
             shapes=[(b, t, d), (t, t)], dtype="f32", bytes=gpt2_bytes, flops=gpt2_flops,
             library="model_gpt2_block.so", env=s),
        dict(family="model", name="llama_mlp", function="llama_mlp", values={},
             shapes=[(r, ld)], dtype="f32", bytes=llama_bytes, flops=llama_flops,
             library="model_llama_mlp.so", env=s),
    ]


def rows(sizes):
    """The standard rows and the model rows, in the order they run: (family,
    template values, shapes, dtype, what it moves or computes, library)."""
    full = sizes == "full"
    out = []
    for r, c in ([(1024, 1024), (4096, 4096), (8192, 32768)] if full else [(4, 64), (8, 256)]):
        out.append(("softmax", dict(R=r, C=c, T="f32"), [(r, c)], "f32", 2 * r * c * 4, 0))
    for r, c in ([(4096, 4096), (32768, 1024)] if full else [(4, 64), (16, 32)]):
        out.append(("layer_norm", dict(R=r, C=c, T="f32"), [(r, c)], "f32", 2 * r * c * 4, 0))
    for t in ("f16", "bf16", "f32"):
        for n in ([1024, 2048, 4096, 8192] if full else [32]):
            out.append(("matmul", dict(N=n, T=t), [(n, n), (n, n)], t, 3 * n * n * BYTES[t],
                        2 * n ** 3))
    for n in ([4096, 8192] if full else [64]):
        out.append(("transpose", dict(N=n, T="f32"), [(n, n)], "f32", 2 * n * n * 4, 0))
    for n in ([10 ** 6, 10 ** 7, 10 ** 8] if full else [1000, 10000, 100000]):
        out.append(("add_relu", dict(T="f32", n=n), [(n,), (n,)], "f32", 3 * n * 4, 0))
    result = []
    for family, values, shapes, dtype, moved, flops in out:
        if family == "add_relu":
            name, fn = f"add_relu_{values['n']:.0e}".replace("+", ""), "add_relu_f32"
        else:
            dims = "x".join(str(d) for d in shapes[0])
            name = f"{family}_{dtype}_{dims}"
            fn = name
        result.append(dict(family=family, name=name, function=fn, values=dict(values, NAME=fn),
                           shapes=shapes, dtype=dtype, bytes=moved, flops=flops,
                           library=family + ".so"))
    return result + model_rows(sizes)


def spec_library(spec):
    """The sweep library of SPEC: a file name without '/'."""
    return "matmul_t" + spec.replace("/", "_") + ".so"


def sweep_rows(sizes, built):
    """The sweep's rows, from what --build made (build.json's sweep entries
    with a library): a size's SPECs one after another."""
    specs = [s for s in built if s.get("library")]
    result = []
    for t, n in SWEEP_MATMULS[sizes]:
        base = f"matmul_{t}_{n}x{n}"
        for s in specs:
            if base not in s["functions"]:
                continue
            result.append(dict(family="matmul", name=f"{base} tiles={s['spec']}", base=base,
                               tiles=s["spec"], function=base, values=dict(N=n, T=t, NAME=base),
                               shapes=[(n, n), (n, n)], dtype=t, bytes=3 * n * n * BYTES[t],
                               flops=2 * n ** 3, library=s["library"]))
    return result


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
        text = open(os.path.join(HERE, "gpu", row["family"] + ".mlir")).read()
        body = string.Template(text).substitute(row["values"])
        if row["function"] not in modules.setdefault(row["family"], {}):
            modules[row["family"]][row["function"]] = body
    for family, functions in modules.items():
        src = os.path.join(args.programs, family + ".mlir")
        with open(src, "w") as f:
            f.write("\n".join(functions.values()))
        cmd = [args.kfuse_compile, src, "--emit=lib", "-o",
               os.path.join(args.programs, family + ".so")] + args.compile_arg
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


class Kfuse:
    """The runtime (runtime.h) and the libraries' entry points, through ctypes."""

    def __init__(self, runtime, device="cuda"):
        self.host = device == "cpu"
        rt = self.rt = ctypes.CDLL(os.path.realpath(runtime), mode=ctypes.RTLD_GLOBAL)
        rt.kfuse_rt_alloc.restype = ctypes.c_void_p
        rt.kfuse_rt_alloc.argtypes = [ctypes.c_size_t]
        rt.kfuse_rt_free.argtypes = [ctypes.c_void_p]
        for f in ("kfuse_rt_copy_on_device", "kfuse_rt_copy_to_device", "kfuse_rt_copy_to_host"):
            getattr(rt, f).argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        rt.kfuse_rt_graph_begin.argtypes = [ctypes.c_char_p]
        rt.kfuse_rt_set_cuda_graphs.argtypes = [ctypes.c_char_p]
        rt.kfuse_rt_device_description.restype = ctypes.c_char_p
        why = ctypes.create_string_buffer(512)
        if rt.kfuse_rt_init(device.encode(), why, 512) != 0:
            raise RuntimeError("kfuse runtime: " + why.value.decode())
        self.device = rt.kfuse_rt_device_description().decode()
        self.libs = {}

    def stats(self):
        class Stats(ctypes.Structure):
            _fields_ = [(k, ctypes.c_uint64) for k in ("captures", "updates", "replays",
                                                       "uncaptured")]
        s = Stats()
        self.rt.kfuse_rt_graph_stats(ctypes.byref(s))
        return {k: int(getattr(s, k)) for k, _ in Stats._fields_}

    def function(self, lib_path, name):
        if lib_path not in self.libs:
            lib = ctypes.CDLL(lib_path, mode=ctypes.RTLD_LOCAL)
            manifest = json.loads(ctypes.string_at(ctypes.addressof(
                ctypes.c_char.in_dll(lib, "kfuse_manifest"))).decode())
            self.libs[lib_path] = (lib, {f["name"]: f for f in manifest["functions"]})
        lib, functions = self.libs[lib_path]
        info = functions.get(name)
        if info is None:
            raise RuntimeError(f"{lib_path} has no function {name}")
        fused = info["variants"]["fused"]
        if self.host:
            return getattr(lib, f"_mlir_ciface_{name}__host_fused"), info
        if not fused["gpu"]:
            raise RuntimeError("no GPU mapping: " + fused.get("gpu_error", "?"))
        return getattr(lib, f"_mlir_ciface_{name}__gpu_fused"), info


class Call:
    """One function bound to device buffers: call() runs it once (as a graph
    call keyed by the row) and frees its result, so that the next call gets
    the same buffer back from the allocator."""

    def __init__(self, k, fn, key, args, result_rank):
        self.k, self.fn, self.key = k, fn, key.encode()
        self.descs = []
        for ptr, shape in args:
            strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
            self.descs.append((ctypes.c_int64 * (3 + 2 * len(shape)))(ptr, ptr, 0, *shape,
                                                                      *strides))
        self.result = (ctypes.c_int64 * (3 + 2 * result_rank + 1))()
        self.ptrs = [ctypes.addressof(self.result)] + [ctypes.addressof(d) for d in self.descs]
        fn.argtypes = [ctypes.c_void_p] * len(self.ptrs)
        fn.restype = None

    def __call__(self, keep=False):
        rt = self.k.rt
        rt.kfuse_rt_graph_begin(self.key)
        self.fn(*self.ptrs)
        rt.kfuse_rt_graph_end()
        if keep:
            return self.result[1]  # aligned pointer; the caller frees result[0]
        rt.kfuse_rt_free(self.result[0])
        return None


def wall(fn, sync, reps):
    sync()
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - start) / reps * 1e6  # us a call


def torch_or_none(dry, wanted=True, host=False):
    """(torch, the device its tensors live on), or (None, None). On the fake
    driver (dry run) the device is the CPU, whatever torch.cuda says: kfuse's
    "device" pointers are host memory there, and CUDA tensors' would not be;
    so it is for kfuse's host code (--device cpu)."""
    if not wanted:
        return None, None
    try:
        import torch
    except ImportError:
        return None, None
    if dry or host:
        return torch, "cpu"
    return (torch, "cuda") if torch.cuda.is_available() else (None, None)


class Bench:
    """A worker's state: torch, the runtime, the row being run."""

    def __init__(self, args):
        self.args = args
        self.torch, self.dev = torch_or_none(args.dry_run, not args.no_torch,
                                             args.device == "cpu")
        if self.torch:
            t = self.torch
            if self.dev == "cuda":
                t.cuda.init()  # the primary context exists before kfuse's init
            else:
                t.set_num_threads(1)  # tiny tensors; CI's cores are shared
            try:  # f32 is f32 on both sides (PyTorch's default for matmuls)
                t.backends.cuda.matmul.allow_tf32 = False
                t.backends.cudnn.allow_tf32 = False
            except (AttributeError, RuntimeError):
                pass
            t.set_grad_enabled(False)  # the models' forward() as inference
            try:  # one compiled graph a row: more than the default limit of 8
                t._dynamo.config.cache_size_limit = 256
                t._dynamo.config.recompile_limit = 256
            except AttributeError:
                pass
        self.k = Kfuse(args.runtime, args.device)
        self.model = None  # the model row's (module, parameter count)

    def ksync(self):
        if self.torch:
            self.tsync()
        self.k.rt.kfuse_rt_synchronize()

    def tsync(self):
        if self.dev == "cuda":  # on the CPU (dry run) torch's calls are synchronous
            self.torch.cuda.synchronize()

    def healthy(self):
        """Whether torch can still use the device after a row's exception (a
        CUDA error can poison the context: the worker then makes way)."""
        if self.dev != "cuda":
            return True
        try:
            self.torch.cuda.synchronize()
            return self.torch.ones(4, device="cuda").sum().item() == 4
        except Exception:  # noqa: BLE001 - any error: not healthy
            return False

    def torch_description(self):
        if not self.torch:
            return "not available" if not self.args.no_torch else "not used (--no-torch)"
        if self.k.host:
            return (self.torch.__version__ + " on the CPU (--device cpu: beside kfuse's host "
                    "code; torch.compile with backend 'eager')")
        if self.dev == "cpu":
            return (self.torch.__version__ + " on the CPU (dry run: CPU tensors stand in for "
                    "CUDA ones; torch.compile with backend 'eager')")
        return self.torch.__version__

    def copy_gbps(self):
        n = (1 << 28) if not (self.args.dry_run or self.k.host) else (1 << 16)  # f32: 1 GiB
        if self.torch:
            a = self.torch.empty(n, device=self.dev)
            c = self.torch.empty_like(a)
            us = min(wall(lambda: c.copy_(a), self.tsync, 10) for _ in range(3))
            del a, c
        else:
            rt = self.k.rt
            a, c = rt.kfuse_rt_alloc(4 * n), rt.kfuse_rt_alloc(4 * n)
            us = min(wall(lambda: rt.kfuse_rt_copy_on_device(c, a, 4 * n), self.ksync, 10)
                     for _ in range(3))
            rt.kfuse_rt_free(a)
            rt.kfuse_rt_free(c)
        return 8 * n / (us * 1e3)

    def load_model(self, row):
        """bench/models.py's module (on the device) and its inputs, at the
        sizes the library was imported at (row["env"])."""
        os.environ.update({k: str(v) for k, v in row["env"].items()})
        path = os.path.join(HERE, "models.py")  # the bundle's copy on the GPU machine
        spec = importlib.util.spec_from_file_location("kfuse_bench_models", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        factory, make_inputs, _ = module.MODELS[row["function"]]
        model = factory().to(self.dev)  # torch.manual_seed(0), eval()
        inputs = [x.to(self.dev).contiguous() for x in make_inputs()]
        params = [p.detach().contiguous() for _, p in model.named_parameters()]
        return model, params, inputs

    def inputs(self, row):
        """[(device pointer, shape)], the tensors (torch or numpy), keep-alive.
        A model row's: its parameters, then its inputs."""
        t = self.torch
        shapes = row.get("arg_shapes", row["shapes"])
        if t and row["family"] == "model":
            model, params, inputs = self.load_model(row)
            self.model = (model, len(params))
            xs = params + inputs
            return [(x.data_ptr(), tuple(x.shape)) for x in xs], xs
        if t:
            dt = {"f32": t.float32, "f16": t.float16, "bf16": t.bfloat16}[row["dtype"]]
            xs = [t.randn(s, device=self.dev, dtype=dt) for s in shapes]
            if row["family"] == "add_relu":
                xs = [x * 2 for x in xs]
            return [(x.data_ptr(), tuple(s)) for x, s in zip(xs, shapes)], xs
        rng = np.random.default_rng(1)
        rt, ptrs, xs = self.k.rt, [], []
        for s in shapes:
            nbytes = int(np.prod(s)) * BYTES[row["dtype"]]
            ptr = rt.kfuse_rt_alloc(nbytes)
            if not self.args.dry_run:  # the fake driver runs nothing: no data needed
                x = rng.standard_normal(s, dtype=np.float32)
                if row["dtype"] == "bf16":
                    x = (x.view(np.uint32) >> 16).astype(np.uint16)
                x = np.ascontiguousarray(x.astype(NUMPY[row["dtype"]]))
                rt.kfuse_rt_copy_to_device(ptr, x.ctypes.data, nbytes)
                xs.append(x)
            ptrs.append((ptr, tuple(s)))
        return ptrs, xs

    def torch_call(self, row, xs):
        """torch's version of the row: (a callable, its arguments)."""
        t, f = self.torch, row["family"]
        F = t.nn.functional
        if f == "model":
            model, nparams = self.model
            return model, xs[nparams:]
        if f == "softmax":
            return (lambda x: t.softmax(x, -1)), xs
        if f == "layer_norm":
            c = row["shapes"][0][1]
            return (lambda x: F.layer_norm(x, (c,), eps=1e-5)), xs
        if f == "matmul":
            return (lambda a, b: t.matmul(a, b)), xs
        if f == "transpose":
            return (lambda x: x.t().contiguous()), xs
        return (lambda a, b: t.relu(a + b)), xs

    def numpy_ref(self, row, xs):
        f = row["family"]
        if f == "model" or row["dtype"] == "bf16" or sum(x.size for x in xs) > (1 << 24):
            return None
        x = [a.astype(np.float64) for a in xs]
        if f == "softmax":
            e = np.exp(x[0] - x[0].max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True)
        if f == "layer_norm":
            m, v = x[0].mean(-1, keepdims=True), x[0].var(-1, keepdims=True)
            return (x[0] - m) / np.sqrt(v + 1e-5)
        if f == "matmul":
            return x[0] @ x[1]
        if f == "transpose":
            return x[0].T
        return np.maximum(x[0] + x[1], 0)

    def check(self, row, call, xs, result_shape):
        """kfuse's result against torch eager (or numpy): max |error| over
        max |reference|, within the dtype's tolerance."""
        rt = self.k.rt
        ptr = call(keep=True)
        nbytes = int(np.prod(result_shape)) * BYTES[row["dtype"]]
        try:
            if self.torch:
                t = self.torch
                fn, fargs = self.torch_call(row, xs)
                ref = fn(*fargs).float()
                got = t.empty(result_shape, device=self.dev, dtype=xs[0].dtype)
                self.ksync()
                rt.kfuse_rt_copy_on_device(got.data_ptr(), ptr, nbytes)
                self.ksync()
                err = (got.float() - ref).abs().max().item()
                scale = max(ref.abs().max().item(), 1e-30)
            else:
                ref = self.numpy_ref(row, xs)
                if ref is None:
                    return {"checked": False, "why": "no torch; too big, bf16 or a model "
                            "for numpy"}
                got = np.empty(result_shape, dtype=NUMPY[row["dtype"]])
                rt.kfuse_rt_copy_to_host(got.ctypes.data, ptr, nbytes)
                err = float(np.max(np.abs(got.astype(np.float64) - ref)))
                scale = max(float(np.max(np.abs(ref))), 1e-30)
        finally:
            rt.kfuse_rt_free(ctypes.c_void_p(call.result[0]))
        rel = err / scale
        return {"checked": True, "rel_error": rel, "ok": bool(rel <= TOLERANCE[row["dtype"]])}

    def row(self, row, copy_gbps, compile_deadline):
        out = {"row": row["name"], "family": row["family"], "dtype": row["dtype"],
               "shapes": row["shapes"], "bytes": row["bytes"], "flops": row["flops"]}
        sweep = bool(row.get("tiles"))
        if sweep:
            out["tiles"], out["base"] = row["tiles"], row["base"]
        lib = os.path.join(self.args.programs, row["library"])
        try:
            fn, info = self.k.function(lib, row["function"])
        except (OSError, RuntimeError) as e:
            out["error"] = str(e)[:300]
            return out
        if row["family"] == "model":  # the weights' shapes, then the inputs'
            row = dict(row, arg_shapes=[tuple(a["shape"]) for a in info["args"]])
            out["arguments"] = len(info["args"])
        if sweep:  # tensor_core, where the tiles apply (f32 without TF32: simt)
            out["variants"] = [k.get("variant") for k in
                               info["variants"]["fused"].get("kernels", [])]
        try:
            return self.timed_row(row, out, fn, info, copy_gbps, compile_deadline, sweep)
        finally:
            self.model = None

    def timed_row(self, row, out, fn, info, copy_gbps, compile_deadline, sweep):
        ptrs, xs = self.inputs(row)
        want = [a["shape"] for a in info["args"]]
        if len(want) != len(ptrs) or any(
                len(w) != len(s) or any(a not in (-1, b) for a, b in zip(w, s))
                for w, (_, s) in zip(want, ptrs)):
            out["error"] = (f"the library's arguments {[a['shape'] for a in info['args']]} are "
                            f"not the row's {[list(s) for _, s in ptrs]}")
            return out
        result_shape = [s if s >= 0 else row["shapes"][0][0] for s in info["results"][0]["shape"]]
        call = Call(self.k, fn, row["name"], ptrs, len(result_shape))
        rt = self.k.rt
        rt.kfuse_rt_set_cuda_graphs(b"off")
        self.ksync()  # the inputs are ready before kfuse's stream reads them
        call()  # the first call: PTX JIT, allocations
        if not self.args.dry_run:
            out["check"] = self.check(row, call, xs, result_shape)
            # The same through a replayed graph (call 1 of the key runs
            # launch by launch, call 2 captures, the check's call replays).
            rt.kfuse_rt_set_cuda_graphs(b"on")
            call()
            call()
            out["check_graph"] = self.check(row, call, xs, result_shape)
            rt.kfuse_rt_set_cuda_graphs(b"off")
        # Methods: (kfuse's CUDA-graph mode or None, a call, its sync). Each
        # call is bound here, its arguments with it (functools.partial): the
        # lambdas this replaced looked their function up by a name of this
        # frame when called, and the timing loop below rebound that name, so
        # torch eager ended up calling itself (TypeError on the H200). The
        # sweep's rows: kfuse graph-on against torch eager (cuBLAS) only.
        methods = {"kfuse_graph_on": (b"on", call, self.ksync)}
        if not sweep:
            methods["kfuse_graph_off"] = (b"off", call, self.ksync)
        if self.torch:
            eager, eager_args = self.torch_call(row, xs)
            methods["torch_eager"] = (None, functools.partial(eager, *eager_args), self.tsync)
            if sweep:
                pass
            elif row["family"] in NO_COMPILE_FAMILIES:
                out["compile_note"] = "not timed: torch.compile hands a lone matmul to cuBLAS"
            elif time.time() > compile_deadline:
                out["compile_note"] = "skipped: past its share of the time budget"
            else:
                try:
                    # The dry run traces but compiles nothing (no C++ build
                    # of CPU kernels, whose times would mean nothing).
                    backend = "inductor" if self.dev == "cuda" else "eager"
                    compiled = functools.partial(
                        self.torch.compile(eager, dynamic=False, backend=backend), *eager_args)
                    t0 = time.time()
                    compiled()
                    self.tsync()
                    out["compile_first_call_s"] = time.time() - t0
                    methods["torch_compile"] = (None, compiled, self.tsync)
                except Exception as e:  # noqa: BLE001 - no compiler toolchain, etc.
                    out["compile_note"] = str(e).splitlines()[0][:200] if str(e) else repr(e)
        # Warmed once more; graphs on: the capture happens here.
        before = self.k.stats()
        for mode, fn, sync in methods.values():
            if mode:
                rt.kfuse_rt_set_cuda_graphs(mode)
            for _ in range(2):
                fn()
            sync()
        # Repetitions: about 0.1 s a measurement, at least 2; rounds
        # interleave the methods (3, or 1 for rows slower than 20 ms a call).
        one = wall(call, self.ksync, 1)  # the last mode set
        reps = 3 if self.args.dry_run else max(2, min(200, int(1e5 / max(one, 1))))
        rounds = 1 if one > 2e4 else 3
        times = {m: [] for m in methods}
        for _ in range(rounds):
            for m, (mode, fn, sync) in methods.items():
                if mode:
                    rt.kfuse_rt_set_cuda_graphs(mode)
                times[m].append(wall(fn, sync, reps))
        rt.kfuse_rt_set_cuda_graphs(b"off")
        rt.kfuse_rt_reset_records()
        after = self.k.stats()
        out["graph"] = {k: after[k] - before[k] for k in after}
        out["reps"], out["rounds"] = reps, rounds
        for m, ts in times.items():
            us = sorted(ts)[len(ts) // 2]
            out[m + "_us"] = us
        for m in times:
            us = out[m + "_us"]
            if row["flops"]:
                out[m + "_tflops"] = row["flops"] / (us * 1e6)
                out[m + "_peak_fraction"] = out[m + "_tflops"] / PEAK_TFLOPS[row["dtype"]]
            else:
                out[m + "_gbps"] = row["bytes"] / (us * 1e3)
                out[m + "_copy_fraction"] = out[m + "_gbps"] / copy_gbps
        for base in ("torch_eager", "torch_compile"):
            if base + "_us" in out:
                for m in ("kfuse_graph_on", "kfuse_graph_off"):
                    if m + "_us" in out:
                        out[f"{m}_vs_{base}"] = out[base + "_us"] / out[m + "_us"]
        del xs, methods
        if not self.torch:
            for p, _ in ptrs:
                rt.kfuse_rt_free(ctypes.c_void_p(p))
        return out

    def launch_overhead(self):
        """Host time a launch, graphs on and off: add_relu of 1000 floats (one
        launch a call), as many calls as fit in 0.2 s. On the fake driver a
        proxy: the runtime's own host cost, no driver cost."""
        row = [r for r in rows("dry") if r["family"] == "add_relu"][0]
        lib = os.path.join(self.args.programs, row["library"])
        try:
            fn, info = self.k.function(lib, row["function"])
        except (OSError, RuntimeError) as e:
            return {"error": str(e)[:300]}
        ptrs, xs = self.inputs(dict(row, shapes=[(1000,), (1000,)]))
        call = Call(self.k, fn, "launch overhead", ptrs, 1)
        out = {}
        for mode in (b"off", b"on", b"off", b"on"):
            self.k.rt.kfuse_rt_set_cuda_graphs(mode)
            for _ in range(3):
                call()
            us = wall(call, self.ksync, 2000 if not self.args.dry_run else 20000)
            key = "graph_" + mode.decode() + "_us_per_launch"
            out[key] = min(out.get(key, us), us)
            self.k.rt.kfuse_rt_reset_records()
        self.k.rt.kfuse_rt_set_cuda_graphs(b"off")
        return out


# --- the worker: the rows in a process of their own -----------------------

def emit(message):
    sys.stdout.write(PREFIX + json.dumps(message) + "\n")
    sys.stdout.flush()


def worker(args):
    """Runs the tasks of args.worker (a JSON file the parent wrote), telling
    the parent on stdout (PREFIX lines) what it starts and what it found;
    exits 3 when a row's error left the device unusable."""
    with open(args.worker) as f:
        plan = json.load(f)
    bench = Bench(args)
    copy = plan.get("copy_gbps") or bench.copy_gbps()
    emit({"hello": {"device": bench.k.device, "torch": bench.torch_description(),
                    "copy_gbps": copy}})
    for task in plan["tasks"]:
        emit({"start": task["index"]})
        poisoned = False
        if task["kind"] == "launch_overhead":
            try:
                result = bench.launch_overhead()
            except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                result = {"error": f"{type(e).__name__}: {e}"[:300]}
                poisoned = not bench.healthy()
        else:
            row = task["row"]
            if time.time() > task["deadline"]:
                result = {"row": row["name"], "family": row["family"],
                          "error": "skipped: past the time budget", "skipped": True}
            else:
                try:
                    result = bench.row(row, copy, task["compile_deadline"])
                except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                    result = {"row": row["name"], "family": row["family"], "crashed": True,
                              "error": f"{type(e).__name__}: {e}"[:300]}
                    poisoned = not bench.healthy()
                if row.get("tiles"):
                    result.setdefault("tiles", row["tiles"])
                    result.setdefault("base", row["base"])
        emit({"done": task["index"], "result": result})
        if poisoned:
            emit({"poisoned": True})
            sys.stdout.flush()
            os._exit(3)
    return 0


def log_error(path, offset):
    """The last error line a worker wrote to its log since `offset`."""
    try:
        with open(path, errors="replace") as f:
            f.seek(offset)
            lines = [x.strip() for x in f.read().splitlines() if x.strip()]
    except OSError:
        return ""
    for x in reversed(lines):
        if "kfuse runtime: error" in x:
            return x[:300]
    for x in reversed(lines):
        if "Error" in x or "error" in x:
            return x[:300]
    return lines[-1][:300] if lines else ""


class Workers:
    """Runs tasks in worker processes; a worker that dies (the runtime
    exits on a failed driver call), is killed past a task's time, or
    finds the device poisoned, takes its current task with it: that task is
    recorded as crashed and a fresh worker goes on with the rest."""

    def __init__(self, args):
        self.args = args
        self.copy_gbps = None
        self.hello = None
        self.log = os.path.join(args.out, "workers.log")
        self.count = 0
        open(self.log, "w").close()

    def command(self, plan_path):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", plan_path,
               "--programs", self.args.programs, "--runtime", self.args.runtime]
        if self.args.dry_run:
            cmd.append("--dry-run")
        if self.args.no_torch:
            cmd.append("--no-torch")
        return cmd + ["--device", self.args.device]

    def run(self, tasks, on_done, skip_after_crash=None):
        """Each task's result (task["index"] -> result); on_done(task,
        result) as they come. skip_after_crash(crashed task, task): whether
        a task is left out after that one crashed (a sweep's SPEC)."""
        results = {}
        pending = list(tasks)
        while pending:
            self.count += 1
            plan_path = os.path.join(self.args.out, f"worker-{self.count}.json")
            with open(plan_path, "w") as f:
                json.dump({"tasks": pending, "copy_gbps": self.copy_gbps}, f)
            offset = os.path.getsize(self.log)
            with open(self.log, "a") as log:
                log.write(f"--- worker {self.count}: {len(pending)} tasks\n")
                log.flush()
                proc = subprocess.Popen(self.command(plan_path), stdout=subprocess.PIPE,
                                        stderr=log, text=True, bufsize=1,
                                        start_new_session=True)
            lines = queue.Queue()

            def pump():
                for line in proc.stdout:
                    lines.put(line)
                lines.put(None)
            threading.Thread(target=pump, daemon=True).start()
            by_index = {t["index"]: t for t in pending}
            current, since, why = None, time.time(), None
            while True:
                limit = (by_index[current]["timeout_s"] if current is not None else 240)
                try:
                    line = lines.get(timeout=max(1.0, since + limit - time.time()))
                except queue.Empty:
                    why = f"killed after {limit:.0f} s without an answer"
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)  # the worker and its children
                    except OSError:
                        pass
                    break
                if line is None:
                    break
                if not line.startswith(PREFIX):
                    with open(self.log, "a") as log:
                        log.write(line)
                    continue
                msg = json.loads(line[len(PREFIX):])
                if "hello" in msg:
                    self.hello = self.hello or msg["hello"]
                    self.copy_gbps = self.copy_gbps or msg["hello"]["copy_gbps"]
                    since = time.time()
                elif "start" in msg:
                    current, since = msg["start"], time.time()
                elif "done" in msg:
                    results[msg["done"]] = msg["result"]
                    on_done(by_index[msg["done"]], msg["result"])
                    current, since = None, time.time()
            proc.wait()
            if current is None and not any(t["index"] in results for t in pending) \
                    and pending:
                # Died before its first task: another would too.
                why = why or (f"exit {proc.returncode}: " + log_error(self.log, offset))
                for t in pending:
                    r = {"row": t.get("row", {}).get("name", t["kind"]), "crashed": True,
                         "error": "the worker did not start: " + why}
                    results[t["index"]] = r
                    on_done(t, r)
                break
            if current is not None and current not in results:
                why = why or (f"the worker died (exit {proc.returncode}): "
                              + log_error(self.log, offset))
                t = by_index[current]
                r = {"row": t.get("row", {}).get("name", t["kind"]), "crashed": True,
                     "error": why[:400]}
                if t.get("row"):
                    r["family"] = t["row"]["family"]
                    if t["row"].get("tiles"):
                        r["tiles"], r["base"] = t["row"]["tiles"], t["row"]["base"]
                results[current] = r
                on_done(t, r)
                if skip_after_crash:
                    for other in pending:
                        if other["index"] not in results and skip_after_crash(t, other):
                            r = {"row": other["row"]["name"], "family": "matmul",
                                 "tiles": other["row"]["tiles"], "base": other["row"]["base"],
                                 "skipped": True, "error": "skipped: its tiles crashed "
                                 f"the worker in {t['row']['name']}"}
                            results[other["index"]] = r
                            on_done(other, r)
            pending = [t for t in pending if t["index"] not in results]
        return results


def fmt(x, unit=""):
    if x is None:
        return "-"
    if isinstance(x, float):
        return (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}") + unit
    return str(x) + unit


def check_text(r):
    """The row's check, graph replay's included: (text, ok or None)."""
    check = r.get("check", {})
    if (check.get("ok") and r.get("check_graph", {}).get("checked")
            and not r["check_graph"]["ok"]):
        check = dict(r["check_graph"], why="graph replay")
    if not check:
        return "-", None
    if not check.get("checked"):
        return "unchecked: " + check.get("why", ""), None
    return ("ok" if check["ok"] else "FAILED" + (
        " in graph replay" if check.get("why") else "")) + f" ({fmt(check['rel_error'])})", \
        check["ok"]


def sweep_summary(result):
    """Per matmul of the sweep: kfuse's own tiles (the standard row) and
    the best SPEC, each against cuBLAS (torch eager) timed in its row."""
    sweep = [r for r in result["rows"] if r.get("tiles")]
    if not sweep:
        return []
    lines = ["", "matmul tile sweep: kfuse graph on against cuBLAS (torch.matmul, TF32 off) in "
             "the same rounds; speed = cuBLAS us / kfuse us (the best of the SPECs whose "
             "result is right)", "",
             "| matmul | kfuse's own tiles: us, speed | best tiles | best us | best speed | "
             "best TFLOP/s | SPECs ok / failed / skipped |", "|" + "---|" * 7]
    standard = {r["row"]: r for r in result["rows"] if not r.get("tiles")}
    by_base = {}
    for r in sweep:
        by_base.setdefault(r["base"], []).append(r)
    for base, rs in by_base.items():
        good, failed, skipped = [], [], []
        for r in rs:
            ok = check_text(r)[1]
            if r.get("skipped"):
                skipped.append(r)
            elif "error" in r or ok is False or not r.get("kfuse_graph_on_us"):
                failed.append(r)
            else:
                good.append(r)
        own = standard.get(base, {})
        own_text = (f"{fmt(own['kfuse_graph_on_us'])} us, "
                    f"{fmt(own.get('kfuse_graph_on_vs_torch_eager'), 'x')}"
                    if own.get("kfuse_graph_on_us") else "-")
        counts = f"{len(good)} / {len(failed)} / {len(skipped)}"
        if not good:
            lines.append(f"| {base} | {own_text} | none right | - | - | - | {counts} |")
            continue
        best = min(good, key=lambda r: r["kfuse_graph_on_us"])
        variants = set(v for r in rs for v in r.get("variants", []))
        if variants and "tensor_core" not in variants:  # the same kernel each time
            counts += f" (a {'/'.join(sorted(map(str, variants)))} kernel: no tiles)"
        lines.append(f"| {base} | {own_text} | {best['tiles']} | "
                     f"{fmt(best['kfuse_graph_on_us'])} | "
                     f"{fmt(best.get('kfuse_graph_on_vs_torch_eager'), 'x')} | "
                     f"{fmt(best.get('kfuse_graph_on_tflops'))} | {counts} |")
    for r in sweep:
        if ("error" in r and not r.get("skipped")) or check_text(r)[1] is False:
            lines.append(f"sweep row {r['row']}: " + (r.get("error") or check_text(r)[0]))
    return lines


def markdown(result):
    dry = result["dry_run"]
    lines = []
    if dry:
        lines.append("fake driver, no timing claims: the numbers below measure the fake "
                     "driver's bookkeeping, not a GPU")
    lines.append(f"device: {result['device']}; copy bandwidth (measured): "
                 f"{fmt(result['copy_gbps'])} GB/s; torch: {result['torch']}")
    lines += ["", "| row | kfuse graph on us | kfuse graph off us | torch eager us | "
              "torch.compile us | kfuse rate | of peak | eager / kfuse | compile / kfuse | "
              "graph replays | check |", "|" + "---|" * 11]
    for r in result["rows"]:
        if "error" in r:
            lines.append(f"| {r['row']} | error: {r['error'][:160]} |" + " |" * 9)
            continue
        unit, frac = ("_tflops", "_peak_fraction") if r["flops"] else ("_gbps", "_copy_fraction")
        rate = r.get("kfuse_graph_on" + unit)
        rate_text = fmt(rate, " TFLOP/s" if r["flops"] else " GB/s")
        peak = r.get("kfuse_graph_on" + frac)
        lines.append(
            f"| {r['row']} | {fmt(r.get('kfuse_graph_on_us'))} | {fmt(r.get('kfuse_graph_off_us'))} | "
            f"{fmt(r.get('torch_eager_us'))} | {fmt(r.get('torch_compile_us'))} | {rate_text} | "
            f"{fmt(peak * 100 if peak is not None else None, '%')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_eager'), 'x')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_compile'), 'x')} | "
            f"{r.get('graph', {}).get('replays', '-')} | {check_text(r)[0]} |")
    o = result.get("launch_overhead", {})
    if "graph_on_us_per_launch" in o:
        lines += ["", f"host time a call of one launch (add_relu of 1000 floats"
                  f"{', fake driver: the runtime alone, host-side only' if dry else ''}): "
                  f"graphs off {fmt(o['graph_off_us_per_launch'])} us, "
                  f"graphs on {fmt(o['graph_on_us_per_launch'])} us"]
    elif "error" in o:
        lines += ["", "launch overhead: error: " + o["error"][:200]]
    lines += sweep_summary(result)
    if result.get("notes"):
        lines.append("")
    for n in result.get("notes", []):
        lines.append(n)
    return "\n".join(lines) + "\n"


# --- the checks that go through kfuse-run (examples, random programs) -----

def kfuse_run(args, bundle, timeout=240):
    cmd = [os.path.join(bundle, "bin", "kfuse-run")] + args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"kfuse-run timed out after {timeout} s"
    return p.returncode, p.stdout, p.stderr


def check_examples(bundle, out):
    results = []
    for lib in sorted(glob.glob(os.path.join(bundle, "programs", "*.so"))):
        name = os.path.basename(lib)[:-3]
        ref = os.path.join(bundle, "ref", name + ".npy")
        if not os.path.exists(ref):
            continue
        got = os.path.join(out, name + ".npy")
        args = [lib, "--device=cuda", "--seed=1", "--warmup=2", "--repeat=10",
                "--format=json", "--output", "result0=" + got, "--cuda-graph=on",
                "--trace", os.path.join(out, name + ".trace.json")]
        if name == "mlp":
            args += ["--dim", "d0=64"]
        rc, stdout, stderr = kfuse_run(args, bundle, timeout=60)
        row = {"example": name, "ran": rc == 0}
        if rc != 0:
            row["error"] = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {rc}"
        else:
            try:
                report = json.loads(stdout)
                a, b = np.load(got).astype(np.float64), np.load(ref).astype(np.float64)
                row["max_abs_error"] = float(np.max(np.abs(a - b))) if a.size else 0.0
                row["matches_cpu"] = bool(np.allclose(a, b, rtol=1e-4, atol=1e-5,
                                                      equal_nan=True))
                row["launches_per_call"] = report["steady"]["launches_per_call"]
                row["graph_replays"] = report.get("cuda_graph", {}).get("replays")
                row["device"] = report["device"]
            except (ValueError, KeyError, OSError) as e:
                row["error"] = f"{type(e).__name__}: {e}"[:300]
                row["matches_cpu"] = False
        results.append(row)
        print("example", json.dumps(row), flush=True)
    return results


FUZZ_SUMMARY = re.compile(r"kf-fuzz: (\d+) passed \((\d+) on the GPU, (\d+) on the CPU\), "
                          r"(\d+) failed")


def fuzz(bundle, out, deadline, chunk=10):
    """kf_fuzz.py --prebuilt over the packed programs, CHUNK at a time (a
    directory of links to theirs), until the deadline: what ran is counted,
    what did not is said; a chunk that runs past 30 s a program (a hang)
    fails."""
    src = os.path.join(bundle, "fuzz")
    if not os.path.exists(os.path.join(src, "programs.txt")):
        return None
    with open(os.path.join(src, "programs.txt")) as f:
        lines = f.read().split("\n")
    head, programs = lines[0], [x for x in lines[1:] if x.strip()]
    counts = {"passed": 0, "gpu": 0, "cpu": 0, "failures": 0}
    ran, failed, notes = 0, False, []
    log = open(os.path.join(out, "fuzz.log"), "w")
    work = os.path.join(out, "fuzz-chunk")
    for first in range(0, len(programs), chunk):
        left = deadline - time.time()
        if left < 20:
            break
        part = programs[first:first + chunk]
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for line in part:
            name = line.split()[0]
            for suffix in (".so", ".reference.so", ".mlir"):
                path = os.path.abspath(os.path.join(src, name + suffix))
                if os.path.exists(path):
                    os.symlink(path, os.path.join(work, name + suffix))
        with open(os.path.join(work, "programs.txt"), "w") as f:
            f.write(head + "\n" + "\n".join(part) + "\n")
        cmd = [sys.executable, os.path.join(bundle, "kf_fuzz.py"), "--prebuilt", work,
               "--kfuse-run", os.path.join(bundle, "bin", "kfuse-run"), "--device", "auto"]
        limit = min(left, 30 * len(part))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired as e:
            log.write(f"--- programs {first}..{first + len(part) - 1}: timed out after "
                      f"{limit:.0f} s\n{e.stdout or ''}{e.stderr or ''}\n")
            if limit < left:  # its own limit, not the run's end: a hang
                failed = True
                notes.append(f"programs {first}..{first + len(part) - 1} ran past "
                             f"{limit:.0f} s (a hang?)")
            break
        log.write(f"--- programs {first}..{first + len(part) - 1}\n{p.stdout}{p.stderr}\n")
        log.flush()
        m = FUZZ_SUMMARY.search(p.stdout)
        ran += len(part)
        if m:
            for k, v in zip(("passed", "gpu", "cpu", "failures"), m.groups()):
                counts[k] += int(v)
        else:
            failed = True
            counts["failures"] += len(part)
            notes.append(f"programs {first}..{first + len(part) - 1}: kf_fuzz.py exited "
                         f"{p.returncode} without its summary")
    log.close()
    shutil.rmtree(work, ignore_errors=True)
    summary = (f"kf-fuzz: {counts['passed']} passed ({counts['gpu']} on the GPU, "
               f"{counts['cpu']} on the CPU), {counts['failures']} failed, of {ran} run"
               + (f"; {len(programs) - ran} of {len(programs)} not run: out of time"
                  if ran < len(programs) else "") + "".join("; " + n for n in notes))
    print(summary)
    return {"summary": summary, "failed": failed or counts["failures"] > 0, "ran": ran,
            "programs": len(programs), **counts}


def read_build(programs):
    try:
        with open(os.path.join(programs, "build.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def check(args):
    """The GPU run: examples, the rows in workers, the random programs."""
    start = time.time()
    args.programs = args.programs or os.path.join(args.bundle, "bench")
    args.runtime = args.runtime or os.path.join(args.bundle, "lib", "libkfuse_runtime.so")
    os.makedirs(args.out, exist_ok=True)
    examples = []
    if args.bundle and not args.dry_run:
        examples = check_examples(args.bundle, args.out)
    sizes = "dry" if args.dry_run else args.sizes
    built = read_build(args.programs) or {}
    notes = []
    selected = []
    for row in rows(sizes):
        if row["family"] == "model" and not os.path.exists(
                os.path.join(args.programs, row["library"])):
            why = built.get("models", {}).get(row["function"], "not built")
            notes.append(f"model row {row['name']}: {why}")
            continue
        selected.append(row)
    sweep = sweep_rows(sizes, built.get("sweep", []))
    if built.get("sweep_note"):
        notes.append(built["sweep_note"])
    for s in built.get("sweep", []):
        for name, why in s.get("refused", {}).items():
            notes.append(f"matmul tiles {s['spec']}: kfuse-compile refused "
                         f"{'them' if name == '*' else name}: {why}")
    if args.only:
        keep = set(args.only.split(","))
        pick = lambda r: (r["name"] in keep or r["family"] in keep
                          or ("sweep" in keep and r.get("tiles")))
        selected = [r for r in selected if pick(r)]
        sweep = [r for r in sweep if pick(r)]
    # The time: standard and model rows are started until budget_s (their
    # torch.compile until 60% and 90% of it); the sweep gets sweep_s from
    # its start; the random programs what is left of total_s.
    tasks = []
    standard = [r for r in selected if r["family"] != "model"]
    models = [r for r in selected if r["family"] == "model"]
    for row in standard:
        tasks.append({"index": len(tasks), "kind": "row", "row": row, "timeout_s": 150,
                      "deadline": start + args.budget_s,
                      "compile_deadline": start + 0.6 * args.budget_s})
    tasks.append({"index": len(tasks), "kind": "launch_overhead", "timeout_s": 60})
    for row in models:
        tasks.append({"index": len(tasks), "kind": "row", "row": row, "timeout_s": 300,
                      "deadline": start + args.budget_s,
                      "compile_deadline": start + 0.9 * args.budget_s})
    result = {"dry_run": args.dry_run, "build": built}
    out_rows = {}

    def done(task, r):
        if task["kind"] == "launch_overhead":
            result["launch_overhead"] = r
        else:
            out_rows[task["index"]] = r
            print("row", json.dumps(r), flush=True)
    workers = Workers(args)
    workers.run(tasks, done)
    if sweep:
        sweep_start = time.time()
        deadline = min(sweep_start + args.sweep_s, start + args.total_s - 30)
        base = len(tasks)
        sweep_tasks = [{"index": base + i, "kind": "row", "row": row, "deadline": deadline,
                        "compile_deadline": 0, "timeout_s": 90} for i, row in enumerate(sweep)]
        workers.run(sweep_tasks, done, skip_after_crash=lambda crashed, other: (
            other["row"]["tiles"] == crashed["row"]["tiles"]))
    hello = workers.hello or {}
    result["device"] = hello.get("device", "unknown: no worker started")
    result["torch"] = hello.get("torch", "unknown: no worker started")
    result["copy_gbps"] = hello.get("copy_gbps")
    result["rows"] = [out_rows[i] for i in sorted(out_rows)]
    result.setdefault("launch_overhead", {})
    result["examples"] = examples
    if args.bundle and not args.dry_run:
        result["fuzz"] = fuzz(args.bundle, args.out, start + args.total_s)
    result["notes"] = notes
    result["seconds"] = time.time() - start
    with open(os.path.join(args.out, "gpu-check.json"), "w") as f:
        json.dump(result, f, indent=2)
    table = markdown(result)
    if result.get("fuzz"):
        table += "\nrandom programs: " + result["fuzz"]["summary"] + "\n"
    with open(os.path.join(args.out, "gpu-check.md"), "w") as f:
        f.write(table)
    print(table)
    print(f"gpu-check: {time.time() - start:.0f} s")
    # The run fails on a wrong example, a wrong or crashed standard or model
    # row, failed random programs, or no worker at all; never on a sweep row.
    failed = [e for e in examples if e["ran"] and not e.get("matches_cpu")]
    standard = [r for r in result["rows"] if not r.get("tiles")]
    failed += [r for r in standard if r.get("crashed") or check_text(r)[1] is False]
    return 1 if failed or (result.get("fuzz") or {}).get("failed") or not workers.hello else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--sizes", choices=["full", "dry"], default="full")
    parser.add_argument("--kfuse-compile")
    parser.add_argument("--compile-arg", action="append", default=[])
    parser.add_argument("--matmul-tiles", metavar="SPEC,SPEC...",
                        help="--build: the matmul sweep's tiles (kfuse-compile --matmul-tiles), "
                        "a library each")
    parser.add_argument("--torch-python", help="--build: the Python that runs kfuse-import "
                        "(default: one with PyTorch, as kfuse-import finds it)")
    parser.add_argument("--no-models", action="store_true", help="--build: no model rows")
    parser.add_argument("--programs", help="the families' libraries (default BUNDLE/bench)")
    parser.add_argument("--runtime", help="libkfuse_runtime.so (default BUNDLE/lib/)")
    parser.add_argument("--bundle")
    parser.add_argument("--out")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--no-torch", action="store_true",
                        help="time kfuse alone, as where PyTorch is missing")
    parser.add_argument("--only", help="comma-separated row names or families ('model', "
                        "'sweep')")
    parser.add_argument("--budget-s", type=float, default=200,
                        help="standard and model rows stop being started past this")
    parser.add_argument("--sweep-s", type=float, default=80,
                        help="the tile sweep's rows stop being started this long after "
                        "its first")
    parser.add_argument("--total-s", type=float, default=340,
                        help="the random programs get what is left of this")
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                        help="cpu: a rehearsal of the GPU run on kfuse's host code and CPU "
                        "tensors, results checked (with --sizes dry and a dry --build)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        return build(args)
    if args.worker:
        return worker(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
