"""Reductions: sum, mean, amax/amin, max/min (with indices), argmax/argmin,
var/std (with correction), any/all."""
from .errors import UnsupportedOp
from .kftypes import TORCH_TO_KF
from .registry import handles


def _dims_keepdim(node, dim_index=1):
    args = list(node.args) + [None, None]
    dims = args[dim_index] if len(node.args) > dim_index else node.kwargs.get("dim")
    keepdim = args[dim_index + 1] if len(node.args) > dim_index + 1 else \
        node.kwargs.get("keepdim", False)
    if isinstance(dims, int):
        dims = [dims]
    return (list(dims) if dims else None), bool(keepdim)


def _with_dtype(ctx, node, x):
    """sum/mean(dtype=...) cast their input first, as PyTorch does."""
    dtype = node.kwargs.get("dtype")
    return ctx.em.cast(x, TORCH_TO_KF[dtype]) if dtype is not None else x


@handles("sum", "mean")
def sum_mean(ctx, node):
    x = _with_dtype(ctx, node, ctx.value(node.args[0]))
    if ctx.overload == "default":
        dims, keepdim = None, False
    else:
        dims, keepdim = _dims_keepdim(node)
    return ctx.em.reduce(ctx.name, x, dims, keepdim, hint=node.name)


@handles("amax", "amin")
def amax(ctx, node):
    dims, keepdim = _dims_keepdim(node)
    return ctx.em.reduce(ctx.name[1:], ctx.value(node.args[0]), dims, keepdim, hint=node.name)


@handles("any", "all")
def any_all(ctx, node):
    """any/all (default, dim, dims): kf.max/kf.min over bool, which kf
    computes as or/and; another dtype is read as bool first (x != 0, NaN
    true: kf.cast to i1), as PyTorch does. The result is bool, as
    PyTorch's for every input but uint8 (which kf does not take)."""
    x = ctx.em.cast(ctx.value(node.args[0]), "i1")
    if ctx.overload == "default":
        dims, keepdim = None, False
    else:
        dims, keepdim = _dims_keepdim(node)
    op = "max" if ctx.name == "any" else "min"
    return ctx.em.reduce(op, x, dims, keepdim, hint=node.name)


def _arg(ctx, which, x, dim, keepdim, hint):
    if dim is None:
        if None in x.type.shape:
            raise UnsupportedOp(f"arg{which} of a tensor with a dynamic dim (kf needs its size)")
        text = f"kf.arg{which} %{x.name}"
        shape = (1,) * x.type.rank if keepdim else ()
    else:
        dim %= x.type.rank
        if x.type.shape[dim] is None:
            raise UnsupportedOp(f"arg{which} over a dynamic dim (kf needs its size)")
        text = f"kf.arg{which} %{x.name} dim {dim}"
        shape = tuple(1 if i == dim else d for i, d in enumerate(x.type.shape)
                      if keepdim or i != dim)
    if x.type.dtype == "i1":
        raise UnsupportedOp(f"arg{which} of bool")
    text += " keepdim" if keepdim else ""
    return ctx.em.emit(hint, f"{text} : {x.type}", x.type.__class__(shape, "i64"))


@handles("argmax", "argmin")
def argmax(ctx, node):
    x = ctx.value(node.args[0])
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
    keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
    return _arg(ctx, ctx.name[3:], x, dim, keepdim, node.name)


@handles("max", "min")
def max_min(ctx, node):
    x = ctx.value(node.args[0])
    if ctx.overload in ("other", "binary"):  # torch.max(a, b) is maximum
        op = "maximum" if ctx.name == "max" else "minimum"
        return ctx.em.binary(op, x, ctx.value(node.args[1]), hint=node.name)
    if ctx.overload == "default":
        return ctx.em.reduce(ctx.name, x, None, False, hint=node.name)
    dim = node.args[1]
    keepdim = bool(node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False))
    values = ctx.em.reduce(ctx.name, x, [dim], keepdim, hint=node.name + "_values")
    which = ctx.name  # ctx moves on to other nodes before the indices are read

    def indices():  # computed only when something reads them (getitem 1)
        return _arg(ctx, which, x, dim, keepdim, node.name + "_indices")
    return (values, indices)


def _correction(ctx, node):
    if ctx.overload in ("correction", "correction_names"):  # correction= is keyword-only
        c = node.kwargs.get("correction")
        c = 1 if c is None else c
        dims, keepdim = _dims_keepdim(node)
    else:  # var.dim(x, dim, unbiased, keepdim) / var.default(x, unbiased)
        if ctx.overload == "default":
            dims, keepdim = None, False
            unbiased = node.args[1] if len(node.args) > 1 else True
        else:
            dims = node.args[1]
            dims = [dims] if isinstance(dims, int) else (list(dims) if dims else None)
            unbiased = node.args[2] if len(node.args) > 2 else node.kwargs.get("unbiased", True)
            keepdim = node.args[3] if len(node.args) > 3 else node.kwargs.get("keepdim", False)
        c = 1 if unbiased else 0
    c = ctx.number(c)
    if float(c) != int(c):
        raise UnsupportedOp(f"a non-integer correction {c} (kf's correction is an integer)")
    return dims, bool(keepdim), int(c)


@handles("var", "std")
def var_std(ctx, node):
    x = ctx.value(node.args[0])
    dims, keepdim, c = _correction(ctx, node)
    return ctx.em.reduce(ctx.name, x, dims, keepdim, hint=node.name,
                         extra=f" correction {c}")


@handles("var_mean", "std_mean")
def var_mean(ctx, node):
    x = ctx.value(node.args[0])
    dims, keepdim, c = _correction(ctx, node)
    v = ctx.em.reduce(ctx.name[:3], x, dims, keepdim, hint=node.name, extra=f" correction {c}")
    return (v, ctx.em.reduce("mean", x, dims, keepdim, hint=node.name + "_mean"))


@handles("cumsum")
def cumsum(ctx, node):
    """torch.cumsum(x, dim, dtype=None): kf.cumsum (integers and bool give
    int64, as PyTorch's); dtype= casts the input first. A 0-d input is the
    input itself (PyTorch's result, promoted)."""
    x = _with_dtype(ctx, node, ctx.value(node.args[0]))
    dim = node.args[1] if len(node.args) > 1 else node.kwargs["dim"]
    out = "i64" if not x.type.is_float else x.type.dtype
    if x.type.rank == 0:
        return ctx.em.cast(x, out)
    dim %= x.type.rank
    return ctx.em.emit(node.name, f"kf.cumsum %{x.name} dim {dim} : {x.type}",
                       x.type.__class__(x.type.shape, out))
