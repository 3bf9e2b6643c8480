"""Writes kf ops as MLIR text, tracking the type kf infers for each value."""
import math

import numpy as np
import torch

from .kftypes import FLOATS, WIDTH, KF_TO_TORCH, KfType, broadcast, result_dtype
from .errors import UnsupportedOp


class Value:
    """An SSA value of the emitted function and its kf type."""

    def __init__(self, name, type_):
        self.name = name
        self.type = type_

    def __repr__(self):
        return f"%{self.name}: {self.type}"


# How each elementwise op derives its result dtype (KfOps.td's DtypeRule).
SAME_NO_BOOL = {"neg", "abs", "relu", "floor", "ceil", "round"}
FLOAT_OR_F32 = {"exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos",
                "reciprocal", "exp2", "log1p", "expm1", "erf"}
FLOAT_ONLY = {"gelu", "silu"}
COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"}
NO_BOOL = {"sub", "pow", "remainder", "floor_divide"}

_INF_NAN_HEX = {  # IEEE bit patterns: MLIR has no inf/nan float literal
    "f16": ("0x7C00", "0xFC00", "0x7E00"), "bf16": ("0x7F80", "0xFF80", "0x7FC0"),
    "f32": ("0x7F800000", "0xFF800000", "0x7FC00000"),
    "f64": ("0x7FF0000000000000", "0xFFF0000000000000", "0x7FF8000000000000"),
}


def float_literal(v, dtype):
    """A float MLIR parses back exactly in `dtype` (v rounded to it first)."""
    v = float(torch.tensor(v, dtype=KF_TO_TORCH[dtype]).double())
    if math.isnan(v):
        return _INF_NAN_HEX[dtype][2]
    if math.isinf(v):
        return _INF_NAN_HEX[dtype][0 if v > 0 else 1]
    # The shortest text that reads back as the same value of that width
    # (MLIR rounds a decimal literal correctly to the element type).
    text = {"f32": lambda: str(np.float32(v)), "f16": lambda: str(np.float16(v))}.get(
        dtype, lambda: repr(v))()
    if "." not in text and "e" in text:
        text = text.replace("e", ".0e")
    elif "." not in text:
        text += ".0"
    return text


def scalar_literal(v, dtype):
    if dtype == "i1":
        return "true" if v else "false"
    if dtype in FLOATS:
        return float_literal(v, dtype)
    return str(int(v))


def dense_literal(array, dtype):
    """dense<...> for a numpy array: a nested list when small (readable),
    raw little-endian hex when large (exact and compact)."""
    flat = array.reshape(-1)
    if flat.size and (flat == flat[0]).all() and not (dtype in FLOATS and np.isnan(flat[0])):
        return f"dense<{scalar_literal(flat[0].item(), dtype)}>"
    if flat.size <= 16 or dtype == "i1":
        def nest(a):
            if a.ndim == 0:
                return scalar_literal(a.item(), dtype)
            return "[" + ", ".join(nest(x) for x in a) + "]"
        return f"dense<{nest(array)}>"
    if dtype == "bf16":
        raw = torch.from_numpy(np.ascontiguousarray(array, dtype=np.float32)) \
            .to(torch.bfloat16).view(torch.int16).numpy().astype("<i2").tobytes()
    else:
        np_dtype = {"f16": "<f2", "f32": "<f4", "f64": "<f8", "i32": "<i4", "i64": "<i8"}[dtype]
        raw = np.ascontiguousarray(array).astype(np_dtype).tobytes()
    return f'dense<"0x{raw.hex().upper()}">'


