#!/usr/bin/env python3
"""kfuse on the CPU against numpy, PyTorch eager, torch.compile and IREE.

Every framework runs the same programs (bench/cpu/*.mlir, filled in with
sizes) on the same inputs in this one process, with the same number of
threads, interleaved: for each program, rounds in which each framework in
turn times a batch of calls; the median per call over the rounds is
reported, and each framework's ratio to the best.

  kfuse          kfuse-compile --emit=lib --host-cpu=native, dlopened and
                 called through ctypes (the fused host entry point, as
                 kfuse-run calls it), KFUSE_NUM_THREADS=threads;
  numpy          the same program written in numpy (OPENBLAS/OMP threads);
  torch          PyTorch eager, torch.set_num_threads(threads);
  torch.compile  torch.compile(dynamic=False): Inductor's C++ backend;
  iree           the linalg kfuse lowers the program to (--emit=linalg),
                 compiled by iree.compiler for llvm-cpu (target cpu host),
                 run by iree.runtime's local-task driver with `threads`
                 workers, called through the VM (no Python wrapper).

Each framework's result is checked against a numpy reference once; a wrong
one is reported and not timed. A framework that is not installed is
skipped and named. The first row (add_relu of 8 elements) is each
harness's overhead floor per call. bench/cpu-compare.sh sets up IREE and
runs this with kfuse's venv; --dry-run uses tiny sizes and one round.
"""
import argparse
import ctypes
import gc
import json
import math
import os
import re
import statistics
import string
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAMEWORKS = ["kfuse", "numpy", "torch", "torch.compile", "iree"]

# (label, template, sizes, tolerance): the rows; dry-run rows in DRY.
ROWS = [("add_relu 8", "add_relu", {"N": 8}), ("add_relu 1e4", "add_relu", {"N": 10**4}),
        ("add_relu 1e5", "add_relu", {"N": 10**5}), ("add_relu 1e6", "add_relu", {"N": 10**6}),
        ("add_relu 1e7", "add_relu", {"N": 10**7}), ("add_relu 1e8", "add_relu", {"N": 10**8}),
        ("softmax 1024x1024", "softmax", {"R": 1024, "C": 1024}),
        ("softmax 4096x4096", "softmax", {"R": 4096, "C": 4096}),
        ("softmax 2048x64", "softmax", {"R": 2048, "C": 64}),
        ("layer_norm 1024x1024", "layer_norm", {"R": 1024, "C": 1024}),
        ("layer_norm 4096x4096", "layer_norm", {"R": 4096, "C": 4096}),
        ("rms_norm 4096x4096", "rms_norm", {"R": 4096, "C": 4096}),
        ("mlp batch 256", "mlp", {"B": 256}), ("mlp batch 4096", "mlp", {"B": 4096}),
        ("matmul 1024", "matmul", {"N": 1024}),
        ("linear 512x64x64", "linear", {"M": 512, "K": 64, "N": 64}),
        ("linear 512x128x64", "linear", {"M": 512, "K": 128, "N": 64}),
        ("linear 272x192x576", "linear", {"M": 272, "K": 192, "N": 576}),
        ("sum 1e7", "sum", {"N": 10**7}),
        ("transpose 4096x4096", "transpose", {"R": 4096, "C": 4096}),
        ("gelu 1e6", "gelu", {"N": 10**6}), ("gelu 1e7", "gelu", {"N": 10**7}),
        ("rotary 8x64x4x16", "rotary", {"B": 8, "T": 64, "H": 4, "D": 16, "HALF": 8}),
        ("cumsum 4096x4096 dim 1", "cumsum_rows", {"R": 4096, "C": 4096}),
        ("cumsum 4096x4096 dim 0", "cumsum_cols", {"R": 4096, "C": 4096}),
        ("cumsum 16x65536 dim 1", "cumsum_rows", {"R": 16, "C": 65536})]
