"""Walks a torch.export ExportedProgram and writes its graph as one kf function."""
import contextlib
import linecache
import operator
import os
import re
import traceback

import torch

from . import ops_attention, ops_conv, ops_gather, ops_nn, ops_pointwise, ops_reduce, ops_shape  # noqa: F401 (register handlers)
from .emitter import Emitter, Value
from .fold import Folder
from .errors import ImportFailure, UnsupportedOp
from .guard import _innermost_user_frame
from .kftypes import TORCH_TO_KF, from_fake, static_int
from .program import Program
from .registry import HANDLERS

# Ops kf has whole (composites it decomposes and fuses itself) or that
# decompose into something worse for kf (linear into view/permute/addmm,
# matmul into expand/clone/bmm, nll_loss into gather, which kf lacks;
# scaled_dot_product_attention into a decomposition that crashes torch.export
# on a GPT-2 and reads `any` (ops_attention.py); adaptive pooling of a
# channels-last input into mean + as_strided):
# taken out of torch.export's default decomposition table.
KEEP = {"linear", "matmul", "silu", "rms_norm", "var", "std", "var_mean", "std_mean",
        "softmax", "log_softmax", "layer_norm", "floor_divide", "cross_entropy_loss",
        "nll_loss", "nll_loss_nd", "nll_loss_forward", "nll_loss2d_forward", "square",
        "scaled_dot_product_attention", "adaptive_avg_pool2d", "_adaptive_avg_pool2d"}

# Ops that only check or constrain sizes: nothing to compute.
SKIPPED = {"_assert_scalar", "_assert_tensor_metadata", "sym_constrain_range",
           "sym_constrain_range_for_size", "_assert_async", "sym_size", "sym_numel",
           "sym_stride", "sym_storage_offset"}

_TORCH_DIR = os.path.dirname(torch.__file__)


def decomposition_table():
    table = torch.export.default_decompositions()
    for op in list(table.keys()):
        if op.name().split("::")[-1].split(".")[0] in KEEP:
            table.pop(op)
    return table


def user_frames(node):
    """[(file:line, function, the line's text)] of the user's code that made
    `node`, outermost first: its stack trace less torch's own frames."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in ([^\n]*)\n(?: {4}([^\n]*))?', trace)
    return [(f"{path}:{line}", function.strip(), text.strip())
            for path, line, function, text in frames
            if not os.path.abspath(path).startswith(_TORCH_DIR + os.sep)]


def source_line(node):
    """(file:line, the line's text) of the user's code that made `node`:
    the innermost frame of its stack trace outside torch itself."""
    frames = user_frames(node)
    return frames[-1][::2] if frames else (None, None)


@contextlib.contextmanager
def _whole_stack_traces():
    """While torch.export traces: a node's stack trace keeps every frame from
    the first forward() on. torch keeps only frames of functions named
    forward, so an op in a helper function that forward() calls would be
    reported at forward()'s line, not at its own. _filter_traceback_frames
    is the hook TracerBase documents for this; where a torch lacks it, its
    own traces are used."""
    tracer = torch.fx.proxy.TracerBase
    original = tracer.__dict__.get("_filter_traceback_frames")
    if original is None:
        yield
        return

    def from_first_forward(self, summary):
        for i, frame in enumerate(summary):
            if frame.name == "forward":
                return traceback.StackSummary.from_list(list(summary)[i:])
        return original(self, summary)

    tracer._filter_traceback_frames = from_first_forward
    try:
        yield
    finally:
        tracer._filter_traceback_frames = original


@contextlib.contextmanager
def _export_failures(what):
    """torch.export's own failures (a data-dependent branch, a crash in a
    decomposition) as one ImportFailure line at the model's innermost source
    line, not a traceback of torch's internals (the original is chained)."""
    try:
        yield
    except (ImportFailure, KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:
        where = _innermost_user_frame(e.__traceback__)
        first = next((ln.strip() for ln in str(e).splitlines() if ln.strip()), "")
        text = f"torch.export failed while {what}: {type(e).__name__}: {first}"
        if where:
            path, line = where.rsplit(":", 1)
            source = linecache.getline(path, int(line)).strip()
            text = f"{where}: {text}" + (f"\n    {source}" if source else "")
        raise ImportFailure(text) from e


class Context:
    """What a handler sees: the emitter, the values so far, the node's op."""

    def __init__(self, em):
        self.em = em
        self.values = {}
        self.name = self.overload = None
        self.folder = None  # a Folder: the program's constant subgraphs

    def value(self, arg):
        if not isinstance(arg, torch.fx.Node):
            raise UnsupportedOp(f"a Python value {arg!r} where a tensor is expected")
        v = self.values.get(arg)
        if isinstance(v, Value):
            return v
        if v is None and self.folder is not None and self.folder.small(arg) and \
                isinstance(arg.meta.get("val"), torch.Tensor):
            _fold(self, arg, _op_name(arg))  # a small constant, made where it is read
            return self.values[arg]
        if v is None and isinstance(arg.meta.get("val"), (torch.SymInt, torch.SymFloat, int)):
            raise UnsupportedOp(f"a tensor size ({arg.name}) used as a value")
        raise UnsupportedOp(f"{arg.name} is not a tensor kf computes")

    def number(self, v):
        if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool, torch.fx.Node)):
            raise UnsupportedOp("a scalar computed from dynamic sizes")
        if not isinstance(v, (int, float, bool)):
            raise UnsupportedOp(f"a scalar argument {v!r}")
        return v

    def symbolic(self, entry):
        if isinstance(entry, torch.fx.Node):
            entry = entry.meta.get("val")
        return static_int(entry) is None

    def shape_arg(self, shape):
        """A size list with its symbolic entries as -1."""
        out = []
        for d in shape:
            if isinstance(d, torch.fx.Node):
                d = d.meta.get("val")
            s = static_int(d)
            out.append(-1 if s is None else s)
        return out

    def static_shape(self, fake):
        shape = tuple(static_int(d) for d in fake.shape)
        if None in shape:
            raise UnsupportedOp("a new tensor of a dynamic size (kf.constant is static)")
        return shape


