"""Elementwise aten ops: arithmetic with tensors and Python scalars, unary
math, comparisons, where, clamp, casts."""
import math
import numbers

import torch

from .errors import UnsupportedOp
from .kftypes import FLOATS, TORCH_TO_KF
from .registry import handles

UNARY = {  # aten name -> kf op, same semantics
    "neg": "neg", "abs": "abs", "relu": "relu", "exp": "exp", "log": "log", "sqrt": "sqrt",
    "rsqrt": "rsqrt", "tanh": "tanh", "sigmoid": "sigmoid", "sin": "sin", "cos": "cos",
    "reciprocal": "reciprocal", "exp2": "exp2", "log1p": "log1p", "expm1": "expm1",
    "erf": "erf", "floor": "floor", "ceil": "ceil", "silu": "silu",
}
BINARY = {  # aten name -> kf op (overloads .Tensor and .Scalar alike)
    "add": "add", "sub": "sub", "mul": "mul", "div": "div", "maximum": "maximum",
    "minimum": "minimum", "pow": "pow", "remainder": "remainder",
    "floor_divide": "floor_divide", "eq": "eq", "ne": "ne", "lt": "lt", "le": "le",
    "gt": "gt", "ge": "ge",
}


def scalar_dtype(tensor_dtype, value):
    """The dtype PyTorch computes `tensor op value` in for a Python scalar:
    a higher category scalar gives the default dtype (f32) or i64, else the
    tensor's dtype wins."""
    if isinstance(value, bool):
        return tensor_dtype
    if isinstance(value, numbers.Integral):
        return "i64" if tensor_dtype == "i1" else tensor_dtype
    return tensor_dtype if tensor_dtype in FLOATS else "f32"


def operands(ctx, a, b):
    """Values for two operands, one of which may be a Python scalar."""
    if isinstance(a, torch.fx.Node) and isinstance(b, torch.fx.Node):
        return ctx.value(a), ctx.value(b)
    if isinstance(a, torch.fx.Node):
        x = ctx.value(a)
        return x, ctx.em.scalar(ctx.number(b), scalar_dtype(x.type.dtype, b))
    if isinstance(b, torch.fx.Node):
        y = ctx.value(b)
        return ctx.em.scalar(ctx.number(a), scalar_dtype(y.type.dtype, a)), y
    raise UnsupportedOp("both operands are Python scalars")


def _scaled(ctx, x, alpha):
    """x * alpha for add/sub's alpha= (skipped when alpha is 1)."""
    if alpha == 1:
        return x
    return ctx.em.binary("mul", x, ctx.em.scalar(alpha, scalar_dtype(x.type.dtype, alpha)),
                         hint="alpha")


@handles(*UNARY)
def unary(ctx, node):
    return ctx.em.unary(UNARY[ctx.name], ctx.value(node.args[0]), hint=node.name)


@handles(*BINARY)
def binary(ctx, node):
    op = BINARY[ctx.name]
    if ctx.name == "div" and ctx.overload.endswith("_mode"):
        return _div_rounding(ctx, node)
    if ctx.name == "pow" and ctx.overload == "Scalar":  # scalar base, tensor exponent
        y = ctx.value(node.args[1])
        base = node.args[0]
        a = ctx.em.scalar(ctx.number(base), scalar_dtype(y.type.dtype, base))
        return ctx.em.binary("pow", a, y, hint=node.name)
    a, b = operands(ctx, node.args[0], node.args[1])
    alpha = node.kwargs.get("alpha", node.args[2] if len(node.args) > 2 else 1)
    if ctx.name in ("add", "sub") and alpha != 1:
        b = _scaled(ctx, b, ctx.number(alpha))
    return ctx.em.binary(op, a, b, hint=node.name)


def _div_rounding(ctx, node):
    mode = node.kwargs.get("rounding_mode", node.args[2] if len(node.args) > 2 else None)
    a, b = operands(ctx, node.args[0], node.args[1])
    if mode is None:
        return ctx.em.binary("div", a, b, hint=node.name)
    if mode == "floor":
        return ctx.em.binary("floor_divide", a, b, hint=node.name)
    # trunc: the float quotient rounded toward zero; kf has no trunc op.
    if a.type.dtype not in FLOATS or b.type.dtype not in FLOATS:
        raise UnsupportedOp("integer division with rounding_mode='trunc' (kf has no trunc)")
    q = ctx.em.binary("div", a, b, hint=node.name + "_q")
    zero = ctx.em.scalar(0, q.type.dtype)
    neg = ctx.em.binary("lt", q, zero, hint=node.name + "_neg")
    return ctx.em.where(neg, ctx.em.unary("ceil", q), ctx.em.unary("floor", q), hint=node.name)


@handles("rsub")
def rsub(ctx, node):
    a, b = operands(ctx, node.args[0], node.args[1])
    alpha = node.kwargs.get("alpha", 1)
    return ctx.em.binary("sub", b, _scaled(ctx, a, ctx.number(alpha)), hint=node.name)


@handles("round")
def round_(ctx, node):
    if node.kwargs.get("decimals", 0) != 0 or ctx.overload == "decimals":
        raise UnsupportedOp("round with decimals (kf.round rounds to integers)")
    return ctx.em.unary("round", ctx.value(node.args[0]), hint=node.name)


@handles("square")
def square(ctx, node):
    x = ctx.value(node.args[0])
    return ctx.em.binary("mul", x, x, hint=node.name)


