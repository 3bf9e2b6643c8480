"""torch.compile(model, backend="kfuse"): each FX graph Dynamo captures runs
as a kfuse library on the CPU.

    import kfuse_import.backend          # registers the backend "kfuse"
    fast = torch.compile(model, backend="kfuse")

For each graph: kfuse-import writes it as kf (torch.export of the graph on
Dynamo's example inputs), kfuse-compile --emit=lib builds it once per
program text and compiler (a cache keyed by the SHA-256 of the text, of
kfuse-compile's path, size and modification time, of the environment it
reads and of the CPU's features, as kfuse-run keys its own; in $KFUSE_CACHE
or ~/.cache/kfuse/torch: a rebuilt kfuse never runs a stale library), and
each call hands the library the tensors' own
memory (no copy in): the packed entry `kfuse_packed_<graph>__host_fused`
takes one memref descriptor per argument. Its results are wrapped as torch
tensors over the library's buffers (no copy out), freed by the runtime when
torch frees them; a result that is one of the arguments is that argument.
A new shape: with torch.compile(..., dynamic=False), a new static graph
from Dynamo, compiled again (the cache keeps each); by default Dynamo makes
the second shape dynamic (a size as an input), which runs in PyTorch.

A graph kfuse cannot import whole is split: decomposed to aten ops as the
importer exports it, its runs of ops kfuse-import handles become partitions
(torch.fx's CapabilityBasedPartitioner), each compiled by kfuse where it can
be, the rest (cumprod, say) left to PyTorch between them; a warning names
what was left. Where even that fails the graph runs as PyTorch runs it, so
a model never fails for being compiled. Not built yet: CUDA tensors (the
graph runs in PyTorch) and autograd (the library computes forward only: use
it under torch.no_grad() or in eval mode).
"""
import copy
import ctypes
import hashlib
import os
import platform
import shutil
import re
import subprocess
import tempfile
import threading
import warnings
import weakref

import torch

from .errors import UnsupportedOp
from .importer import import_module

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "f64": torch.float64, "i32": torch.int32, "i64": torch.int64, "i1": torch.bool}
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool(name, env):
    """kfuse-compile or libkfuse_runtime.so: $env, else the build next to
    this package, else the PATH (for the compiler)."""
    if os.environ.get(env):
        return os.environ[env]
    built = os.path.join(_REPO, "build", "lib" if name.endswith(".so") else "bin", name)
    return built if os.path.exists(built) else name


def _compiler_identity(compiler):
    """What a library depends on besides its program: the compiler binary
    (a rebuild or an upgrade changes its size or time), the environment
    kfuse-compile reads, and the CPU it compiles for (a cache directory in
    a shared home seen by other machines)."""
    found = compiler if os.path.sep in compiler else shutil.which(compiler) or compiler
    try:
        st = os.stat(found)
        parts = [os.path.realpath(found), str(st.st_size), str(st.st_mtime_ns)]
    except OSError:
        parts = [compiler]
    parts += [f"{k}={os.environ.get(k, '')}" for k in ("KFUSE_CC", "CUDA_PATH", "CUDA_HOME")]
    try:
        with open("/proc/cpuinfo") as f:
            parts += [ln for ln in f if ln.startswith(("flags", "model name"))][:2]
    except OSError:
        parts.append(platform.machine())
    return "\n".join(parts)


def _descriptor(t):
    """t's memref descriptor: allocated, aligned, offset, sizes, strides
    (8 bytes each), over t's own memory."""
    words = (ctypes.c_int64 * (3 + 2 * t.dim()))()
    words[0] = words[1] = t.data_ptr()
    words[2] = 0
    for i, (s, st) in enumerate(zip(t.shape, t.stride())):
        words[3 + i], words[3 + t.dim() + i] = s, st
    return words


class _Runtime:
    """libkfuse_runtime.so, started once on the CPU."""
    lib = None

    @classmethod
    def get(cls):
        if cls.lib is None:
            lib = ctypes.CDLL(_tool("libkfuse_runtime.so", "KFUSE_RUNTIME"), mode=ctypes.RTLD_GLOBAL)
            why = ctypes.create_string_buffer(512)
            if lib.kfuse_rt_init(b"cpu", why, ctypes.c_size_t(len(why))) != 0:
                raise RuntimeError("kfuse runtime: " + why.value.decode())
            lib.kfuse_rt_free.argtypes = [ctypes.c_void_p]
            cls.lib = lib
        return cls.lib