def _as_numpy(t):
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:  # numpy has no bf16: f32 holds it exactly
        t = t.float()
    return t.contiguous().numpy()


def _entry_name(name):
    name = re.sub(r"\W", "_", name) or "forward"
    return name if not name[0].isdigit() else "f" + name


def import_exported(ep, user_inputs=(), weights="args", entry="forward", origin=None):
    """kf for an ExportedProgram; user_inputs are the example tensors."""
    if weights not in ("args", "constants"):
        raise ValueError(f"weights must be 'args' or 'constants', got {weights!r}")
    with _export_failures("decomposing the program (run_decompositions)"):
        ep = ep.run_decompositions(decomposition_table())
    em, sig = Emitter(), ep.graph_signature
    ctx = Context(em)
    state = dict(ep.state_dict)
    state.update(ep.constants)
    ctx.folder = Folder(ep, state)
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    args, user_arrays = [], list(user_inputs)
    consts = []
    for node, spec in zip(placeholders, sig.input_specs):
        kind = spec.kind.name
        if kind == "USER_INPUT":
            val = node.meta.get("val")
            if not isinstance(val, torch.Tensor):
                continue  # an int or None input: torch.export specialised it
            t = from_fake(val)
            if t is None:
                raise UnsupportedOp(f"input {node.name} has dtype {val.dtype}, which kf lacks")
            v = Value(em.fresh(node.name), t)
            args.append((v, f"{node.name} (input)", "input", None))
        elif kind in ("PARAMETER", "BUFFER", "CONSTANT_TENSOR"):
            if not node.users:
                continue  # an unused buffer (bn.num_batches_tracked): no argument
            tensor = state[spec.target]
            t = from_fake(node.meta["val"]) if "val" in node.meta else None
            if t is None or tensor.dtype not in TORCH_TO_KF:
                raise UnsupportedOp(f"{spec.target} has dtype {tensor.dtype}, which kf lacks")
            if weights == "constants" or kind == "CONSTANT_TENSOR":
                consts.append((node, tensor, t))
                continue
            v = Value(em.fresh(node.name), t)
            args.append((v, f"{spec.target} ({kind.lower().replace('_tensor', '')})",
                         "weight", _as_numpy(tensor)))
        else:
            raise UnsupportedOp(f"an input of kind {kind} ({node.name})")
        ctx.values[node] = v
    # Weights first, then the user's inputs, in the order of forward().
    args = [a for a in args if a[2] == "weight"] + [a for a in args if a[2] == "input"]
    for node, tensor, t in consts:
        ctx.values[node] = em.constant(node.name, _as_numpy(tensor), t.dtype, t.shape)
    _refuse_missing_ops(ep.graph, ctx.folder)
    for node in ep.graph.nodes:
        if node.op == "call_function":
            _lower(ctx, node)
        elif node.op == "output":
            outputs = node.args[0]
    for spec in sig.output_specs:
        if spec.kind.name != "USER_OUTPUT":
            raise UnsupportedOp(f"the program mutates {spec.target} ({spec.kind.name}); "
                                "kf functions return values only (call model.eval())")
    results = []
    for out in outputs:
        if not isinstance(out, torch.fx.Node):
            raise UnsupportedOp(f"forward() returns {out!r}, which is not a tensor")
        results.append(ctx.value(out))
    # A weight that only folded ops read (a buffer of token types) is no
    # argument: the folded constant holds what the program needs of it.
    read = set(re.findall(r"%(\w+)", "\n".join(em.lines))) | {r.name for r in results}
    args = [a for a in args if a[2] == "input" or a[0].name in read]
    user_arrays = [_as_numpy(t) for t in user_arrays if isinstance(t, torch.Tensor)]
    inputs = [a[3] for a in args if a[2] == "weight"] + user_arrays
    if len(inputs) != len(args):
        raise ValueError(f"{len(args)} arguments but {len(inputs)} example values")
    text = _function_text(_entry_name(entry), args, results, em.lines, origin)
    return Program(text, inputs, [(a[0].name, a[1]) for a in args], _entry_name(entry))


