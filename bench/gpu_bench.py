#!/usr/bin/env python3
"""The GPU half of bench/gpu-check.sh (see there), and the program builder
of bench/pack.sh.

  gpu_bench.py --build --sizes full|dry --kfuse-compile PATH --programs DIR
      writes one module a family (bench/gpu/*.mlir templates, one function a
      row) into DIR and compiles each with kfuse-compile --emit=lib.
  gpu_bench.py --bundle B --out O [--dry-run] [--budget-s S]
      the examples against the CPU (kfuse-run), the benchmark rows (below),
      the packed random programs (kf_fuzz.py --prebuilt) with what is left
      of the budget.

Each benchmark row calls kfuse's compiled function in this process through
ctypes (runtime.h; the library's fused GPU entry point) on tensors PyTorch
allocated on the same device (the driver's primary context, shared), and
times, interleaved in rounds: kfuse with CUDA-graph replay on, kfuse with it
off, torch eager and torch.compile. Every time is wall clock per call over a
loop synchronized at its end (host overhead included, as a user sees it).
kfuse's result is checked against torch's before any timing. Rates: GB/s
(bytes a call: what the row must read and write) against the measured
device-to-device copy bandwidth, TFLOP/s against the H200's dense peaks
(989 f16/bf16, 67 f32 without TF32; torch.matmul runs with TF32 off).
Without PyTorch (or with --no-torch), inputs come from numpy (checked
against numpy where that is cheap) and only kfuse is timed. --dry-run (CI,
the fake driver of test/fake-cuda): tiny sizes, nothing is computed, no
timing claims; where PyTorch is installed its rows still run torch eager
and torch.compile (backend 'eager': nothing is compiled) through the same
code as on the GPU, on CPU tensors: the fake driver's device memory is host
memory, and a CPU-only CI thus runs the torch code a GPU machine runs.
"""
import argparse
import ctypes
import functools
import glob
import json
import os
import string
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PEAK_TFLOPS = {"f16": 989.0, "bf16": 989.0, "f32": 67.0}  # H200 SXM, dense
NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16}
BYTES = {"f32": 4, "f16": 2, "bf16": 2}
TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 3e-2}  # of max |reference|


def rows(sizes):
    """(family, template values, shapes, dtype, what it moves or computes)."""
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
                           shapes=shapes, dtype=dtype, bytes=moved, flops=flops))
    return result


def build(args):
    os.makedirs(args.programs, exist_ok=True)
    modules = {}
    for row in rows(args.sizes):
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
    return 0


class Kfuse:
    """The runtime (runtime.h) and the libraries' entry points, through ctypes."""

    def __init__(self, runtime):
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
        if rt.kfuse_rt_init(b"cuda", why, 512) != 0:
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


def torch_or_none(dry, wanted=True):
    """(torch, the device its tensors live on), or (None, None). On the fake
    driver (dry run) the device is the CPU, whatever torch.cuda says: kfuse's
    "device" pointers are host memory there, and CUDA tensors' would not be."""
    if not wanted:
        return None, None
    try:
        import torch
    except ImportError:
        return None, None
    if dry:
        return torch, "cpu"
    return (torch, "cuda") if torch.cuda.is_available() else (None, None)


