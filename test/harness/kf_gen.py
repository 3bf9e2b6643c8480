"""Random kf programs, deterministic from a random.Random (kf_fuzz.py).

A program is 1 to 40 ops over the op set: elementwise ops with broadcasting
and mixed dtypes, comparisons, where, casts, reductions, reshape, transpose,
broadcast_to, matmul, softmax, log_softmax and layer_norm, with several
outputs and diamonds; and the shapes of issue 12 (fusion breadth): slices
(negative and clamped bounds, steps 1 to 3, sometimes empty), permutes
feeding reductions and elementwise ops (`x + x.t()`), kf.contiguous,
siblings (two or three ops reading one value), reduction chains
(`x.sum(1).sum(0)`), unit-dim reshapes next to reductions
(`x - x.sum(-1).reshape(..., 1)`), small reductions (a last dim of 2 to 8,
pairwise distances), and the new ops of kf_gen_ops.py when it is there. kf's type rules are mirrored here (dtype promotion as
torch.result_type, broadcasting as KfTypeRules.cpp), so a program kfuse
refuses is itself a finding.

Dynamic dims: in a dynamic program some argument dims are `?`. Every value
has a concrete shape (the sizes it has when run) and a type shape (None for
`?`). kf never broadcasts a dynamic dim (it asserts at run time that the
size matches), so only a static 1 stretches; the generator keeps to that
and the harness passes the concrete sizes (`dims`, in the order of the `?`
in the argument list: kf's size symbols d0, d1, ...).
"""

import os
import math
import re

FLOATS = ["f32", "f16", "bf16", "f64"]
# The kinds kf_fuzz.py --kinds may add to the draw.
EXTRA_KINDS = ["multi_reduction", "permuted_rows", "matmul_chain", "transposed_epilogue",
               "neighbour_distance", "cumsum"]
INTS = ["i32", "i64"]


def category(t):
    return 0 if t == "i1" else 1 if t in INTS else 2