def _refuse_missing_ops(graph, folder):
    """Every aten op kf has no handler for, at once: the first as the error
    (its op and line), the others listed after it, each with its line, so
    that a user sees all a model needs in one run. An op of constants only
    is not refused: it is folded (fold.py)."""
    missing, seen = [], set()
    for node in graph.nodes:
        target = node.target
        if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload):
            continue
        name = target._schema.name.split("::")[-1]
        op_name = _op_name(node)
        if name in SKIPPED or name in HANDLERS or op_name in seen or folder.foldable(node):
            continue
        seen.add(op_name)
        missing.append(_located(UnsupportedOp("kf has no op for it (see importer/README.md "
                                              "for what kfuse-import maps)"), node, op_name))
    if not missing:
        return
    first = missing[0]
    if len(missing) > 1:
        first.others = missing[1:]
        first.args = (str(first) + "".join(
            f"\nalso refused: {(e.where + ': ') if e.where else ''}{e.op}" for e in missing[1:]),)
    raise first


def _op_name(node):
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return f"aten.{target._schema.name.split('::')[-1]}.{target._overloadname}"
    return getattr(target, "__name__", str(target))


def _lower(ctx, node):
    target = node.target
    if ctx.folder.small(node):
        return  # a small constant: folded where a lowered op reads it (Context.value)
    if target is operator.getitem:
        source = ctx.values.get(node.args[0])
        if not isinstance(source, tuple):
            if node.args[0] in ctx.values or not isinstance(node.meta.get("val"), torch.Tensor):
                return  # an element of a size list
            raise UnsupportedOp(f"getitem of {node.args[0].name}")
        item = source[node.args[1]]
        ctx.values[node] = item() if callable(item) else item
        return _reconcile(ctx, node)
    if not isinstance(target, torch._ops.OpOverload):
        if isinstance(node.meta.get("val"), torch.Tensor):
            raise _located(UnsupportedOp(f"{target} is not an aten op"), node, str(target))
        return  # arithmetic on sizes (operator.mul of SymInts ...)
    name = target._schema.name.split("::")[-1]
    op_name = _op_name(node)
    if name in SKIPPED:
        return
    handler = HANDLERS.get(name)
    if handler is None and ctx.folder.foldable(node):
        return _fold(ctx, node, op_name)
    if handler is None:
        raise _located(UnsupportedOp("kf has no op for it (see importer/README.md for what "
                                     "kfuse-import maps)"), node, op_name)
    ctx.name, ctx.overload = name, target._overloadname
    where, _ = source_line(node)
    since, scalars = len(ctx.em.lines), dict(ctx.em.scalars)
    try:
        ctx.values[node] = handler(ctx, node)
        _reconcile(ctx, node)
    except UnsupportedOp as e:
        if ctx.folder.foldable(node):
            del ctx.em.lines[since:]  # what the handler wrote before it refused
            ctx.em.scalars = scalars
            return _fold(ctx, node, op_name)
        raise _located(e, node, op_name) from None
    ctx.em.annotate(since, os.path.basename(where) if where else None)


