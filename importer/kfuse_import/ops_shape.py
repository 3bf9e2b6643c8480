"""Views, copies and constant-producing aten ops."""
import numpy as np
import torch

from .errors import UnsupportedOp
from .kftypes import TORCH_TO_KF, KfType, result_dtype, static_int
from .registry import handles

INT64_MAX = 9223372036854775807


@handles("view", "_unsafe_view", "reshape")
def view(ctx, node):
    x = ctx.value(node.args[0])
    shape = ctx.shape_arg(node.args[1])
    traced = node.meta.get("val")
    if shape.count(-1) > 1 and isinstance(traced, torch.Tensor):
        # A symbolic size and a -1 (view(*input_shape, -1, head_dim) with a
        # dynamic batch): torch.export traced the result's shape, in which
        # the -1 is a number; kf takes one unknown dim.
        known = [static_int(d) for d in traced.shape]
        if known.count(None) <= 1:
            shape = [-1 if d is None else d for d in known]
    return ctx.em.reshape(x, shape, hint=node.name)


@handles("permute")
def permute(ctx, node):
    return ctx.em.transpose(ctx.value(node.args[0]), list(node.args[1]), hint=node.name)


@handles("transpose")
def transpose(ctx, node):
    x = ctx.value(node.args[0])
    perm = list(range(x.type.rank))
    a, b = (d % max(x.type.rank, 1) for d in node.args[1:3])
    perm[a], perm[b] = perm[b], perm[a]
    return ctx.em.transpose(x, perm, hint=node.name)


@handles("t")
def t(ctx, node):
    x = ctx.value(node.args[0])
    return ctx.em.transpose(x, list(range(x.type.rank))[::-1], hint=node.name)


def _reshape_to(ctx, x, shape, hint):
    """A reshape to `shape` (ints, None for a dynamic dim) written with -1."""
    if shape.count(None) > 1:
        raise UnsupportedOp("a reshape of a tensor with more than one dynamic dim")
    return ctx.em.reshape(x, [-1 if d is None else d for d in shape], hint=hint)


@handles("unsqueeze")
def unsqueeze(ctx, node):
    x = ctx.value(node.args[0])
    dim = node.args[1] % (x.type.rank + 1)
    shape = list(x.type.shape)
    shape.insert(dim, 1)
    return _reshape_to(ctx, x, shape, node.name)


@handles("squeeze")
def squeeze(ctx, node):
    x = ctx.value(node.args[0])
    rank = x.type.rank
    if len(node.args) < 2:
        dims = range(rank)
    elif isinstance(node.args[1], (list, tuple)):
        dims = node.args[1]
    else:
        dims = [node.args[1]]
    drop = {d % rank for d in dims if rank and x.type.shape[d % rank] == 1}
    shape = [d for i, d in enumerate(x.type.shape) if i not in drop]
    return _reshape_to(ctx, x, shape, node.name)


@handles("expand")
def expand(ctx, node):
    x = ctx.value(node.args[0])
    sizes = ctx.shape_arg(node.args[1])
    lead = len(sizes) - x.type.rank
    shape = []
    for i, s in enumerate(sizes):
        src = x.type.shape[i - lead] if i >= lead else None
        if s == -1:
            if i < lead:
                raise UnsupportedOp("expand to a dynamic size in a new leading dim")
            if src == 1 and ctx.symbolic(node.args[1][i]):
                raise UnsupportedOp("expand of a size-1 dim to a dynamic size")
            shape.append(src)
        else:
            shape.append(s)
    if tuple(shape) == x.type.shape:
        return x
    t = KfType(tuple(shape), x.type.dtype)
    return ctx.em.emit(node.name, f"kf.broadcast_to %{x.name} [{', '.join(map(str, sizes))}] : "
                                  f"{x.type}", t)