class Emitter:
    """Appends kf ops to a function body; each helper returns the new Value."""

    def __init__(self):
        self.lines = []
        self.names = set()
        self.scalars = {}  # (repr, dtype) -> Value: each scalar constant once

    def annotate(self, since, note):
        """Puts `note` (the user's source line) on the last op written since
        line `since`: the op that computes the aten node's result."""
        if note and len(self.lines) > since:
            self.lines[-1] += f"  // {note}"

    def fresh(self, hint):
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in hint) or "v"
        if base[0].isdigit():
            base = "v" + base
        name, n = base, 0
        while name in self.names:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name

    def emit(self, hint, text, type_):
        v = Value(self.fresh(hint), type_)
        self.lines.append(f"  %{v.name} = {text}")
        return v

    # -- constants and casts ------------------------------------------------
    def constant(self, hint, value, dtype, shape=()):
        array = np.asarray(value)
        if array.shape != tuple(shape):
            array = np.broadcast_to(array, shape)
        t = KfType(tuple(shape), dtype)
        return self.emit(hint, f"kf.constant {dense_literal(array, dtype)} : {t}", t)

    def scalar(self, value, dtype, hint="cst"):
        if isinstance(value, bool):
            pass
        elif dtype not in FLOATS and dtype != "i1":
            if not float(value).is_integer():
                raise UnsupportedOp(f"the integer constant {value!r} is not an integer")
            bits = WIDTH[dtype]
            if not -(1 << (bits - 1)) <= int(value) < (1 << (bits - 1)):
                raise UnsupportedOp(f"the constant {value} does not fit {dtype}")
        key = (repr(value), type(value).__name__, dtype)
        if key not in self.scalars:
            self.scalars[key] = self.constant(hint, value, dtype)
        return self.scalars[key]

    def cast(self, x, dtype, hint=None):
        if x.type.dtype == dtype:
            return x
        t = x.type.with_dtype(dtype)
        return self.emit(hint or x.name + "_" + dtype, f"kf.cast %{x.name} : {x.type} to {dtype}", t)

    # -- elementwise ----------------------------------------------------------
    def unary(self, op, x, hint=None):
        dtype = x.type.dtype
        if op in FLOAT_OR_F32 and dtype not in FLOATS:
            dtype = "f32"
        elif op in FLOAT_ONLY and dtype not in FLOATS:
            raise UnsupportedOp(f"kf.{op} takes floats, got {dtype}")
        elif op in SAME_NO_BOOL and dtype == "i1":
            raise UnsupportedOp(f"kf.{op} does not take bool")
        return self.emit(hint or op, f"kf.{op} %{x.name} : {x.type}", x.type.with_dtype(dtype))

    def binary(self, op, a, b, hint=None):
        shape = broadcast(a.type.shape, b.type.shape)
        if shape is None:
            raise UnsupportedOp(f"shapes {a.type} and {b.type} do not broadcast")
        dtype = result_dtype([a.type, b.type])
        if op == "div" and dtype not in FLOATS:
            dtype = "f32"
        elif op in COMPARE:
            dtype = "i1"
        elif op in NO_BOOL and dtype == "i1":
            raise UnsupportedOp(f"kf.{op} does not take bool operands")
        return self.emit(hint or op, f"kf.{op} %{a.name}, %{b.name} : {a.type}, {b.type}",
                         KfType(shape, dtype))

    def where(self, cond, a, b, hint="where"):
        joined = broadcast(cond.type.shape, a.type.shape)
        shape = broadcast(joined, b.type.shape) if joined is not None else None
        if shape is None:
            raise UnsupportedOp(f"where's operands {cond.type}, {a.type}, {b.type} do not broadcast")
        t = KfType(shape, result_dtype([a.type, b.type]))
        return self.emit(hint, f"kf.where %{cond.name}, %{a.name}, %{b.name} : "
                               f"{cond.type}, {a.type}, {b.type}", t)

    # -- views ------------------------------------------------------------------
    def reshape(self, x, shape, hint="reshape"):
        """shape: ints, at most one -1 (the dynamic or inferred dim)."""
        shape = list(shape)
        if shape.count(-1) > 1:
            raise UnsupportedOp("a reshape with more than one dynamic dim")
        if tuple(shape) == x.type.shape:
            return x
        known = [d for d in x.type.shape]
        out = []
        if -1 in shape:
            rest = math.prod(d for d in shape if d != -1)
            if None in known:
                inferred = None
            else:
                total = math.prod(known)
                inferred = total // rest if rest else 0
            out = [inferred if d == -1 else d for d in shape]
        else:
            out = shape
        t = KfType(tuple(out), x.type.dtype)
        if t.shape == x.type.shape:
            return x
        return self.emit(hint, f"kf.reshape %{x.name} [{', '.join(map(str, shape))}] : {x.type}", t)

    def transpose(self, x, perm, hint="transpose"):
        perm = [p % x.type.rank for p in perm] if x.type.rank else []
        if perm == list(range(x.type.rank)):
            return x
        t = KfType(tuple(x.type.shape[p] for p in perm), x.type.dtype)
        return self.emit(hint, f"kf.transpose %{x.name} [{', '.join(map(str, perm))}] : {x.type}", t)

    def matmul(self, a, b, hint="matmul"):
        if a.type.rank < 2 or b.type.rank < 2:
            raise UnsupportedOp("kf.matmul takes operands of rank 2 or more")
        batch = broadcast(a.type.shape[:-2], b.type.shape[:-2])
        if batch is None:
            raise UnsupportedOp(f"matmul batch dims {a.type} and {b.type} do not broadcast")
        t = KfType(batch + (a.type.shape[-2], b.type.shape[-1]),
                   result_dtype([a.type, b.type]))
        return self.emit(hint, f"kf.matmul %{a.name}, %{b.name} : {a.type}, {b.type}", t)

    # -- reductions -------------------------------------------------------------
    def reduce(self, op, x, dims, keepdim, hint=None, extra=""):
        """kf.sum/mean/max/min/var/std; dims None or [] reduce every dim."""
        rank = x.type.rank
        reduced = sorted({d % rank for d in dims}) if dims and rank else list(range(rank))
        shape = []
        for i, d in enumerate(x.type.shape):
            if i not in reduced:
                shape.append(d)
            elif keepdim:
                shape.append(1)
        dtype = x.type.dtype
        if op == "sum" and dtype not in FLOATS:
            dtype = "i64"
        if op in ("mean", "var", "std") and dtype not in FLOATS:
            raise UnsupportedOp(f"kf.{op} takes floats, got {dtype}")
        text = f"kf.{op} %{x.name}"
        if dims and rank:
            text += f" dims [{', '.join(str(d % rank) for d in dims)}]"
        text += extra + (" keepdim" if keepdim else "")
        return self.emit(hint or op, f"{text} : {x.type}", KfType(tuple(shape), dtype))