def _fold(ctx, node, op_name):
    """node, which depends on constants only, as the kf.constant of its value
    computed by PyTorch now (fold.py says when and why)."""
    value = ctx.folder.value(node)
    if not isinstance(value, torch.Tensor):
        raise _located(UnsupportedOp(f"folding gives {type(value).__name__}, not a tensor"),
                       node, op_name)
    dtype = TORCH_TO_KF.get(value.dtype)
    if dtype is None:
        raise _located(UnsupportedOp(f"folding gives a tensor of dtype {value.dtype}, which "
                                     "kf lacks"), node, op_name)
    since = len(ctx.em.lines)
    ctx.values[node] = ctx.em.constant(node.name, _as_numpy(value), dtype, tuple(value.shape))
    ctx.em.annotate(since, f"{op_name} of constants, folded at import")


def _located(e, node, op_name):
    if e.op is None:
        frames = user_frames(node)
        where, _, text = frames[-1] if frames else (None, None, None)
        return UnsupportedOp(e.reason, op=op_name, where=where, source=text,
                             callers=frames[-2::-1])
    return e


def _reconcile(ctx, node):
    """Checks the emitted value's type against PyTorch's; where kf's dtype
    rule differs from PyTorch's, a cast gives PyTorch's dtype."""
    v, val = ctx.values.get(node), node.meta.get("val")
    if not isinstance(v, Value) or not isinstance(val, torch.Tensor):
        return
    want = from_fake(val)
    if want is None:
        raise UnsupportedOp(f"a result of dtype {val.dtype}, which kf lacks")
    if len(want.shape) != v.type.rank or any(
            a is not None and b is not None and a != b for a, b in zip(want.shape, v.type.shape)):
        raise UnsupportedOp(f"internal: kf's type {v.type} differs from PyTorch's {want}")
    if want.dtype != v.type.dtype:
        ctx.values[node] = ctx.em.cast(v, want.dtype, hint=node.name + "_as_torch")


def _function_text(entry, args, results, body, origin):
    lines = [f"// Generated by kfuse-import{' from ' + origin if origin else ''} "
             f"(torch {torch.__version__.split('+')[0]}).",
             "// Arguments: the weights first, then forward()'s inputs; "
             "kfuse-run calls them arg0, arg1, ..."]
    width = max([len(f"%{a[0].name}: {a[0].type},") for a in args] + [0])
    lines.append(f"func.func @{entry}(")
    for i, (v, what, _, _) in enumerate(args):
        decl = f"%{v.name}: {v.type}" + ("," if i + 1 < len(args) else "")
        lines.append(f"    {decl.ljust(width)}  // arg{i}: {what}")
    rtypes = ", ".join(str(r.type) for r in results)
    lines.append(f") -> ({rtypes}) {{" if len(results) != 1 else f") -> {rtypes} {{")
    lines += body
    lines.append(f"  return {', '.join('%' + r.name for r in results)} : {rtypes}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def import_module(module, args, dynamic_shapes=None, weights="args", entry=None,
                  origin=None, strict=False):
    """Exports `module` on example `args` with torch.export and returns its
    kf Program (weights as arguments, or with weights='constants' inside)."""
    args = tuple(args)
    with _whole_stack_traces(), _export_failures("tracing forward()"):
        ep = torch.export.export(module, args, dynamic_shapes=dynamic_shapes, strict=strict)
    entry = entry or type(module).__name__.lower()
    return import_exported(ep, args, weights=weights, entry=entry, origin=origin)
