"""kf's tensor types and its shape and dtype rules, mirrored in Python.

The importer prints operand types (kf infers result types), so it must know
the type kf will infer for every value it emits. These functions follow
dialect/Kf/KfTypeRules.cpp: numpy broadcasting where a dynamic dim (None)
against a static N is N, and torch.result_type where a 0-d tensor only
decides the dtype when it is of a higher category.
"""
from dataclasses import dataclass

import torch

# torch dtype -> kf element type. Anything else is refused by the importer.
TORCH_TO_KF = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float64: "f64", torch.int32: "i32", torch.int64: "i64", torch.bool: "i1",
}
KF_TO_TORCH = {v: k for k, v in TORCH_TO_KF.items()}
FLOATS = ("f16", "bf16", "f32", "f64")
WIDTH = {"i1": 1, "i32": 32, "i64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def category(dtype):
    """bool < integer < float, as c10's combine_categories orders them."""
    return 0 if dtype == "i1" else (2 if dtype in FLOATS else 1)


@dataclass(frozen=True)
class KfType:
    shape: tuple  # ints; None for a dynamic dim ('?')
    dtype: str    # f32, f16, bf16, f64, i32, i64, i1

    @property
    def rank(self):
        return len(self.shape)

    @property
    def is_float(self):
        return self.dtype in FLOATS

    def with_dtype(self, dtype):
        return KfType(self.shape, dtype)

    def __str__(self):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{self.dtype}>"


def promote(a, b):
    """torch.promote_types on kf element types."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        return a if ca > cb else b
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return a if WIDTH[a] >= WIDTH[b] else b


def result_dtype(types):
    """torch.result_type over tensors (KfTypes), 0-d ones weighed apart."""
    dim_result = zero_result = None
    for t in types:
        if t.rank == 0:
            zero_result = promote(zero_result, t.dtype)
        else:
            dim_result = promote(dim_result, t.dtype)
    if dim_result is None:
        return zero_result
    if zero_result is None or category(dim_result) >= category(zero_result):
        return dim_result
    if category(dim_result) == 0 or category(zero_result) == 2:
        return promote(dim_result, zero_result)
    return dim_result


def broadcast(a, b):
    """The broadcast of two shapes, or None where they do not broadcast."""
    rank = max(len(a), len(b))
    out = []
    for i in range(rank):
        da = a[len(a) - rank + i] if i >= rank - len(a) else 1
        db = b[len(b) - rank + i] if i >= rank - len(b) else 1
        if da == db:
            out.append(da)
        elif da == 1:
            out.append(db)
        elif db == 1:
            out.append(da)
        elif da is None:
            out.append(db)
        elif db is None:
            out.append(da)
        else:
            return None
    return tuple(out)


def from_fake(value):
    """The KfType of a FakeTensor from node.meta['val'] (None if kf lacks its dtype)."""
    dtype = TORCH_TO_KF.get(value.dtype)
    if dtype is None:
        return None
    shape = tuple(int(d) if isinstance(d, int) or _is_static(d) else None for d in value.shape)
    return KfType(shape, dtype)


def _is_static(d):
    """A SymInt whose value is a known constant counts as static."""
    try:
        return d.node.is_constant() or isinstance(d.node.maybe_as_int(), int)
    except AttributeError:
        return False


def static_int(d):
    """An int for a static size, None for a symbolic one."""
    if isinstance(d, int):
        return d
    if isinstance(d, torch.SymInt) and _is_static(d):
        return int(d.node.maybe_as_int())
    return None