class Bench:
    def __init__(self, args):
        self.args = args
        self.torch, self.dev = torch_or_none(args.dry_run, not args.no_torch)
        if self.dev == "cuda":
            self.torch.cuda.init()  # the primary context exists before kfuse's init
        elif self.dev == "cpu":
            self.torch.set_num_threads(1)  # tiny tensors; CI's cores are shared
            self.torch.backends.cuda.matmul.allow_tf32 = False
            self.torch.backends.cudnn.allow_tf32 = False
            try:  # one compiled graph a row: more than the default limit of 8
                self.torch._dynamo.config.cache_size_limit = 256
                self.torch._dynamo.config.recompile_limit = 256
            except AttributeError:
                pass
        self.k = Kfuse(args.runtime)
        self.start = time.time()
        self.notes = []

    def ksync(self):
        if self.torch:
            self.tsync()
        self.k.rt.kfuse_rt_synchronize()

    def tsync(self):
        if self.dev == "cuda":  # on the CPU (dry run) torch's calls are synchronous
            self.torch.cuda.synchronize()

    def torch_description(self):
        if not self.torch:
            return "not available" if not self.args.no_torch else "not used (--no-torch)"
        if self.dev == "cpu":
            return (self.torch.__version__ + " on the CPU (dry run: CPU tensors stand in for "
                    "CUDA ones; torch.compile with backend 'eager')")
        return self.torch.__version__

    def copy_gbps(self):
        n = (1 << 28) if not self.args.dry_run else (1 << 16)  # f32: 1 GiB
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

    def inputs(self, row):
        """[(device pointer, shape)], the tensors (torch or numpy), keep-alive."""
        t = self.torch
        if t:
            dt = {"f32": t.float32, "f16": t.float16, "bf16": t.bfloat16}[row["dtype"]]
            xs = [t.randn(s, device=self.dev, dtype=dt) for s in row["shapes"]]
            if row["family"] == "add_relu":
                xs = [x * 2 for x in xs]
            return [(x.data_ptr(), s) for x, s in zip(xs, row["shapes"])], xs
        rng = np.random.default_rng(1)
        rt, ptrs, xs = self.k.rt, [], []
        for s in row["shapes"]:
            nbytes = int(np.prod(s)) * BYTES[row["dtype"]]
            ptr = rt.kfuse_rt_alloc(nbytes)
            if not self.args.dry_run:  # the fake driver runs nothing: no data needed
                x = rng.standard_normal(s, dtype=np.float32)
                if row["dtype"] == "bf16":
                    x = (x.view(np.uint32) >> 16).astype(np.uint16)
                x = np.ascontiguousarray(x.astype(NUMPY[row["dtype"]]))
                rt.kfuse_rt_copy_to_device(ptr, x.ctypes.data, nbytes)
                xs.append(x)
            ptrs.append((ptr, s))
        return ptrs, xs

    def torch_fn(self, row, xs):
        t, f = self.torch, row["family"]
        F = t.nn.functional
        if f == "softmax":
            return lambda x: t.softmax(x, -1)
        if f == "layer_norm":
            c = row["shapes"][0][1]
            return lambda x: F.layer_norm(x, (c,), eps=1e-5)
        if f == "matmul":
            return lambda a, b: t.matmul(a, b)
        if f == "transpose":
            return lambda x: x.t().contiguous()
        return lambda a, b: t.relu(a + b)

    def numpy_ref(self, row, xs):
        f = row["family"]
        if row["dtype"] == "bf16" or sum(x.size for x in xs) > (1 << 24):
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
                ref = self.torch_fn(row, xs)(*xs).float()
                got = t.empty(result_shape, device=self.dev, dtype=xs[0].dtype)
                self.ksync()
                rt.kfuse_rt_copy_on_device(got.data_ptr(), ptr, nbytes)
                self.ksync()
                err = (got.float() - ref).abs().max().item()
                scale = max(ref.abs().max().item(), 1e-30)
            else:
                ref = self.numpy_ref(row, xs)
                if ref is None:
                    return {"checked": False, "why": "no torch; too big or bf16 for numpy"}
                got = np.empty(result_shape, dtype=NUMPY[row["dtype"]])
                rt.kfuse_rt_copy_to_host(got.ctypes.data, ptr, nbytes)
                err = float(np.max(np.abs(got.astype(np.float64) - ref)))
                scale = max(float(np.max(np.abs(ref))), 1e-30)
        finally:
            rt.kfuse_rt_free(ctypes.c_void_p(call.result[0]))
        rel = err / scale
        return {"checked": True, "rel_error": rel, "ok": bool(rel <= TOLERANCE[row["dtype"]])}

    def row(self, row, copy_gbps):
        out = {"row": row["name"], "family": row["family"], "dtype": row["dtype"],
               "shapes": row["shapes"], "bytes": row["bytes"], "flops": row["flops"]}
        lib = os.path.join(self.args.programs, row["family"] + ".so")
        try:
            fn, info = self.k.function(lib, row["function"])
        except (OSError, RuntimeError) as e:
            out["error"] = str(e)[:300]
            return out
        ptrs, xs = self.inputs(row)
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
        # torch eager ended up calling itself (TypeError on the H200).
        methods = {"kfuse_graph_on": (b"on", call, self.ksync),
                   "kfuse_graph_off": (b"off", call, self.ksync)}
        if self.torch:
            eager = self.torch_fn(row, xs)
            methods["torch_eager"] = (None, functools.partial(eager, *xs), self.tsync)
            over = time.time() - self.start > 0.6 * self.args.budget_s
            if over:
                out["compile_note"] = "skipped: past 60% of the time budget"
            else:
                try:
                    # The dry run traces but compiles nothing (no C++ build
                    # of CPU kernels, whose times would mean nothing).
                    backend = "inductor" if self.dev == "cuda" else "eager"
                    compiled = functools.partial(
                        self.torch.compile(eager, dynamic=False, backend=backend), *xs)
                    t0 = time.time()
                    compiled()
                    self.tsync()
                    out["compile_first_call_s"] = time.time() - t0
                    methods["torch_compile"] = (None, compiled, self.tsync)
                except Exception as e:  # no compiler toolchain, etc.
                    out["compile_note"] = str(e).splitlines()[0][:200]
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
        one = wall(call, self.ksync, 1)  # graphs off: the last mode set
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
                    out[f"{m}_vs_{base}"] = out[base + "_us"] / out[m + "_us"]
        del xs
        if not self.torch:
            for p, _ in ptrs:
                rt.kfuse_rt_free(ctypes.c_void_p(p))
        return out

    def launch_overhead(self):
        """Host time a launch, graphs on and off: add_relu of 1000 floats (one
        launch a call), as many calls as fit in 0.2 s. On the fake driver a
        proxy: the runtime's own host cost, no driver cost."""
        row = [r for r in rows("dry") if r["family"] == "add_relu"][0]
        lib = os.path.join(self.args.programs, "add_relu.so")
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