DRY = [("add_relu 8", "add_relu", {"N": 8}), ("add_relu 1000", "add_relu", {"N": 1000}),
       ("softmax 8x32", "softmax", {"R": 8, "C": 32}),
       ("layer_norm 8x32", "layer_norm", {"R": 8, "C": 32}),
       ("rms_norm 8x32", "rms_norm", {"R": 8, "C": 32}), ("mlp batch 4", "mlp", {"B": 4}),
       ("matmul 16", "matmul", {"N": 16}), ("linear 5x7x9", "linear", {"M": 5, "K": 7, "N": 9}),
       ("sum 1000", "sum", {"N": 1000}),
       ("transpose 8x32", "transpose", {"R": 8, "C": 32}), ("gelu 1000", "gelu", {"N": 1000}),
       ("rotary 2x5x3x8", "rotary", {"B": 2, "T": 5, "H": 3, "D": 8, "HALF": 4}),
       ("cumsum 8x32 dim 0", "cumsum_cols", {"R": 8, "C": 32})]
# rtol, atol against a float64 reference (add_relu's f32 numpy is exact).
# gelu's atol: 0.5 x (1 + erf(x / sqrt 2)) in f32 carries the rounding of
# 1 + erf (2^-24) times 0.5 |x|, |x| below 10 here (inputs 2 N(0, 1)): 6e-7.
# cumsum's atol: a compensated running sum is within 2 u sum|x| of the sum,
# sum|x| about 0.8 n for n N(0, 1) terms: 4e-4 at n = 4096 (f32 sums,
# PyTorch's in f64; numpy's a plain f32 running sum, within n u sum|x|).
# rotary's: two f32 products and a sum, each rounded once: within
# u (|q cos| + |r sin| + |y|), below 2e-6 for |q| < 5 and |cos|, |sin| <= 1.
TOL = {"add_relu": (0, 0), "softmax": (1e-4, 1e-7), "layer_norm": (1e-4, 1e-4),
       "rms_norm": (1e-4, 1e-5), "mlp": (1e-4, 1e-3), "matmul": (1e-4, 1e-3), "linear": (1e-4, 1e-4),
       "sum": (1e-4, 0), "transpose": (0, 0), "gelu": (1e-5, 1e-6), "cumsum_rows": (1e-4, 1e-3),
       "cumsum_cols": (1e-4, 1e-3), "rotary": (1e-6, 2e-6)}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dry-run", action="store_true",
                   help="tiny sizes, one round: checks that the harness works (CI)")
    p.add_argument("--frameworks", default=",".join(FRAMEWORKS),
                   help="comma-separated, of " + ", ".join(FRAMEWORKS))
    p.add_argument("--only", default="", help="regex: the rows whose label matches")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--row-seconds", type=float, default=8.0,
                   help="timing budget per row (rounds: 3 to --max-rounds)")
    p.add_argument("--max-rounds", type=int, default=9)
    p.add_argument("--batch-seconds", type=float, default=0.05,
                   help="a timed batch lasts about this long (at least one call)")
    p.add_argument("--kfuse-compile", default=os.path.join(ROOT, "build", "bin", "kfuse-compile"))
    p.add_argument("--runtime", help="libkfuse_runtime.so (default: ../lib/ beside kfuse-compile)")
    p.add_argument("--host-cpu", default="native")
    p.add_argument("--iree-flag", action="append", default=[],
                   help="one more iree-compile flag (repeatable)")
    p.add_argument("--work-dir", help="keep the compiled programs here (default: a temp dir)")
    p.add_argument("--out", help="write the results as JSON here")
    p.add_argument("--stat", choices=["median", "min"], default="median",
                   help="the statistic over rounds that the table shows (JSON has both)")
    p.add_argument("--table-from", metavar="JSON",
                   help="print the table of an earlier run's --out file, run nothing")
    return p.parse_args()


ARGS = parse_args()
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "KFUSE_NUM_THREADS"):
    os.environ[var] = str(ARGS.threads)  # before numpy, torch and kfuse's runtime start
import numpy as np  # noqa: E402


def program_text(template, sizes):
    with open(os.path.join(ROOT, "bench", "cpu", template + ".mlir")) as f:
        return string.Template(f.read()).substitute({k: str(v) for k, v in sizes.items()})