class CompiledGraph:
    """One FX graph as a kfuse library: call it with the graph's tensors."""

    def __init__(self, program, cache_dir):
        self.entry = program.entry
        self.results = _result_types(program.text, program.entry)
        self.weights = [torch.from_numpy(a) for a in program.inputs[:len(program.args) -
                                                                      self.n_inputs(program)]]
        self._weights_owned = {t.data_ptr(): t for t in self.weights}  # by address
        self._marshal = threading.local()
        compiler = _tool("kfuse-compile", "KFUSE_COMPILE")
        key = hashlib.sha256((program.text + "\0" + _compiler_identity(compiler)).encode())
        key = key.hexdigest()[:32]
        lib_path = os.path.join(cache_dir, key + ".so")
        if not os.path.exists(lib_path):
            os.makedirs(cache_dir, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
                src = os.path.join(tmp, "graph.mlir")
                with open(src, "w") as f:
                    f.write(program.text)
                built = os.path.join(tmp, "graph.so")
                # Only the version called below: the GPU's and the eager
                # ones would double the compile for nothing.
                run = subprocess.run([compiler, src, "--emit=lib", "--variants=host_fused",
                                      "-o", built], capture_output=True, text=True)
                if run.returncode != 0:
                    raise UnsupportedOp("kfuse-compile failed: " + (run.stderr or run.stdout)
                                        .strip().splitlines()[-1])
                os.replace(built, lib_path)  # atomic: a reader never sees half a library
        _Runtime.get()
        self.lib = ctypes.CDLL(lib_path)
        self.fn = getattr(self.lib, f"kfuse_packed_{self.entry}__host_fused")
        self.fn.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        self.fn.restype = None

    @staticmethod
    def n_inputs(program):
        return sum(1 for _, what in program.args if what.endswith("(input)"))

    def __call__(self, *inputs):
        args = self.weights + [t if t.is_contiguous() else t.contiguous() for t in inputs]
        pointers, out = self._pointers(args)
        self.fn(pointers)
        results, w = [], 0
        # The arguments by address (a result may be one of them).
        owned = dict(self._weights_owned)
        owned.update((t.data_ptr(), t) for t in args[len(self.weights):])
        for shape, dtype in self.results:
            rank = len(shape)
            allocated, aligned, offset = out[w], out[w + 1], out[w + 2]
            sizes = list(out[w + 3:w + 3 + rank])
            strides = list(out[w + 3 + rank:w + 3 + 2 * rank])
            w += 3 + 2 * rank
            results.append(self._wrap(allocated, aligned, offset, sizes, strides,
                                      _DTYPES[dtype], owned))
        return tuple(results)

    def _pointers(self, args):
        """The entry's pointer array for `args` and the results' words.
        Each thread keeps its own array and the descriptor of each argument,
        made again only where the tensor at that position moved or changed
        shape: the weights never do, and a model's inputs seldom. Made
        afresh on every call (ctypes arrays and casts), a model with 57
        arguments spent 0.7 ms a call here, more than its smaller kernels.
        The weights (the first arguments, this object's own tensors) are
        described once: checking each of BERT's 80 on every call took ~0.1
        ms."""
        state = self._marshal
        fresh = getattr(state, "pointers", None) is None
        if fresh:
            words = sum(3 + 2 * len(shape) for shape, _ in self.results)
            state.out = (ctypes.c_int64 * max(words, 1))()
            first = 1 if self.results else 0
            state.pointers = (ctypes.c_void_p * (first + len(args)))()
            if first:
                state.pointers[0] = ctypes.addressof(state.out)
            state.first, state.keys, state.descriptors = first, [None] * len(args), [None] * len(args)
        for i in range(0 if fresh else len(self.weights), len(args)):
            t = args[i]
            key = (t.data_ptr(), t.shape)
            if state.keys[i] != key:
                d = _descriptor(t)
                state.keys[i], state.descriptors[i] = key, d
                state.pointers[state.first + i] = ctypes.addressof(d)
        return state.pointers, state.out

    @staticmethod
    def _wrap(allocated, aligned, offset, sizes, strides, dtype, owned):
        elt = torch.empty((), dtype=dtype).element_size()
        if aligned in owned:  # an argument returned as it is (or a view of it)
            base = owned[aligned]
            return torch.as_strided(base.view(-1) if base.dim() else base.view(1), sizes,
                                    strides, offset)
        n = 0 if 0 in sizes else offset + 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
        if n == 0:
            if allocated:
                _Runtime.get().kfuse_rt_free(allocated)
            return torch.empty(sizes, dtype=dtype)
        buf = (ctypes.c_char * (n * elt)).from_address(aligned)
        weakref.finalize(buf, _Runtime.get().kfuse_rt_free, allocated)
        flat = torch.frombuffer(buf, dtype=dtype, count=n)
        return torch.as_strided(flat, sizes, strides, offset)


def _result_types(text, entry):
    """[(shape, dtype)] of `entry`'s results, read from its signature."""
    head = text[text.index(f"func.func @{entry}("):]
    sig = head[head.index(") -> ") + 5:head.index("{")].strip()
    sig = sig[1:-1] if sig.startswith("(") else sig
    types = re.findall(r"tensor<([^>]*)>", sig)
    out = []
    for t in types:
        *dims, dtype = t.split("x")
        out.append(([None if d == "?" else int(d) for d in dims], dtype))
    return out


class _Supported:
    """The aten ops kfuse-import has a handler for (it may still refuse a
    form of one: that part then runs in PyTorch)."""

    def is_node_supported(self, submodules, node):
        import operator
        from .registry import HANDLERS
        if node.op != "call_function":
            return False
        if node.target is operator.getitem:
            return True
        name = getattr(node.target, "_opname", None) or getattr(node.target, "__name__", "")
        return name.split(".")[0] in HANDLERS


class _Part(torch.nn.Module):
    """A partition compiled by kfuse, in place of its submodule."""

    def __init__(self, compiled, single):
        super().__init__()
        self.compiled, self.single = compiled, single

    def forward(self, *inputs):
        out = self.compiled(*inputs)
        return out[0] if self.single else out


def _split(gm, example_inputs, cache_dir):
    """The graph decomposed to aten (as kfuse-import exports it), its runs of
    ops kfuse-import handles made into partitions (torch.fx's
    CapabilityBasedPartitioner), each compiled by kfuse where it imports
    and compiles; the rest runs in PyTorch. Returns the module and the
    reasons of the partitions left to PyTorch."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from .importer import decomposition_table
    ep = torch.export.export(gm, tuple(example_inputs), strict=False)
    module = ep.run_decompositions(decomposition_table()).module()
    partitioner = CapabilityBasedPartitioner(module, _Supported(),
                                             allows_single_node_partition=True)
    fused = partitioner.fuse_partitions(partitioner.propose_partitions())
    # Each partition's example inputs: what reaches it when the graph runs.
    seen = {}

    class Recorder(torch.fx.Interpreter):
        def call_module(self, target, args, kwargs):
            seen.setdefault(target, tuple(args))
            return super().call_module(target, args, kwargs)
    Recorder(fused).run(*example_inputs)
    refused = []
    for name, args in seen.items():
        if not name.startswith("fused_"):  # torch.export's own (its guards)
            continue
        sub = getattr(fused, name)
        single = not isinstance(sub(*args), tuple)
        try:
            program = import_module(sub, args, entry="graph")
            setattr(fused, name, _Part(CompiledGraph(program, cache_dir), single))
        except (UnsupportedOp, RuntimeError, ValueError, OSError) as e:
            refused.append(str(e).splitlines()[0])
    return fused, refused


def _is_buffer(node):
    """Whether Dynamo lifted this placeholder from a module's buffers (its
    source names `_buffers`), not from a parameter or the caller."""
    source = getattr(node.meta.get("grapharg"), "source", None)
    while source is not None:
        if getattr(source, "member", None) == "_buffers":
            return True
        source = getattr(source, "base", None)
    return False


def _freeze_buffers(gm, example_inputs):
    """gm with its small integer and bool buffers made constants, and
    [(position, value)] of the inputs that were those buffers.

    Dynamo hands a module's buffers to the backend as inputs, so where
    torch.export folds BERT's token types (a gather from a buffer of zeros
    at position ids, fold.py) the backend saw an i64 gather, which kf
    refuses, and the graph was split around it. Position ids, token types
    and masks are integer buffers the model never changes; made module
    buffers (non-persistent) of the graph, they fold as they do in
    kfuse-import. Dynamo does not guard on their values, so _Frozen checks
    them on every call (a few microseconds each: small ones only) and runs
    the call in PyTorch if one changed."""
    from .fold import SMALL
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    frozen = [(i, n, x) for i, (n, x) in enumerate(zip(placeholders, example_inputs))
              if isinstance(x, torch.Tensor) and _is_buffer(n) and x.numel() <= SMALL
              and not (x.is_floating_point() or x.is_complex())]
    if not frozen:
        return gm, []
    module = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
    nodes = {n.name: n for n in module.graph.nodes}
    for k, (_, node, value) in enumerate(frozen):
        name = f"_kfuse_frozen_{k}"
        module.register_buffer(name, value.detach().clone(), persistent=False)
        placeholder = nodes[node.name]
        with module.graph.inserting_before(placeholder):
            constant = module.graph.get_attr(name)
        constant.meta = dict(placeholder.meta)
        placeholder.replace_all_uses_with(constant)
        module.graph.erase_node(placeholder)
    module.recompile()
    return module, [(i, value.detach().clone()) for i, _, value in frozen]


class _Frozen:
    """A library compiled with some inputs frozen (_freeze_buffers): called
    with all of Dynamo's inputs, it checks the frozen ones and passes on the
    rest; a frozen input whose values changed runs the call in PyTorch."""

    def __init__(self, compiled, frozen, fallback):
        self.compiled, self.frozen, self.fallback = compiled, frozen, fallback
        self.skipped = {i for i, _ in frozen}
        self.warned = False

    def __call__(self, *inputs):
        for i, value in self.frozen:
            if not torch.equal(inputs[i], value):
                if not self.warned:
                    warnings.warn("kfuse: a buffer the library was compiled with changed "
                                  "its values; this graph runs in PyTorch", stacklevel=2)
                    self.warned = True
                return self.fallback(*inputs)
        return self.compiled(*[t for i, t in enumerate(inputs) if i not in self.skipped])


def kfuse_backend(gm, example_inputs):
    """The torch.compile backend: the graph as a kfuse library, or as PyTorch
    runs it where kfuse cannot (with a warning saying why)."""
    cache_dir = os.environ.get("KFUSE_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "kfuse", "torch")
    tensors = all(isinstance(x, torch.Tensor) for x in example_inputs)
    why = None
    if not tensors:
        why = ("an input that is not a tensor (a size Dynamo made dynamic: "
               "torch.compile(..., dynamic=False) compiles each shape instead)")
    elif any(x.device.type != "cpu" for x in example_inputs):
        why = "a tensor not on the CPU"
    elif torch.is_grad_enabled() and any(x.requires_grad for x in example_inputs):
        why = "a graph that needs gradients (kfuse computes forward only)"
    if why is None:
        try:
            module, frozen = _freeze_buffers(gm, example_inputs)
            kept = [x for i, x in enumerate(example_inputs)
                    if i not in {j for j, _ in frozen}]
            program = import_module(module, tuple(kept), entry="graph")
            compiled = CompiledGraph(program, cache_dir)
            return _Frozen(compiled, frozen, gm.forward) if frozen else compiled
        except (UnsupportedOp, RuntimeError, ValueError, OSError) as e:
            why = str(e).splitlines()[0]
        # Per op: the parts kfuse handles compiled, the rest left to PyTorch.
        try:
            module, refused = _split(gm, example_inputs, cache_dir)
            warnings.warn(f"kfuse: part of this graph runs in PyTorch: {why}"
                          + "".join(f"; {r}" for r in refused), stacklevel=2)
            return module.forward
        except Exception as e:  # noqa: BLE001 (never fail the model)
            why += f" (and splitting the graph failed: {str(e).splitlines()[0]})"
    warnings.warn(f"kfuse: this graph runs in PyTorch: {why}", stacklevel=2)
    return gm.forward


def register():
    from torch._dynamo import register_backend
    from torch._dynamo.backends.registry import _BACKENDS
    if "kfuse" not in _BACKENDS:
        register_backend(name="kfuse")(kfuse_backend)


register()