def fmt(x, unit=""):
    if x is None:
        return "-"
    if isinstance(x, float):
        return (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}") + unit
    return str(x) + unit


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
            lines.append(f"| {r['row']} | error: {r['error'][:120]} |" + " |" * 9)
            continue
        unit, frac = ("_tflops", "_peak_fraction") if r["flops"] else ("_gbps", "_copy_fraction")
        rate = r.get("kfuse_graph_on" + unit)
        rate_text = fmt(rate, " TFLOP/s" if r["flops"] else " GB/s")
        peak = r.get("kfuse_graph_on" + frac)
        check = r.get("check", {})
        if (check.get("ok") and r.get("check_graph", {}).get("checked")
                and not r["check_graph"]["ok"]):
            check = dict(r["check_graph"], why="graph replay")
        if not check:
            check_text = "-"
        elif not check.get("checked"):
            check_text = "unchecked: " + check.get("why", "")
        else:
            check_text = ("ok" if check["ok"] else "FAILED" + (
                " in graph replay" if check.get("why") else "")) + f" ({fmt(check['rel_error'])})"
        lines.append(
            f"| {r['row']} | {fmt(r.get('kfuse_graph_on_us'))} | {fmt(r.get('kfuse_graph_off_us'))} | "
            f"{fmt(r.get('torch_eager_us'))} | {fmt(r.get('torch_compile_us'))} | {rate_text} | "
            f"{fmt(peak * 100 if peak is not None else None, '%')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_eager'), 'x')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_compile'), 'x')} | "
            f"{r['graph']['replays']} | {check_text} |")
    o = result.get("launch_overhead", {})
    if "graph_on_us_per_launch" in o:
        lines += ["", f"host time a call of one launch (add_relu of 1000 floats"
                  f"{', fake driver: the runtime alone, host-side only' if dry else ''}): "
                  f"graphs off {fmt(o['graph_off_us_per_launch'])} us, "
                  f"graphs on {fmt(o['graph_on_us_per_launch'])} us"]
    for n in result.get("notes", []):
        lines.append(n)
    return "\n".join(lines) + "\n"


# --- the checks that go through kfuse-run (examples, random programs) -----