def make_inputs(template, s, rng):
    def r(*shape, scale=1.0):
        return (rng.standard_normal(shape, dtype=np.float32) * np.float32(scale))
    if template == "add_relu":
        return [r(s["N"]), r(s["N"])]
    if template in ("softmax", "layer_norm", "rms_norm", "transpose", "cumsum_rows",
                    "cumsum_cols"):
        return [r(s["R"], s["C"])]
    if template == "gelu":
        return [r(s["N"], scale=2.0)]
    if template == "rotary":  # cos and sin of angles: values in [-1, 1]
        angles = r(s["T"], s["D"], scale=3.0)
        return [r(s["B"], s["T"], s["H"], s["D"]), np.cos(angles), np.sin(angles)]
    if template == "mlp":  # weights scaled so that activations stay near 1
        return [r(s["B"], 256), r(256, 1024, scale=1 / 16), r(1024, scale=0.1),
                r(1024, 256, scale=1 / 32), r(256, scale=0.1)]
    if template == "matmul":
        return [r(s["N"], s["N"]), r(s["N"], s["N"], scale=1 / s["N"] ** 0.5)]
    if template == "linear":  # nn.Linear's weight scale: activations near 1
        return [r(s["M"], s["K"]), r(s["N"], s["K"], scale=1 / s["K"] ** 0.5), r(s["N"])]
    if template == "sum":
        return [rng.random(s["N"], dtype=np.float32)]
    raise KeyError(template)