def _slice(ctx, x, dim, start, end, step, hint):
    rank = x.type.rank
    dim %= rank
    size = x.type.shape[dim]
    start = 0 if start is None else start
    end = INT64_MAX if end is None else end
    if not all(isinstance(v, int) for v in (start, end, step)):
        raise UnsupportedOp("a slice with symbolic bounds")
    if size is None and (start != 0 or end < INT64_MAX or step != 1):
        raise UnsupportedOp("a slice of a dynamic dim other than the whole dim")
    if size is not None:  # Python's clamping, to know the result size
        lo = max(0, min(size, start + size if start < 0 else start))
        hi = max(0, min(size, end + size if end < 0 else end))
        if lo == 0 and hi == size and step == 1:
            return x
        n = max(0, -(-(hi - lo) // step))
    else:
        n = None
    starts, ends, steps = [0] * rank, [INT64_MAX] * rank, [1] * rank
    starts[dim], ends[dim], steps[dim] = start, min(end, INT64_MAX), step
    shape = list(x.type.shape)
    shape[dim] = n
    fmt = lambda v: "[" + ", ".join(map(str, v)) + "]"
    return ctx.em.emit(hint, f"kf.slice %{x.name} starts {fmt(starts)} ends {fmt(ends)} "
                             f"steps {fmt(steps)} : {x.type}", KfType(tuple(shape), x.type.dtype))


@handles("slice")
def slice_(ctx, node):
    x = ctx.value(node.args[0])
    args = list(node.args[1:]) + [None] * 4
    dim = args[0] if args[0] is not None else node.kwargs.get("dim", 0)
    start = args[1] if len(node.args) > 2 else node.kwargs.get("start")
    end = args[2] if len(node.args) > 3 else node.kwargs.get("end")
    step = args[3] if len(node.args) > 4 else node.kwargs.get("step", 1)
    return _slice(ctx, x, dim, start, end, step or 1, node.name)


@handles("select")
def select(ctx, node):
    x = ctx.value(node.args[0])
    dim, index = node.args[1] % x.type.rank, node.args[2]
    size = x.type.shape[dim]
    if size is None or not isinstance(index, int):
        raise UnsupportedOp("select on a dynamic dim or at a symbolic index")
    index %= size
    s = _slice(ctx, x, dim, index, index + 1, 1, node.name + "_slice")
    return _reshape_to(ctx, s, [d for i, d in enumerate(x.type.shape) if i != dim], node.name)


@handles("split_with_sizes", "split")
def split(ctx, node):
    x = ctx.value(node.args[0])
    dim = (node.args[2] if len(node.args) > 2 else node.kwargs.get("dim", 0)) % x.type.rank
    size = x.type.shape[dim]
    if size is None:
        raise UnsupportedOp("split along a dynamic dim")
    sizes = node.args[1]
    if isinstance(sizes, int):
        sizes = [min(sizes, size - i) for i in range(0, size, sizes)] or [0]
    out, start = [], 0
    for i, n in enumerate(sizes):
        out.append(_slice(ctx, x, dim, start, start + n, 1, f"{node.name}_{i}"))
        start += n
    return tuple(out)


@handles("cat")
def cat(ctx, node):
    xs = [ctx.value(a) for a in node.args[0]]
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    # torch.cat skips 1-D empty tensors (legacy); kf does not.
    xs = [x for x in xs if x.type.shape != (0,)] or xs[:1]
    if len(xs) == 1:
        return xs[0]
    rank = xs[0].type.rank
    dim %= rank
    shape = list(xs[0].type.shape)
    sizes = [x.type.shape[dim] for x in xs]
    shape[dim] = None if None in sizes else sum(sizes)
    t = KfType(tuple(shape), result_dtype(x.type for x in xs))
    names = ", ".join(f"%{x.name}" for x in xs)
    types = ", ".join(str(x.type) for x in xs)
    return ctx.em.emit(node.name, f"kf.cat {names} dim {dim} : {types}", t)


@handles("clone")
def clone(ctx, node):
    # An eager copy kernel, as PyTorch's clone (the contiguous() of a view).
    x = ctx.value(node.args[0])
    if x.type.rank == 0:
        return x
    return ctx.em.emit(node.name, f"kf.contiguous %{x.name} : {x.type}", x.type)


@handles("alias", "detach", "lift_fresh_copy", "dropout", "feature_dropout")
def alias(ctx, node):
    train = node.args[2] if len(node.args) > 2 else node.kwargs.get("train", False)
    if ctx.name.endswith("dropout") and train:
        raise UnsupportedOp("dropout in training mode (call model.eval())")
    return ctx.value(node.args[0])


def _meta_constant(ctx, node, fill):
    """A constant of node's own (static) shape and dtype."""
    val = node.meta["val"]
    dtype = TORCH_TO_KF.get(val.dtype)
    if dtype is None:
        raise UnsupportedOp(f"a tensor of dtype {val.dtype}")
    shape = ctx.static_shape(val)
    return ctx.em.constant(node.name, fill(shape, val.dtype), dtype, shape)


@handles("full", "full_like", "scalar_tensor", "zeros", "ones", "zeros_like", "ones_like",
         "new_full", "new_zeros", "new_ones")
def full(ctx, node):
    name = ctx.name
    if name in ("zeros", "zeros_like", "new_zeros"):
        value = 0
    elif name in ("ones", "ones_like", "new_ones"):
        value = 1
    elif name == "scalar_tensor":
        value = node.args[0]
    elif name == "new_full":
        value = node.args[2]
    else:
        value = node.args[1]
    value = ctx.number(value)
    return _meta_constant(ctx, node, lambda shape, dt: np.full(shape, value))


@handles("arange")
def arange(ctx, node):
    args = [ctx.number(a) for a in node.args]
    start, end, step = {"default": lambda: (0, args[0], 1),
                        "start": lambda: (args[0], args[1], 1)}.get(
        ctx.overload, lambda: (args[0], args[1], args[2] if len(args) > 2 else 1))()

    def values(shape, dt):
        a = torch.arange(start, end, step, dtype=dt)
        return (a.float() if dt == torch.bfloat16 else a).numpy()
    return _meta_constant(ctx, node, values)