def width(t):
    return {"i1": 1, "i32": 32, "i64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}[t]


def promote(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    if category(a) != category(b):
        return a if category(a) > category(b) else b
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return a if width(a) >= width(b) else b


def result_type(operands):
    """torch.result_type over values, 0-d ones weaker."""
    dim = zero = None
    for v in operands:
        if v.shape:
            dim = promote(dim, v.dtype)
        else:
            zero = promote(zero, v.dtype)
    if dim is None:
        return zero
    if zero is None or category(dim) >= category(zero):
        return dim
    if category(dim) == 0 or category(zero) == 2:
        return promote(dim, zero)
    return dim


class Value:
    def __init__(self, name, shape, dtype, tshape=None):
        self.name, self.shape, self.dtype = name, list(shape), dtype
        self.tshape = list(shape) if tshape is None else list(tshape)

    def type(self):
        return ttype(self.tshape, self.dtype)


def ttype(tshape, t):
    return "tensor<" + "".join(("?" if d is None else str(d)) + "x" for d in tshape) + t + ">"


def broadcast(*vals):
    """(concrete shape, type shape) of broadcasting vals, or None when they
    do not broadcast when run (a dynamic dim never stretches)."""
    rank = max(len(v.shape) for v in vals)
    shape, tshape = [], []
    for i in range(rank):
        dims = [(v.shape[len(v.shape) - rank + i], v.tshape[len(v.shape) - rank + i])
                if len(v.shape) - rank + i >= 0 else (1, 1) for v in vals]
        size = max(c for c, _ in dims)
        if any(c != size and (c != 1 or t is None) for c, t in dims):
            return None
        t = dims[0][1]
        for _, u in dims[1:]:  # KfTypeRules.cpp broadcastShapes
            if t == u or u == 1:
                continue
            t = u if t == 1 or t is None else t
        shape.append(size)
        tshape.append(t)
    return shape, tshape


try:  # the new ops of issue 12 (kf_gen_ops.py), when present
    from kf_gen_ops import NEW_KINDS, POINTWISE_NEW_KINDS, NewOps
except ModuleNotFoundError as e:
    if e.name != "kf_gen_ops":
        raise
    NEW_KINDS, POINTWISE_NEW_KINDS = [], []

    class NewOps:
        pass

# Python's "to the end" in a kf.slice (INT64_MAX).
TO_END = 9223372036854775807

# Ops no GPU mapping serves, even alone (kf_fuzz.py --ops-alone: each op
# of 1,000 generated programs in a function of its own through kfuse-opt
# --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings). None since
# issue 15 mapped the batched matmul (batch as grid z); a program with one
# would be exempt from the mapping invariant (Program.gpu_unmappable).
NO_GPU_MAPPING = []

# Issue 27's reductions read back transposed (op_read_back), for campaigns
# on fresh seeds: KF_GEN_READ_BACK=1. Off by default so that the programs of
# the seeds the test suite pins stay the ones it was checked on.
READ_BACK = os.environ.get("KF_GEN_READ_BACK") == "1"


class Program(NewOps):
    def __init__(self, rng, name, nops, pointwise_only=False, dynamic=0.3, extra_kinds=()):
        self.rng, self.name = rng, name
        self.pointwise_only = pointwise_only
        # Op kinds added to the draw (EXTRA_KINDS; kf_fuzz.py --kinds): the
        # default draw, and so every seed's programs, stay as they were.
        self.extra_kinds = list(extra_kinds)
        self.dynamic = rng.random() < dynamic
        self.args, self.vals, self.lines = [], [], []
        # Ops of NO_GPU_MAPPING this program has (their lines).
        self.gpu_unmappable = []
        self.views = set()  # names of the values that are views (transpose, slice)
        for _ in range(rng.randint(1, 3)):
            self.new_arg()
        for _ in range(nops):
            self.add_op()
        # Several outputs: the last 1 to 3 values made (chosen once, so the
        # program's text is the same however often it is printed).
        produced = [v for v in self.vals if v.name.startswith("%v")]
        k = min(len(produced), rng.randint(1, 3))
        self.outputs = produced[-k:] if produced else [self.args[0]]

    def dims(self, args=None):
        """The sizes of the `?` argument dims, in order (symbols d0, d1, ...)."""
        return [c for v in (self.args if args is None else args)
                for c, t in zip(v.shape, v.tshape) if t is None]

    def new_arg(self, shape=None, dtype=None, static=False, static_ones=False):
        rng = self.rng
        if shape is None:
            shape = [rng.choice([1, 2, 3, 4, 5, 8]) for _ in range(rng.choice([0, 1, 1, 2, 2, 2, 3]))]
        if dtype is None:
            dtype = rng.choice(["f32"] * 6 + ["f16", "bf16", "f64", "i32", "i64", "i1"])
        tshape = [None if self.dynamic and not static and not (static_ones and d == 1)
                  and rng.random() < 0.5 else d for d in shape]
        v = Value(f"%arg{len(self.args)}", shape, dtype, tshape)
        self.args.append(v)
        self.vals.append(v)
        return v

    def emit(self, text, shape, dtype, tshape=None):
        v = Value(f"%v{len(self.lines)}", shape, dtype, tshape)
        self.lines.append(f"  {v.name} = {text}")
        self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True, empty=False):
        # Later values are likelier: chains and diamonds over fresh results.
        # A value of no elements (an empty slice) only where empty says so:
        # a reshape cannot infer a -1 from it, kf.max/kf.min refuse it.
        cands = [v for v in self.vals if pred(v) and (empty or 0 not in v.shape)]
        if not cands:
            return None
        return cands[min(len(cands) - 1, int(len(cands) * self.rng.random() ** 0.5))]

    def floaty(self, v):
        """v as a float tensor (a cast when it is not)."""
        if v.dtype in FLOATS:
            return v
        return self.emit(f"kf.cast {v.name} : {v.type()} to f32", v.shape, "f32", v.tshape)

    def add_op(self):
        rng = self.rng
        kinds = ["unary"] * 5 + ["binary"] * 6 + ["compare", "where", "cast", "reshape",
                                                  "broadcast"]
        if not self.pointwise_only:
            kinds += ["reduce", "reduce", "transpose", "matmul", "softmax", "layer_norm"]
        # Issue 12's shapes and ops.
        kinds += ["slice", "siblings"] + POINTWISE_NEW_KINDS
        if not self.pointwise_only:
            kinds += ["permute_use", "contiguous", "reduction_chain", "unit_reshape",
                      "small_reduction"] + (["read_back"] if READ_BACK else []) + [k for k in NEW_KINDS if k not in POINTWISE_NEW_KINDS]
            kinds += self.extra_kinds * 4
        kind = rng.choice(kinds)
        getattr(self, "op_" + kind)()

    def op_unary(self, x=None):
        x = x or self.pick()
        ops = ["exp", "tanh", "sigmoid", "sin", "cos", "sqrt", "log", "rsqrt", "reciprocal"]
        if x.dtype != "i1":
            ops += ["neg", "abs", "relu"] * 2
        if x.dtype in FLOATS:
            ops += ["gelu", "silu"]
        op = self.rng.choice(ops)
        t = x.dtype if op in ("neg", "abs", "relu", "gelu", "silu") or x.dtype in FLOATS else "f32"
        return self.emit(f"kf.{op} {x.name} : {x.type()}", x.shape, t, x.tshape)

    def partner(self, x):
        y = self.pick(lambda v: v is not x and broadcast(x, v) is not None)
        if y is None or self.rng.random() < 0.25:
            # A fresh argument shaped like a suffix of x (a bias), or a scalar;
            # its 1s are static (a dynamic dim never stretches).
            k = self.rng.randint(0, len(x.shape))
            shape = [d if self.rng.random() < 0.8 else 1 for d in x.shape[len(x.shape) - k:]]
            y = self.new_arg(shape, static_ones=True)
        return y

    def op_binary(self, x=None, y=None):
        x = x or self.pick()
        y = y or self.partner(x)
        shape, tshape = broadcast(x, y)
        t = result_type([x, y])
        ops = ["add", "mul", "maximum", "minimum", "div"]
        if t != "i1":
            ops += ["sub", "sub", "pow"]
        op = self.rng.choice(ops)
        rt = "f32" if op == "div" and t not in FLOATS else t
        return self.emit(f"kf.{op} {x.name}, {y.name} : {x.type()}, {y.type()}", shape, rt, tshape)

    def op_compare(self):
        x = self.pick()
        y = self.partner(x)
        op = self.rng.choice(["eq", "ne", "lt", "le", "gt", "ge"])
        shape, tshape = broadcast(x, y)
        self.emit(f"kf.{op} {x.name}, {y.name} : {x.type()}, {y.type()}", shape, "i1", tshape)

    def op_where(self):
        c = self.pick(lambda v: v.dtype == "i1")
        if c is None:
            return self.op_compare()
        a = self.partner(c)
        b = self.partner(a)
        both = broadcast(c, a, b)
        if both is None:
            return
        t = result_type([a, b])
        self.emit(f"kf.where {c.name}, {a.name}, {b.name} : {c.type()}, {a.type()}, {b.type()}",
                  both[0], t, both[1])

    def op_cast(self):
        # float -> int is undefined for NaN and out-of-range values: left out.
        x = self.pick()
        targets = ["i1"] + (FLOATS if x.dtype in FLOATS else FLOATS + INTS)
        t = self.rng.choice(targets)
        self.emit(f"kf.cast {x.name} : {x.type()} to {t}", x.shape, t, x.tshape)

    def op_reduce(self, x=None, op=None, dims=None, keep=None):
        x = x or self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        op = op or self.rng.choice(["sum", "max", "min", "mean"])
        if op == "mean":
            x = self.floaty(x)
        r = len(x.shape)
        if dims is None:
            dims = sorted(self.rng.sample(range(r), self.rng.randint(1, r)))
        if keep is None:
            keep = self.rng.random() < 0.5

        def reduced(s):
            return [1 if i in dims else d for i, d in enumerate(s)] if keep else \
                [d for i, d in enumerate(s) if i not in dims]
        # Every size here is at least 1 (arguments 1 to 8, reshapes factor
        # a non-empty size): kf.max/kf.min over an empty static dim, which
        # the verifier refuses, is never generated.
        t = "i64" if op == "sum" and x.dtype not in FLOATS else x.dtype
        return self.emit(f"kf.{op} {x.name} dims [{', '.join(map(str, dims))}]{' keepdim' if keep else ''} : {x.type()}",
                  reduced(x.shape), t, reduced(x.tshape))

    def op_reshape(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        n = 1
        for d in x.shape:
            n *= d
        f = self.rng.choice([d for d in range(1, n + 1) if n % d == 0])
        shape = self.rng.choice([[n], [f, n // f], [n // f, 1, f]])
        spec = list(shape)
        inferred = self.rng.randrange(len(spec))
        spec[inferred] = -1
        # kf infers the -1 at compile time only from a static input.
        tshape = list(shape)
        if None in x.tshape:
            tshape[inferred] = None
        self.emit(f"kf.reshape {x.name} [{', '.join(map(str, spec))}] : {x.type()}", shape, x.dtype,
                  tshape)

    def op_transpose(self):
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return
        perm = list(range(len(x.shape)))
        self.rng.shuffle(perm)
        v = self.emit(f"kf.transpose {x.name} [{', '.join(map(str, perm))}] : {x.type()}",
                      [x.shape[p] for p in perm], x.dtype, [x.tshape[p] for p in perm])
        self.views.add(v.name)
        return v

    def op_broadcast(self):
        x = self.pick(lambda v: len(v.shape) <= 2)
        if x is None:
            return
        lead = self.rng.choice([2, 3])
        spec, shape, tshape = [lead], [lead], [lead]
        for c, t in zip(x.shape, x.tshape):
            if t is None:  # a dynamic dim is kept (-1) or named as its size
                keep = self.rng.random() < 0.5
                spec.append(-1 if keep else c)
                tshape.append(None if keep else c)
                shape.append(c)
                continue
            d = self.rng.choice([2, 3]) if c == 1 else c
            spec.append(d)
            shape.append(d)
            tshape.append(d)
        self.emit(f"kf.broadcast_to {x.name} [{', '.join(map(str, spec))}] : {x.type()}",
                  shape, x.dtype, tshape)

    def op_matmul(self):
        a = self.pick(lambda v: len(v.shape) >= 2 and v.dtype != "i1")
        if a is None:
            return
        n = self.rng.choice([1, 2, 3, 4])
        b = self.new_arg([a.shape[-1], n], self.rng.choice(["f32", a.dtype]))
        t = result_type([a, b])
        v = self.emit(f"kf.matmul {a.name}, {b.name} : {a.type()}, {b.type()}",
                      a.shape[:-1] + [n], t, a.tshape[:-1] + [b.tshape[-1]])

    def op_softmax(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        op = self.rng.choice(["softmax", "log_softmax"])
        d = self.rng.randrange(-len(x.shape), len(x.shape))
        self.emit(f"kf.{op} {x.name} dim {d} : {x.type()}", x.shape, x.dtype, x.tshape)

    def op_layer_norm(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        norm = x.shape[-self.rng.randint(1, len(x.shape)):]
        extra = ""
        for param in ("weight", "bias"):
            if self.rng.random() < 0.5:
                p = self.new_arg(list(norm), x.dtype, static=True)
                extra += f" {param} {p.name} : {p.type()}"
        self.emit(f"kf.layer_norm {x.name}{extra} normalized_shape [{', '.join(map(str, norm))}] eps 1.0e-05 : {x.type()}",
                  x.shape, x.dtype, x.tshape)

    # --- Issue 12's shapes: views, siblings, reduction chains, unit-dim
    # reshapes and small reductions (the programs its fusion rules serve) ---

    def op_slice(self, x=None):
        """x[start:end:step, ...]: negative and clamped bounds, steps 1 to 3,
        a dynamic dim only whole; empty now and then (then often summed:
        the sum of nothing is 0)."""
        rng = self.rng
        x = x or self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        starts, ends, steps, shape, tshape = [], [], [], [], []
        for c, t in zip(x.shape, x.tshape):
            start, end, step = 0, TO_END, 1
            if t is not None and rng.random() < 0.7:
                start = rng.choice([0, rng.randint(-c - 2, c + 2)])
                end = rng.choice([TO_END, c, rng.randint(-c - 2, c + 2)])
                step = rng.choice([1, 1, 2, 3])
                if not range(*slice(start, end, step).indices(c)) and rng.random() < 0.85:
                    start, end = 0, TO_END  # empty only sometimes
            n = len(range(*slice(start, end, step).indices(c)))
            starts.append(start)
            ends.append(end)
            steps.append(step)
            shape.append(n)
            tshape.append(None if t is None else n)
        v = self.emit(f"kf.slice {x.name} starts [{', '.join(map(str, starts))}] ends "
                      f"[{', '.join(map(str, ends))}] steps [{', '.join(map(str, steps))}]"
                      f" : {x.type()}", shape, x.dtype, tshape)
        self.views.add(v.name)
        if 0 in shape and rng.random() < 0.5:
            self.op_reduce(v, "sum", list(range(len(shape))), rng.random() < 0.5)
        return v

    def op_permute_use(self):
        """A permute read by a reduction or an elementwise op; `x + x.t()`
        when the permute has its input's shape."""
        rng = self.rng
        t = self.op_transpose()
        if t is None:
            return
        x = next(v for v in self.vals if v.name == self.lines[-1].split()[3])
        how = rng.choice(["reduce", "unary", "binary", "binary"])
        if how == "reduce":
            return self.op_reduce(t)
        if how == "unary":
            return self.op_unary(t)
        same = broadcast(t, x) is not None and rng.random() < 0.7
        return self.op_binary(t, x if same else None)

    def op_contiguous(self):
        """kf.contiguous of a view (a transpose or slice) when there is one."""
        x = self.pick(lambda v: v.name in self.views) or self.pick()
        return self.emit(f"kf.contiguous {x.name} : {x.type()}", x.shape, x.dtype, x.tshape)

    def op_siblings(self):
        """Two or three ops reading the same value (elementwise, reductions
        over the same or other dims), sometimes combined afterwards."""
        rng = self.rng
        x = self.pick()
        made = []
        for _ in range(rng.randint(2, 3)):
            how = rng.choice(["unary", "binary"] + (["reduce"] * 2 if x.shape and not
                                                    self.pointwise_only else []))
            v = getattr(self, "op_" + how)(x)
            if v is not None:
                made.append(v)
        if len(made) >= 2 and broadcast(made[0], made[1]) is not None and rng.random() < 0.5:
            self.op_binary(made[0], made[1])

    def pick_rank(self, least):
        """A value of at least `least` dims and its rank (None, 0: none)."""
        x = self.pick(lambda v: len(v.shape) >= least)
        return x, (len(x.shape) if x is not None else 0)

    def op_reduction_chain(self):
        """A reduction over the trailing dims, 0 to 2 elementwise ops, then a
        full reduction of the result (`x.sum(1).sum(0)`)."""
        rng = self.rng
        x, r = self.pick_rank(2)
        if x is None:
            return
        k = rng.randint(1, r - 1)
        v = self.op_reduce(x, rng.choice(["sum", "sum", "max", "min", "mean"]),
                           list(range(r - k, r)), rng.random() < 0.3)
        for _ in range(rng.choice([0, 0, 1, 2])):
            v = self.op_unary(v) if rng.random() < 0.6 else self.op_binary(v)
        return self.op_reduce(v, rng.choice(["sum", "sum", "max", "min", "mean"]),
                              list(range(len(v.shape))), rng.random() < 0.3)

    # --- Issue 26's reduction shapes (EXTRA_KINDS: drawn only when asked).
    def op_multi_reduction(self):
        """Reductions of one value over its trailing dims and over its
        leading dims (`x.sum(1)` and `x.max(0)`), each sometimes followed by
        an elementwise op over its result."""
        rng = self.rng
        x, r = self.pick_rank(2)
        if x is None:
            return
        k = rng.randint(1, r - 1)
        for dims in [list(range(k, r))] * rng.randint(1, 2) + [list(range(k))] * rng.randint(1, 2):
            v = self.op_reduce(x, rng.choice(["sum", "max", "min", "mean"]), dims,
                               rng.random() < 0.3)
            if v is not None and rng.random() < 0.4:
                self.op_unary(v) if rng.random() < 0.5 else self.op_binary(v)

    def op_permuted_rows(self):
        """A reduction over the trailing dims whose values an elementwise op
        reads at a permuted place (`x.sum(2).t().exp()`)."""
        rng = self.rng
        x, r = self.pick_rank(3)
        if x is None:
            return
        k = rng.randint(1, r - 2)
        v = self.op_reduce(x, rng.choice(["sum", "max", "min", "mean"]), list(range(r - k, r)),
                           False)
        if v is None:
            return
        return self.op_unary(self.transpose_of(v))

    def transpose_of(self, v):
        """A transpose of v in a random order other than its own."""
        perm = list(range(len(v.shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        t = self.emit(f"kf.transpose {v.name} [{', '.join(map(str, perm))}] : {v.type()}",
                      [v.shape[p] for p in perm], v.dtype, [v.tshape[p] for p in perm])
        self.views.add(t.name)
        return t

    def op_transposed_epilogue(self):
        """The transposed-epilogue rule's shapes: a row reduction's rows x
        columns read transposed after it (`x.softmax(-1).t()` or
        `x - x.max(-1)` transposed, then an elementwise op or kf.contiguous),
        or a transposed elementwise op of the reduction's own input beside
        it (`x.sum(-1)` and `x.t().exp()`)."""
        rng = self.rng
        x, r = self.pick_rank(2)
        if x is None:
            return
        x = self.floaty(x)
        if rng.random() < 0.3:
            self.op_reduce(x, rng.choice(["sum", "max", "min", "mean"]), [r - 1], False)
            v = x
        elif rng.random() < 0.5:
            op = rng.choice(["softmax", "log_softmax"])
            v = self.emit(f"kf.{op} {x.name} dim {r - 1} : {x.type()}", x.shape, x.dtype, x.tshape)
        else:
            m = self.op_reduce(x, rng.choice(["max", "mean"]), [r - 1], True)
            if m is None:
                return
            v = self.emit(f"kf.sub {x.name}, {m.name} : {x.type()}, {m.type()}", x.shape,
                          x.dtype, x.tshape)
        t = self.transpose_of(v)
        if rng.random() < 0.3:
            return self.emit(f"kf.contiguous {t.name} : {t.type()}", t.shape, t.dtype, t.tshape)
        return self.op_unary(t)

    def op_neighbour_distance(self):
        """A small reduction a row reduction reads in place (the
        reduction-prologue rule's small-reduction join): the distances of
        all pairs of N points and M others in D dims (D at most 8),
        `(x[:, None] - y[None]) ** 2` or its abs summed (or maxed) over the
        D coordinates, then a reduction over the M others (M over 8, so a
        row reduction), a softmax over them, or an elementwise op first."""
        rng = self.rng
        d = rng.choice([1, 2, 3, 4, 8])
        x = self.new_arg([rng.choice([3, 9, 16]), d], "f32")
        y = x if rng.random() < 0.4 else self.new_arg([rng.choice([9, 12, 33]), d], "f32")
        n, m = x.shape[0], y.shape[0]
        # kf.reshape spells sizes; a dynamic dim reshapes through -1.
        rows = n if x.tshape[0] is not None else -1
        cols = m if y.tshape[0] is not None else -1
        a = self.emit(f"kf.reshape {x.name} [{rows}, 1, {d}] : {x.type()}", [n, 1, d], "f32",
                      [x.tshape[0], 1, d])
        b = self.emit(f"kf.reshape {y.name} [1, {cols}, {d}] : {y.type()}", [1, m, d], "f32",
                      [1, y.tshape[0], d])
        t3 = [x.tshape[0], y.tshape[0], d]
        diff = self.emit(f"kf.sub {a.name}, {b.name} : {a.type()}, {b.type()}", [n, m, d], "f32", t3)
        if rng.random() < 0.6:
            q = self.emit(f"kf.mul {diff.name}, {diff.name} : {diff.type()}, {diff.type()}",
                          [n, m, d], "f32", t3)
        else:
            q = self.emit(f"kf.abs {diff.name} : {diff.type()}", [n, m, d], "f32", t3)
        s = self.op_reduce(q, rng.choice(["sum", "sum", "max"]), [2], False)
        if s is None:
            return
        if rng.random() < 0.3:
            s = self.op_unary(s)
        if rng.random() < 0.3:
            return self.emit(f"kf.softmax {s.name} dim 1 : {s.type()}", s.shape, s.dtype, s.tshape)
        return self.op_reduce(s, rng.choice(["sum", "max", "min", "mean"]), [1],
                              rng.random() < 0.3)

    def op_matmul_chain(self):
        """Matmuls of one output space summed (`a @ b + c @ d`, sometimes a
        third product, sometimes an elementwise op after): the matmul-chain
        rule's shape. c is a new argument of a's leading dims (static ones
        only: a dynamic dim of another tensor is another size symbol) or a
        itself."""
        rng = self.rng
        a = self.pick(lambda v: len(v.shape) >= 2 and v.dtype not in ("i1",))
        if a is None:
            return
        n = rng.choice([1, 2, 3, 5, 8])
        bt = rng.choice(["f32", a.dtype])
        products = []
        for i in range(rng.choice([2, 2, 3])):
            if i == 0 or rng.random() < 0.3 or None in a.tshape[:-1]:
                x = a
            else:
                x = self.new_arg(a.shape[:-1] + [rng.choice([1, 2, 4, 7])], a.dtype, static=True)
            w = self.new_arg([x.shape[-1], n], bt, static=True)
            products.append(self.emit(f"kf.matmul {x.name}, {w.name} : {x.type()}, {w.type()}",
                                      x.shape[:-1] + [n], result_type([x, w]),
                                      x.tshape[:-1] + [w.tshape[-1]]))
        v = products[0]
        for p in products[1:]:
            v = self.emit(f"kf.add {v.name}, {p.name} : {v.type()}, {p.type()}", v.shape,
                          v.dtype, v.tshape)
        if rng.random() < 0.5:
            return self.op_unary(v) if rng.random() < 0.5 else self.op_binary(v)
        return v

    def op_unit_reshape(self):
        """A reduction over the last dim, reshaped to add the unit dim back
        (`x.sum(-1)[..., None]`, or keepdim then the unit dim dropped and
        added again), read by an op that broadcasts it over its input."""
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        r = self.op_reduce(x, rng.choice(["sum", "mean", "max", "min"]), [len(x.shape) - 1],
                           rng.random() < 0.3)
        if len(r.shape) == len(x.shape):  # keepdim: drop the unit dim first
            r = self.unit_reshape(r, r.shape[:-1], r.tshape[:-1])
            if r is None:
                return
        r = self.unit_reshape(r, r.shape + [1], r.tshape + [1])
        if r is None or broadcast(x, r) is None:
            return
        return self.op_binary(x, r)

    def unit_reshape(self, x, shape, tshape):
        """kf.reshape of x to shape (only unit dims added or dropped); None
        when its dynamic dims cannot be spelled (more than one: kf infers
        one -1)."""
        dynamic = [i for i, t in enumerate(tshape) if t is None]
        if len(dynamic) > 1:
            return None
        spec = list(shape)
        if dynamic:
            spec[dynamic[0]] = -1
        elif spec and self.rng.random() < 0.5:
            spec[self.rng.randrange(len(spec))] = -1
        return self.emit(f"kf.reshape {x.name} [{', '.join(map(str, spec))}] : {x.type()}",
                         shape, x.dtype, tshape)

    def op_read_back(self):
        """Issue 27: a reduction of a square value read back transposed
        (`s + s.T` of `s = x.sum(1, keepdim=True)`, `x + s.T` of a column
        sum), perhaps through elementwise ops: element [i, j] needs row j's
        result, which a row kernel computes in another block. Square on
        purpose: only there do the iteration spaces agree, so that fusion
        is tempted (4x7 never was)."""
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) == 2 and v.shape[0] == v.shape[1]
                      and v.dtype in FLOATS)
        if x is None or rng.random() < 0.5:
            n = rng.choice([2, 3, 4, 5, 8])
            x = self.new_arg([n, n], rng.choice(["f32", "f32", "f16", "f64"]),
                             static=rng.random() < 0.7)
        if rng.random() < 0.4:
            x = self.op_unary(x)
        s = self.op_reduce(x, rng.choice(["sum", "sum", "max", "min", "mean"]),
                           [rng.choice([0, 1])], True)
        for _ in range(rng.choice([0, 0, 1])):
            s = self.op_unary(s)
        t = self.emit(f"kf.transpose {s.name} [1, 0] : {s.type()}",
                      s.shape[::-1], s.dtype, s.tshape[::-1])
        self.views.add(t.name)
        return self.op_binary(t, s if rng.random() < 0.5 else x)

    def op_small_reduction(self):
        """A reduction over a last dim of 2 to 8: pairwise squared distances
        (`((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)`), or a value's own
        short last dim reduced."""
        rng = self.rng
        x = self.pick(lambda v: v.shape and 2 <= v.shape[-1] <= 8 and v.tshape[-1] is not None)
        if x is not None and rng.random() < 0.5:
            return self.op_reduce(x, rng.choice(["sum", "max", "min", "mean"]),
                                  [len(x.shape) - 1], rng.random() < 0.5)
        k = rng.randint(2, 8)
        t = rng.choice(["f32", "f32", "f16", "f64"])
        a = self.new_arg([rng.choice([1, 2, 3, 5, 8]), k], t, static=True)
        b = self.new_arg([rng.choice([1, 2, 3, 4, 8]), k], t, static=True)
        ar = self.unit_reshape(a, [a.shape[0], 1, k], [a.shape[0], 1, k])
        br = self.unit_reshape(b, [1, b.shape[0], k], [1, b.shape[0], k])
        d = self.emit(f"kf.sub {ar.name}, {br.name} : {ar.type()}, {br.type()}",
                      [a.shape[0], b.shape[0], k], t)
        sq = self.emit(f"kf.mul {d.name}, {d.name} : {d.type()}, {d.type()}", d.shape, t)
        return self.op_reduce(sq, "sum", [2], False)

    def text(self, lines=None, outputs=None, args=None):
        """The function (with a `// DIMS @name:` line when it has `?` dims)
        and the values it returns."""
        lines = self.lines if lines is None else lines
        if outputs is None:
            outputs = self.outputs
        if args is None:
            args = self.args
        dims = self.dims(args)
        args = ", ".join(f"{v.name}: {v.type()}" for v in args)
        rets = ", ".join(v.type() for v in outputs)
        head = f"// DIMS @{self.name}: {' '.join(map(str, dims))}\n" if dims else ""
        return (head + f"func.func @{self.name}({args}) -> ({rets}) {{\n" + "\n".join(lines) +
                f"\n  return {', '.join(v.name for v in outputs)} : {rets}\n}}\n"), outputs


# --- Half programs against an f32 reference (kf_fuzz.py --half-reference) ---
#
# Every argument is f16 or bf16 (one of them per program) with the harness's
# values, steps of 0.25 in [-4, 4): exact in f16, bf16 and f32, so the same
# program with f32 types (the reference, unfused) sees the same numbers.
# kfuse accumulates half sums, means and matmuls in f32, computes softmax,
# log_softmax and layer_norm in f32, and rounds each op's result once, so
# each op of the half program differs from the f32 one by at most
#   (its inputs' errors, carried through the op) + u * |result|,
# u the unit roundoff: 2^-11 for f16 (11-bit significand), 2^-8 for bf16.
# The generator carries, for every value, a bound B on |value| and a bound
# on that error (absolute, from the B's: valid whatever the signs, no
# cancellation can break it), over ops whose error does not grow wildly:
# data movement, neg/abs/relu (exact), sigmoid, tanh, gelu, silu, exp of
# bounded values, add, sub, mul, maximum, minimum, the reductions, matmul,
# softmax (of inputs with small error), and layer_norm (of exact inputs
# only: its 1/sigma amplifies input error without bound on near-constant
# rows). A result is checked with rtol 2u (its own rounding, with room for
# the f32 evaluations' own last bits) and atol twice the error its inputs
# carry. Accumulating in f16 breaks this at once: adding 4096 f16 ones
# stalls at 2048 (2048 + 1 rounds back to 2048), against 4096 +- 4.
HALF_U = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8}
# Half the spacing of the smallest subnormals: the rounding error of a tiny
# result (f16's subnormals are 2^-24 apart; bf16 has f32's range).
HALF_FLOOR = {"f16": 2.0 ** -25, "bf16": 2.0 ** -134}
# f16's largest finite value is 65504: no value may come near it.
HALF_MAX = {"f16": 2.0 ** 14, "bf16": 2.0 ** 100}
# The f32 evaluations' own error, relative to the bounds (a reduction of n
# terms in a tree or compensated: far below 2^-20 of the sum of |terms|).
F32_NOISE = 2.0 ** -20
HALF_SIZES = [1, 2, 3, 5, 8, 16, 64, 256, 1024]


class HalfProgram(Program):
    def __init__(self, rng, name, nops, dynamic=0.3):
        self.half = rng.choice(["f16", "bf16"])
        self.u = HALF_U[self.half]
        super().__init__(rng, name, nops, False, dynamic)
        # Every value no op reads is returned (the latest 4): a reduction
        # is checked wherever it is in the program.
        used = set(re.findall(r"%(?:v|arg)\d+\b", " ".join(
            line.split(" = ", 1)[1] for line in self.lines)))
        sinks = [v for v in self.vals if v.name.startswith("%v") and v.name not in used]
        if sinks:
            self.outputs = sinks[-4:]

    def new_arg(self, shape=None, dtype=None, static=False, static_ones=False):
        rng = self.rng
        if shape is None:
            shape = []
            for _ in range(rng.choice([1, 1, 2, 2, 2, 3])):
                # at most 4096 elements: long reductions, short runs
                n = 1
                for d in shape:
                    n *= d
                shape.append(rng.choice([d for d in HALF_SIZES if d * n <= 4096]))
        v = super().new_arg(shape, self.half, static, static_ones)
        v.bound, v.prop, v.err = 4.0, 0.0, 0.0
        return v

    def emit_half(self, text, shape, tshape, bound, prop, rounds=True):
        """A value of the program's half type with bound |v| <= bound, whose
        inputs' errors carry into an error <= prop; rounded when rounds.
        None (nothing emitted) when the bound comes near f16's range."""
        if bound > HALF_MAX[self.half]:
            return None
        v = self.emit(text, shape, self.half, tshape)
        v.bound = bound
        v.prop = prop + (F32_NOISE * bound if rounds else 0.0)
        v.err = v.prop + ((self.u * bound + HALF_FLOOR[self.half]) if rounds else 0.0)
        return v

    def add_op(self):
        kind = self.rng.choice(["unary"] * 3 + ["binary"] * 3 + ["reduce"] * 4 + [
            "matmul", "matmul", "softmax", "softmax", "layer_norm", "layer_norm",
            "reshape", "transpose", "broadcast"])
        getattr(self, "half_" + kind)()

    def move(self, op):
        """A data movement op of Program: the value keeps its bounds."""
        n = len(self.vals)
        op()
        if len(self.vals) > n:
            v = self.vals[-1]
            src = next(x for x in self.vals
                       if x.name == re.search(r"kf\.\w+ (%\w+)", self.lines[-1]).group(1))
            v.bound, v.prop, v.err = src.bound, src.err, src.err

    def half_reshape(self):
        self.move(self.op_reshape)

    def half_transpose(self):
        self.move(self.op_transpose)

    def half_broadcast(self):
        self.move(self.op_broadcast)

    def half_unary(self):
        x = self.pick()
        ops = ["neg", "abs", "relu", "sigmoid", "tanh", "gelu", "silu"]
        if x.bound <= 4 and x.err <= 0.25:
            ops.append("exp")
        op = self.rng.choice(ops)
        text = f"kf.{op} {x.name} : {x.type()}"
        B, E = x.bound, x.err
        if op in ("neg", "abs", "relu"):  # exact
            return self.emit_half(text, x.shape, x.tshape, B, E, rounds=False)
        if op == "sigmoid":  # |sigmoid'| <= 1/4
            return self.emit_half(text, x.shape, x.tshape, 1.0, E / 4)
        if op == "tanh":  # |tanh'| <= 1
            return self.emit_half(text, x.shape, x.tshape, 1.0, E)
        if op in ("gelu", "silu"):  # |f(x)| <= |x|, |f'| <= 1.13 (gelu), 1.1 (silu)
            return self.emit_half(text, x.shape, x.tshape, B, 1.2 * E)
        return self.emit_half(text, x.shape, x.tshape, math.exp(B),
                              math.exp(B) * (math.exp(E) - 1))

    def half_binary(self):
        x = self.pick()
        y = self.partner(x)
        shape, tshape = broadcast(x, y)
        op = self.rng.choice(["add", "sub", "mul", "maximum", "minimum"])
        text = f"kf.{op} {x.name}, {y.name} : {x.type()}, {y.type()}"
        if op in ("add", "sub"):
            return self.emit_half(text, shape, tshape, x.bound + y.bound, x.err + y.err)
        if op == "mul":
            return self.emit_half(text, shape, tshape, x.bound * y.bound,
                                  x.bound * y.err + y.bound * x.err + x.err * y.err)
        # one of the operands: exact
        return self.emit_half(text, shape, tshape, max(x.bound, y.bound), max(x.err, y.err),
                              rounds=False)

    def half_reduce(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        op = self.rng.choice(["sum", "sum", "mean", "max", "min"])
        r = len(x.shape)
        dims = sorted(self.rng.sample(range(r), self.rng.randint(1, r)))
        keep = self.rng.random() < 0.5
        n = 1
        for i in dims:
            n *= x.shape[i]

        def reduced(s):
            return [1 if i in dims else d for i, d in enumerate(s)] if keep else \
                [d for i, d in enumerate(s) if i not in dims]
        text = (f"kf.{op} {x.name} dims [{', '.join(map(str, dims))}]"
                f"{' keepdim' if keep else ''} : {x.type()}")
        if op == "sum":
            return self.emit_half(text, reduced(x.shape), reduced(x.tshape), n * x.bound,
                                  n * x.err)
        if op == "mean":
            return self.emit_half(text, reduced(x.shape), reduced(x.tshape), x.bound, x.err)
        return self.emit_half(text, reduced(x.shape), reduced(x.tshape), x.bound, x.err,
                              rounds=False)

    def half_matmul(self):
        a = self.pick(lambda v: len(v.shape) >= 2)
        if a is None:
            return
        k = a.shape[-1]
        n = self.rng.choice([1, 2, 3, 16])
        b = self.new_arg([k, n])
        return self.emit_half(f"kf.matmul {a.name}, {b.name} : {a.type()}, {b.type()}",
                              a.shape[:-1] + [n], a.tshape[:-1] + [b.tshape[-1]],
                              k * a.bound * b.bound, k * b.bound * a.err)

    def half_softmax(self):
        # A shift of the row by at most e changes softmax by a factor within
        # e^(+-2e) and log_softmax by at most 2e.
        x = self.pick(lambda v: len(v.shape) >= 1 and v.err <= 0.25)
        if x is None:
            return
        op = self.rng.choice(["softmax", "log_softmax"])
        d = self.rng.randrange(-len(x.shape), len(x.shape))
        text = f"kf.{op} {x.name} dim {d} : {x.type()}"
        if op == "softmax":
            return self.emit_half(text, x.shape, x.tshape, 1.0, math.exp(2 * x.err) - 1)
        n = x.shape[d]
        return self.emit_half(text, x.shape, x.tshape, math.log(n) + 2 * x.bound, 2 * x.err)

    def half_layer_norm(self):
        x = self.pick(lambda v: len(v.shape) >= 1 and v.err == 0)
        if x is None:
            return
        norm = x.shape[-self.rng.randint(1, len(x.shape)):]
        n = 1
        for d in norm:
            n *= d
        extra, w, b = "", 1.0, 0.0
        for param in ("weight", "bias"):
            if self.rng.random() < 0.5:
                p = self.new_arg(list(norm), static=True)
                extra += f" {param} {p.name} : {p.type()}"
                w, b = (4.0, b) if param == "weight" else (w, 4.0)
        # |x - mean| / sigma <= sqrt(n); on the data's quarter steps sigma is
        # at least 0.25 / sqrt(n) when not 0 (then the output is the bias):
        # the f32 evaluations' error relative to it stays below 2^-14.
        return self.emit_half(
            f"kf.layer_norm {x.name}{extra} normalized_shape [{', '.join(map(str, norm))}] "
            f"eps 1.0e-05 : {x.type()}", x.shape, x.tshape, math.sqrt(n) * w + b,
            2.0 ** -14 * (math.sqrt(n) * w + b))

    def text(self, lines=None, outputs=None, args=None):
        """Program.text with a `// TOL @name: atol rtol ...` line (fusion_diff.py),
        a pair per output."""
        body, outputs = super().text(lines, outputs, args)
        tol = " ".join(f"{2 * v.prop + 2 * HALF_FLOOR[self.half]:.6g} {2 * self.u:.6g}"
                       for v in outputs)
        return f"// TOL @{self.name}: {tol}\n" + body, outputs