def kfuse_run(args, bundle, timeout=240):
    cmd = [os.path.join(bundle, "bin", "kfuse-run")] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
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
        rc, stdout, stderr = kfuse_run(args, bundle)
        row = {"example": name, "ran": rc == 0}
        if rc != 0:
            row["error"] = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {rc}"
        else:
            report = json.loads(stdout)
            a, b = np.load(got).astype(np.float64), np.load(ref).astype(np.float64)
            row["max_abs_error"] = float(np.max(np.abs(a - b))) if a.size else 0.0
            row["matches_cpu"] = bool(np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True))
            row["launches_per_call"] = report["steady"]["launches_per_call"]
            row["graph_replays"] = report.get("cuda_graph", {}).get("replays")
            row["device"] = report["device"]
        results.append(row)
        print("example", json.dumps(row), flush=True)
    return results


def fuzz(bundle, out, timeout):
    if not os.path.exists(os.path.join(bundle, "fuzz", "programs.txt")):
        return None
    if timeout < 20:
        return {"summary": "skipped: the time budget is spent", "failed": False}
    cmd = [sys.executable, os.path.join(bundle, "kf_fuzz.py"), "--prebuilt",
           os.path.join(bundle, "fuzz"), "--kfuse-run", os.path.join(bundle, "bin", "kfuse-run"),
           "--device", "auto"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"summary": f"timed out after {timeout:.0f} s", "failed": True}
    with open(os.path.join(out, "fuzz.log"), "w") as f:
        f.write(p.stdout + p.stderr)
    lines = p.stdout.strip().splitlines()
    summary = lines[-1] if lines else p.stderr.strip()[-200:]
    print(summary)
    return {"summary": summary, "failed": p.returncode != 0}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--sizes", choices=["full", "dry"], default="full")
    parser.add_argument("--kfuse-compile")
    parser.add_argument("--compile-arg", action="append", default=[])
    parser.add_argument("--programs", help="the families' libraries (default BUNDLE/bench)")
    parser.add_argument("--runtime", help="libkfuse_runtime.so (default BUNDLE/lib/)")
    parser.add_argument("--bundle")
    parser.add_argument("--out")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--no-torch", action="store_true",
                        help="time kfuse alone, as where PyTorch is missing")
    parser.add_argument("--only", help="comma-separated row names or families")
    parser.add_argument("--budget-s", type=float, default=400,
                        help="benchmark rows stop being started past this")
    parser.add_argument("--total-s", type=float, default=470,
                        help="the random programs get what is left of this")
    args = parser.parse_args()
    if args.build:
        return build(args)
    start = time.time()
    args.programs = args.programs or os.path.join(args.bundle, "bench")
    args.runtime = args.runtime or os.path.join(args.bundle, "lib", "libkfuse_runtime.so")
    os.makedirs(args.out, exist_ok=True)
    examples = []
    if args.bundle and not args.dry_run:
        examples = check_examples(args.bundle, args.out)
    bench = Bench(args)
    result = {"dry_run": args.dry_run, "device": bench.k.device,
              "torch": bench.torch_description()}
    result["copy_gbps"] = bench.copy_gbps()
    out_rows = []
    selected = rows("dry" if args.dry_run else args.sizes)
    if args.only:
        keep = set(args.only.split(","))
        selected = [r for r in selected if r["name"] in keep or r["family"] in keep]
    for row in selected:
        if time.time() - start > args.budget_s:
            out_rows.append({"row": row["name"], "error": "skipped: past the time budget"})
            continue
        r = bench.row(row, result["copy_gbps"])
        print("row", json.dumps(r), flush=True)
        out_rows.append(r)
    result["rows"] = out_rows
    result["launch_overhead"] = bench.launch_overhead()
    result["examples"] = examples
    if args.bundle and not args.dry_run:
        result["fuzz"] = fuzz(args.bundle, args.out, args.total_s - (time.time() - start))
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
    failed = [e for e in examples if e["ran"] and not e.get("matches_cpu")]
    failed += [r for r in out_rows for c in ("check", "check_graph")
               if r.get(c, {}).get("checked") and not r[c]["ok"]]
    return 1 if failed or (result.get("fuzz") or {}).get("failed") else 0


if __name__ == "__main__":
    sys.exit(main())