@handles("gelu")
def gelu(ctx, node):
    x = ctx.value(node.args[0])
    approximate = node.kwargs.get("approximate", "none")
    if approximate == "none":
        return ctx.em.unary("gelu", x, hint=node.name)
    # kf.gelu is the exact form; the tanh form written out in kf, in f32 for
    # f16/bf16 as PyTorch's opmath computes it:
    # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    em = ctx.em
    xf = em.cast(x, "f32") if x.type.dtype in ("f16", "bf16") else x
    dt = xf.type.dtype
    cube = em.binary("mul", em.binary("mul", xf, xf), xf)
    inner = em.binary("add", xf, em.binary("mul", cube, em.scalar(0.044715, dt)))
    t = em.unary("tanh", em.binary("mul", inner, em.scalar(math.sqrt(2 / math.pi), dt)))
    y = em.binary("mul", em.binary("mul", xf, em.scalar(0.5, dt)),
                  em.binary("add", t, em.scalar(1.0, dt)), hint=node.name)
    return em.cast(y, x.type.dtype, hint=node.name + "_cast")


@handles("leaky_relu")
def leaky_relu(ctx, node):
    x = ctx.value(node.args[0])
    slope = ctx.number(node.args[1] if len(node.args) > 1 else node.kwargs.get("negative_slope", 0.01))
    zero = ctx.em.scalar(0, x.type.dtype)
    pos = ctx.em.binary("gt", x, zero)
    scaled = ctx.em.binary("mul", x, ctx.em.scalar(slope, scalar_dtype(x.type.dtype, slope)))
    return ctx.em.where(pos, x, scaled, hint=node.name)


def _bound_attr(value, dtype):
    """A clamp bound as kf.clamp's attribute: an integer or a float literal."""
    from .emitter import float_literal
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    return float_literal(value, "f64")


@handles("clamp", "clip", "clamp_min", "clamp_max", "hardtanh")
def clamp(ctx, node):
    x = ctx.value(node.args[0])
    args = list(node.args[1:]) + [None, None]
    if ctx.name == "clamp_min":
        lo, hi = args[0], None
    elif ctx.name == "clamp_max":
        lo, hi = None, args[0]
    elif ctx.name == "hardtanh":
        lo = args[0] if len(node.args) > 1 else node.kwargs.get("min_val", -1.0)
        hi = args[1] if len(node.args) > 2 else node.kwargs.get("max_val", 1.0)
    else:
        lo, hi = node.kwargs.get("min", args[0]), node.kwargs.get("max", args[1])
    if isinstance(lo, torch.fx.Node) or isinstance(hi, torch.fx.Node):  # tensor bounds
        y = x
        if lo is not None:
            y = ctx.em.binary("maximum", y, ctx.value(lo))
        if hi is not None:
            y = ctx.em.binary("minimum", y, ctx.value(hi), hint=node.name)
        return y
    if lo is None and hi is None:
        raise UnsupportedOp("clamp with neither min nor max")
    text = f"kf.clamp %{x.name}"
    if lo is not None:
        text += f" min({_bound_attr(ctx.number(lo), x.type.dtype)})"
    if hi is not None:
        text += f" max({_bound_attr(ctx.number(hi), x.type.dtype)})"
    dtype = x.type.dtype
    if dtype not in FLOATS and any(isinstance(b, float) for b in (lo, hi)):
        dtype = "f32"
    return ctx.em.emit(node.name, f"{text} : {x.type}", x.type.with_dtype(dtype))


@handles("where")
def where(ctx, node):
    cond = ctx.value(node.args[0])
    if cond.type.dtype != "i1":
        cond = ctx.em.binary("ne", cond, ctx.em.scalar(0, cond.type.dtype))
    a, b = node.args[1], node.args[2]
    if isinstance(a, torch.fx.Node) or isinstance(b, torch.fx.Node):
        a, b = operands(ctx, a, b)
    else:  # where(cond, 1.0, 0.0): PyTorch's result dtype from the scalars
        dtype = TORCH_TO_KF[node.meta["val"].dtype]
        a, b = ctx.em.scalar(ctx.number(a), dtype), ctx.em.scalar(ctx.number(b), dtype)
    return ctx.em.where(cond, a, b, hint=node.name)


@handles("_to_copy", "to", "_to_dtype")
def to_copy(ctx, node):
    x = ctx.value(node.args[0])
    dtype = node.kwargs.get("dtype")
    if dtype is None:
        dtype = node.meta["val"].dtype
    if dtype not in TORCH_TO_KF:
        raise UnsupportedOp(f"a cast to {dtype}, which kf does not have")
    return ctx.em.cast(x, TORCH_TO_KF[dtype], hint=node.name)


@handles("logical_not", "bitwise_not")
def logical_not(ctx, node):
    x = ctx.value(node.args[0])
    if ctx.name == "bitwise_not" and x.type.dtype != "i1":
        raise UnsupportedOp("bitwise_not of integers (kf has no bitwise ops)")
    return ctx.em.binary("eq", x, ctx.em.scalar(False if x.type.dtype == "i1" else 0,
                                                 x.type.dtype), hint=node.name)


@handles("logical_and", "bitwise_and", "logical_or", "bitwise_or")
def logical_and_or(ctx, node):
    a, b = ctx.value(node.args[0]), ctx.value(node.args[1])
    if ctx.name.startswith("bitwise") and (a.type.dtype != "i1" or b.type.dtype != "i1"):
        raise UnsupportedOp(f"{ctx.name} of integers (kf has no bitwise ops)")
    # a and b = where(a, b != 0, false); a or b = where(a, true, b != 0)
    a = a if a.type.dtype == "i1" else ctx.em.binary("ne", a, ctx.em.scalar(0, a.type.dtype))
    b = b if b.type.dtype == "i1" else ctx.em.binary("ne", b, ctx.em.scalar(0, b.type.dtype))
    if ctx.name.endswith("and"):
        return ctx.em.where(a, b, ctx.em.scalar(False, "i1"), hint=node.name)
    return ctx.em.where(a, ctx.em.scalar(True, "i1"), b, hint=node.name)
