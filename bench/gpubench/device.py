"""The runtime and the libraries through ctypes, and one row's check and timing (Bench)."""
import ctypes
import functools
import importlib.util
import json
import os
import time

import numpy as np

from .catalogue import rows
from .common import BYTES, HERE, NO_COMPILE_FAMILIES, NUMPY, PEAK_TFLOPS, TOLERANCE


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
        if f.startswith("softmax_t"):
            return (lambda x: t.softmax(x, -1).t().contiguous()), xs
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
        if f.startswith("softmax"):
            e = np.exp(x[0] - x[0].max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True) if f == "softmax" else (e / e.sum(-1, keepdims=True)).T
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