def numpy_fn(template):
    """The program in numpy, as a numpy user writes it."""
    eps = {"layer_norm": 1e-5, "rms_norm": 1e-6}.get(template)
    fns = {
        "add_relu": lambda a, b: np.maximum(a + b, a.dtype.type(0)),
        "softmax": lambda x: (lambda e: e / e.sum(-1, keepdims=True))(
            np.exp(x - x.max(-1, keepdims=True))),
        "layer_norm": lambda x: (lambda d: d / np.sqrt((d * d).mean(-1, keepdims=True)
                                                       + x.dtype.type(eps)))(
            x - x.mean(-1, keepdims=True)),
        "rms_norm": lambda x: x / np.sqrt((x * x).mean(-1, keepdims=True) + x.dtype.type(eps)),
        "mlp": lambda x, w1, b1, w2, b2: np.maximum(x @ w1 + b1, x.dtype.type(0)) @ w2 + b2,
        "matmul": lambda a, b: a @ b,
        "linear": lambda x, w, b: x @ w.T + b,
        "sum": lambda x: x.sum(),
        "transpose": lambda x: np.ascontiguousarray(x.T),
        "cumsum_rows": lambda x: np.cumsum(x, axis=1),
        "cumsum_cols": lambda x: np.cumsum(x, axis=0),
        "rotary": lambda q, c, s: (lambda t: t * c + np.concatenate(
            [-t[..., t.shape[-1] // 2:], t[..., :t.shape[-1] // 2]], -1) * s)(
            np.ascontiguousarray(q.transpose(0, 2, 1, 3))),
        # numpy has no erf: Python's, a call an element (slow; the reference).
        "gelu": lambda x: (x * x.dtype.type(0.5) * (x.dtype.type(1) + np.vectorize(
            math.erf, otypes=[x.dtype])(x / x.dtype.type(math.sqrt(2))))),
    }
    return fns[template]


def torch_fn(template, torch):
    F = torch.nn.functional
    fns = {
        "add_relu": lambda a, b: torch.relu(a + b),
        "softmax": lambda x: torch.softmax(x, -1),
        "layer_norm": lambda x: F.layer_norm(x, (x.shape[-1],), eps=1e-5),
        "rms_norm": lambda x: F.rms_norm(x, (x.shape[-1],), eps=1e-6),
        "mlp": lambda x, w1, b1, w2, b2: torch.relu(x @ w1 + b1) @ w2 + b2,
        "matmul": lambda a, b: a @ b,
        "linear": lambda x, w, b: F.linear(x, w, b),
        "sum": lambda x: x.sum(),
        "transpose": lambda x: x.t().contiguous(),
        "gelu": lambda x: F.gelu(x),
        "cumsum_rows": lambda x: torch.cumsum(x, 1),
        "cumsum_cols": lambda x: torch.cumsum(x, 0),
        "rotary": lambda q, c, s: (lambda t: t * c + torch.cat(
            [-t[..., t.shape[-1] // 2:], t[..., :t.shape[-1] // 2]], -1) * s)(q.transpose(1, 2)),
    }
    return fns[template]


def run(cmd):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:  # a kfuse-compile being relinked by a build: once more
        time.sleep(5)
        done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(" ".join(cmd) + ":\n" + done.stderr[-2000:])
    return done.stdout


class Kfuse:
    """kfuse's library, called as kfuse-run calls it (tools/kfuse-run/Program.cpp)."""

    def __init__(self):
        runtime = ARGS.runtime or os.path.join(os.path.dirname(os.path.abspath(
            ARGS.kfuse_compile)), "..", "lib", "libkfuse_runtime.so")
        rt = self.rt = ctypes.CDLL(os.path.realpath(runtime), mode=ctypes.RTLD_GLOBAL)
        rt.kfuse_rt_alloc.restype = ctypes.c_void_p
        rt.kfuse_rt_alloc.argtypes = [ctypes.c_size_t]
        rt.kfuse_rt_free.argtypes = [ctypes.c_void_p]
        rt.kfuse_rt_device_description.restype = ctypes.c_char_p
        why = ctypes.create_string_buffer(512)
        if rt.kfuse_rt_init(b"cpu", why, 512) != 0:
            raise RuntimeError("kfuse_rt_init: " + why.value.decode())
        self.version = rt.kfuse_rt_device_description().decode()

    def alloc(self, a):
        """`a` copied into the runtime's memory, as a numpy array."""
        ptr = self.rt.kfuse_rt_alloc(max(a.nbytes, 1))
        view = np.ctypeslib.as_array((ctypes.c_float * a.size).from_address(ptr)).reshape(a.shape)
        view[...] = a
        return view

    def prepare(self, src, inputs):
        lib_path = src[:-5] + ".so"
        run([ARGS.kfuse_compile, "--emit=lib", "--host-cpu=" + ARGS.host_cpu, "-o", lib_path, src])
        lib = ctypes.CDLL(lib_path, mode=ctypes.RTLD_LOCAL)
        manifest = json.loads(ctypes.string_at(ctypes.addressof(
            ctypes.c_char.in_dll(lib, "kfuse_manifest"))).decode())
        f = manifest["functions"][0]
        for name in ("host_fused", "fused"):  # the CPU's fused entry point
            try:
                fn = getattr(lib, "_mlir_ciface_%s__%s" % (f["name"], name))
                break
            except AttributeError:
                fn = None
        if fn is None:
            raise RuntimeError("no fused host entry point in " + lib_path)
        # Memref descriptors {allocated, aligned, offset, sizes, strides}.
        descs = []
        for a in inputs:
            strides = [s // a.itemsize for s in a.strides]
            descs.append((ctypes.c_int64 * (3 + 2 * a.ndim))(
                a.ctypes.data, a.ctypes.data, 0, *a.shape, *strides))
        ranks = [len(r["shape"]) for r in f["results"]]
        result = (ctypes.c_int64 * (sum(3 + 2 * r for r in ranks) + 1))()
        ptrs = [ctypes.addressof(result)] + [ctypes.addressof(d) for d in descs]
        fn.argtypes = [ctypes.c_void_p] * len(ptrs)
        fn.restype = None
        inputs_at = {a.ctypes.data for a in inputs}
        rt, rank = self.rt, ranks[0]
        assert len(ranks) == 1, "one result per program"

        def call(keep=False):
            fn(*ptrs)
            rt.kfuse_rt_synchronize()
            out = None
            if keep:
                shape = list(result[3:3 + rank])
                n = int(np.prod(shape)) if shape else 1
                out = np.array(np.ctypeslib.as_array((ctypes.c_float * n).from_address(
                    result[1] + 4 * result[2])).reshape(shape))
            if result[0] not in inputs_at:
                rt.kfuse_rt_free(result[0])
            return out

        call.keep = lambda: call(True)
        # `ptrs` holds bare addresses: the library and the descriptors must
        # live as long as `call`.
        call.hold = (lib, descs, result)
        return call


class Iree:
    def __init__(self):
        import iree.compiler as ic
        import iree.runtime as rt
        self.ic, self.rt = ic, rt
        # Flags take effect for drivers made after this call: one per process.
        rt.flags.parse_flags("--task_topology_max_group_count=%d" % ARGS.threads)
        self.config = rt.Config("local-task")
        from importlib.metadata import version
        self.version = "iree-base-compiler " + version("iree-base-compiler")
        self.notes = set()

    def prepare(self, src, inputs):
        label = os.path.basename(src)[:-5]
        linalg = run([ARGS.kfuse_compile, "--emit=linalg", src])
        flags = ["--iree-llvmcpu-target-cpu=host"] + ARGS.iree_flag
        try:
            vmfb = self.ic.compile_str(linalg, target_backends=["llvm-cpu"], extra_args=flags)
        except Exception:  # noqa: BLE001 - retried once, minimally changed
            # What IREE may refuse in kfuse's linalg: run-time checks
            # (cf.assert) and kfuse's own attributes on the ops.
            stripped = re.sub(r"^\s*cf\.assert .*$", "", linalg, flags=re.M)
            stripped = re.sub(r"\s*attrs =\s*\{kf\.[^}]*\}", "", stripped)
            vmfb = self.ic.compile_str(stripped, target_backends=["llvm-cpu"], extra_args=flags)
            self.notes.add("cf.assert and kf.* attributes stripped for IREE (" + label + ")")
        rt = self.rt
        ctx = rt.SystemContext(config=self.config)
        module = rt.VmModule.copy_buffer(ctx.instance, vmfb)
        ctx.add_vm_module(module)
        fn = module.lookup_function(re.search(r"func\.func @(\w+)", linalg).group(1))
        arrays = [rt.asdevicearray(self.config.device, a) for a in inputs]
        args = rt.VmVariantList(len(arrays))
        for a in arrays:
            args.push_ref(a._buffer_view)
        vm = ctx.vm_context

        def call(keep=False):
            rets = rt.VmVariantList(1)
            vm.invoke(fn, args, rets)  # the sync ABI: returns when done
            if keep:
                bv = rets.get_as_object(0, rt.HalBufferView)
                return np.asarray(rt.DeviceArray(self.config.device, bv).to_host())
            return rets

        call.keep = lambda: call(True)
        call.hold = (ctx, arrays)
        return call


class Numpy:
    version = "numpy " + np.__version__

    def prepare(self, template, inputs):
        f = numpy_fn(template)
        call = lambda: f(*inputs)  # noqa: E731
        call.keep = lambda: np.asarray(f(*inputs))
        return call


class Torch:
    def __init__(self, compiled):
        import torch
        self.torch, self.compiled = torch, compiled
        torch.set_num_threads(ARGS.threads)
        if compiled:
            import torch._inductor.config as cfg
            cfg.cpp.threads = ARGS.threads
        self.version = "torch " + torch.__version__ + (" inductor" if compiled else "")

    def prepare(self, template, inputs):
        torch = self.torch
        f = torch_fn(template, torch)
        if self.compiled:
            torch._dynamo.reset()
            f = torch.compile(f, dynamic=False)
        ts = [torch.from_numpy(a) for a in inputs]

        def call():  # the inputs need no grad: autograd records nothing
            return f(*ts)

        for _ in range(2 if self.compiled else 0):
            call()  # compile and warm up

        call.keep = lambda: call().numpy()
        return call


def reference(template, inputs):
    if template in ("add_relu", "transpose"):  # exact in f32
        return numpy_fn(template)(*inputs)
    return numpy_fn(template)(*[a.astype(np.float64) for a in inputs])


def time_batch(call, n, settle=False):
    """Seconds per call over `n` calls. With `settle`, first a pause (the
    thread pools of the framework timed before, which spin a while after
    their last task, go to sleep: on 2 cores they would take this one's
    time) and one untimed call (this framework's own pool is awake, as in
    a steady state)."""
    if settle:
        time.sleep(0.02)
        call()
    t = time.perf_counter()
    for _ in range(n):
        call()
    return (time.perf_counter() - t) / n


def bench_row(label, template, sizes, frameworks, rng, work):
    src = os.path.join(work, re.sub(r"\W", "_", label) + ".mlir")
    with open(src, "w") as f:
        f.write(program_text(template, sizes))
    inputs = make_inputs(template, sizes, rng)
    if "kfuse" in frameworks:  # every framework reads the runtime's buffers
        inputs = [frameworks["kfuse"].alloc(a) for a in inputs]
    ref = reference(template, inputs)
    rtol, atol = TOL[template]
    row = {"label": label, "program": template, "sizes": sizes, "frameworks": {}}
    calls = {}
    for name, fw in frameworks.items():
        entry = row["frameworks"][name] = {}
        try:
            call = fw.prepare(src if name in ("kfuse", "iree") else template, inputs)
            out = call.keep()
        except Exception as e:  # noqa: BLE001 - reported in the row, not fatal
            entry["error"] = str(e).strip().splitlines()[-1][:300]
            continue
        err = np.abs(out.astype(np.float64) - ref)
        entry["max_abs_error"] = float(err.max()) if err.size else 0.0
        if out.shape != ref.shape or not np.allclose(out, ref, rtol=rtol, atol=atol):
            entry["error"] = "wrong result (max abs error %.3g)" % entry["max_abs_error"]
            continue
        # Calibrate: a batch of about --batch-seconds (the best of 3 calls
        # when calls are short, as one may be preempted on a busy machine).
        one = time_batch(call, 1)
        if one < ARGS.batch_seconds:
            one = min(one, time_batch(call, 1), time_batch(call, 1))
        entry["batch"] = max(1, min(100000, int(ARGS.batch_seconds / max(one, 1e-7))))
        entry["first_timed_s"] = one
        entry["rounds_s"] = []
        calls[name] = call
    names = list(calls)
    per_round = sum(max(ARGS.batch_seconds, row["frameworks"][n]["first_timed_s"]) + 0.02
                    for n in names)
    rounds = 1 if ARGS.dry_run else max(3, min(ARGS.max_rounds,
                                               int(ARGS.row_seconds / max(per_round, 1e-9))))
    for r in range(rounds):
        for k in range(len(names)):  # the order turns each round
            n = names[(r + k) % len(names)]
            e = row["frameworks"][n]
            e["rounds_s"].append(time_batch(calls[n], e["batch"], settle=e["batch"] > 1))
    for n in names:
        e = row["frameworks"][n]
        e["median_s"] = statistics.median(e["rounds_s"])
        e["min_s"] = min(e["rounds_s"])
    best = min((row["frameworks"][n]["median_s"] for n in names), default=None)
    best_min = min((row["frameworks"][n]["min_s"] for n in names), default=None)
    for n in names:
        row["frameworks"][n]["ratio_to_best"] = row["frameworks"][n]["median_s"] / best
        row["frameworks"][n]["min_ratio_to_best"] = row["frameworks"][n]["min_s"] / best_min
    calls.clear()
    call = None  # noqa: F841 - the last one, which may hold views of the inputs
    gc.collect()
    if "kfuse" in frameworks:  # nothing reads them any more
        for a in inputs:
            frameworks["kfuse"].rt.kfuse_rt_free(a.ctypes.data)
    return row


def fmt_time(s):
    if s >= 0.9995:  # (not "1e+03 ms": %.3g rounds 999.5 up)
        return "%.2f s" % s
    if s >= 0.9995e-3:
        return "%.3g ms" % (s * 1e3)
    return "%.3g us" % (s * 1e6)


def table(rows, names, stat):
    key, ratio = ("median_s", "ratio_to_best") if stat == "median" else ("min_s",
                                                                        "min_ratio_to_best")
    lines = ["| program | " + " | ".join(names) + " | kfuse / best | kfuse / best of IREE, "
             "torch.compile |", "|---" * (len(names) + 3) + "|"]
    for row in rows:
        fws, cells = row["frameworks"], []
        for n in names:
            e = fws.get(n, {})
            if key in e:
                cells.append("%s (%.2f)" % (fmt_time(e[key]), e[ratio]))
            else:
                cells.append(e.get("error", "-").replace("|", "/")[:60])
        k = fws.get("kfuse", {}).get(ratio)
        comp = [fws[n][key] for n in ("iree", "torch.compile") if key in fws.get(n, {})]
        vs = (fws["kfuse"][key] / min(comp)) if k and comp else None
        cells.append("%.2f" % k if k else "-")
        cells.append("%.2f" % vs if vs else "-")
        lines.append("| " + row["label"] + " | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(rows, names, stat, iree_notes=()):
    print(table(rows, names, stat))
    floor = next((r for r in rows if r["label"] == "add_relu 8"), None)
    key = stat + "_s"
    if floor:
        print()
        print("per-call floor of each harness (add_relu of 8 elements): " + ", ".join(
            "%s %s" % (n, fmt_time(floor["frameworks"][n][key]))
            for n in names if key in floor["frameworks"][n]))
    for note in sorted(iree_notes):
        print("note: " + note)


def main():
    if ARGS.table_from:
        with open(ARGS.table_from) as f:
            data = json.load(f)
        names = [n for n in FRAMEWORKS if n in data["versions"]]
        print("%d threads each; %s time per call over rounds, (ratio to the best); %s" % (
            data["threads"], ARGS.stat, data["date_utc"]))
        print()
        return report(data["rows"], names, ARGS.stat, data.get("notes", ()))
    wanted = [n.strip() for n in ARGS.frameworks.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in FRAMEWORKS]
    if unknown:
        sys.exit("unknown framework(s): %s (of %s)" % (", ".join(unknown), ", ".join(FRAMEWORKS)))
    temp = None if ARGS.work_dir else tempfile.TemporaryDirectory(prefix="kfuse-cpu-bench-")
    work = ARGS.work_dir or temp.name  # the temporary one goes at exit
    os.makedirs(work, exist_ok=True)
    frameworks, skipped = {}, {}
    makers = {"kfuse": Kfuse, "numpy": Numpy, "torch": lambda: Torch(False),
              "torch.compile": lambda: Torch(True), "iree": Iree}
    for n in wanted:
        try:
            frameworks[n] = makers[n]()
        except Exception as e:  # noqa: BLE001 - a missing framework is skipped, and said
            skipped[n] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1][:200])
    for n in wanted:
        print("framework %s: %s" % (n, ("available, " + frameworks[n].version) if n in frameworks
                                   else "skipped (" + skipped[n] + ")"))
    if "kfuse" not in frameworks:
        sys.exit("kfuse is not available: nothing to compare")
    start = time.time()
    rng = np.random.default_rng(0)
    rows = []
    for label, template, sizes in (DRY if ARGS.dry_run else ROWS):
        if ARGS.only and not re.search(ARGS.only, label):
            continue
        t = time.time()
        rows.append(bench_row(label, template, sizes, frameworks, rng, work))
        print("  %-22s %5.1f s" % (label, time.time() - t), file=sys.stderr, flush=True)
    names = [n for n in wanted if n in frameworks]
    print()
    print("%d threads each; %s time per call over rounds, (ratio to the best); %s; "
          "%.0f s" % (ARGS.threads, ARGS.stat, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                      time.time() - start))
    print()
    notes = sorted(getattr(frameworks.get("iree"), "notes", ()))
    report(rows, names, ARGS.stat, notes)
    # kfuse's own failures fail the run (CI runs --dry-run); the others'
    # are theirs, reported in the table.
    failed = [r["label"] for r in rows if "error" in r["frameworks"]["kfuse"]]
    print("kfuse: %d of %d programs match numpy" % (len(rows) - len(failed), len(rows)))
    if ARGS.out:
        with open(ARGS.out, "w") as f:
            json.dump({"schema_version": 1, "threads": ARGS.threads, "dry_run": ARGS.dry_run,
                       "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "versions": {n: fw.version for n, fw in frameworks.items()},
                       "skipped": skipped, "notes": notes, "load_average": os.getloadavg(),
                       "rows": rows}, f, indent=1)
    if failed:
        sys.exit("kfuse failed on: " + ", ".join(failed))


if __name__ == "__main__":
    main()
