"""Random kf programs, deterministic from a random.Random (kf_fuzz.py).

A program is 1 to 40 ops over the op set: elementwise ops with broadcasting
and mixed dtypes, comparisons, where, casts, reductions, reshape, transpose,
broadcast_to, matmul, softmax, log_softmax and layer_norm, with several
outputs and diamonds. kf's type rules are mirrored here (dtype promotion as
torch.result_type, broadcasting as KfTypeRules.cpp), so a program kfuse
refuses is itself a finding.

Dynamic dims: in a dynamic program some argument dims are `?`. Every value
has a concrete shape (the sizes it has when run) and a type shape (None for
`?`). kf never broadcasts a dynamic dim (it asserts at run time that the
size matches), so only a static 1 stretches; the generator keeps to that
and the harness passes the concrete sizes (`dims`, in the order of the `?`
in the argument list: kf's size symbols d0, d1, ...).
"""

FLOATS = ["f32", "f16", "bf16", "f64"]
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


class Program:
    def __init__(self, rng, name, nops, pointwise_only=False, dynamic=0.3):
        self.rng, self.name = rng, name
        self.pointwise_only = pointwise_only
        self.dynamic = rng.random() < dynamic
        self.args, self.vals, self.lines = [], [], []
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

    def pick(self, pred=lambda v: True):
        # Later values are likelier: chains and diamonds over fresh results.
        cands = [v for v in self.vals if pred(v)]
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
        kind = rng.choice(kinds)
        getattr(self, "op_" + kind)()

    def op_unary(self):
        x = self.pick()
        ops = ["exp", "tanh", "sigmoid", "sin", "cos", "sqrt", "log", "rsqrt", "reciprocal"]
        if x.dtype != "i1":
            ops += ["neg", "abs", "relu"] * 2
        if x.dtype in FLOATS:
            ops += ["gelu", "silu"]
        op = self.rng.choice(ops)
        t = x.dtype if op in ("neg", "abs", "relu", "gelu", "silu") or x.dtype in FLOATS else "f32"
        self.emit(f"kf.{op} {x.name} : {x.type()}", x.shape, t, x.tshape)

    def partner(self, x):
        y = self.pick(lambda v: v is not x and broadcast(x, v) is not None)
        if y is None or self.rng.random() < 0.25:
            # A fresh argument shaped like a suffix of x (a bias), or a scalar;
            # its 1s are static (a dynamic dim never stretches).
            k = self.rng.randint(0, len(x.shape))
            shape = [d if self.rng.random() < 0.8 else 1 for d in x.shape[len(x.shape) - k:]]
            y = self.new_arg(shape, static_ones=True)
        return y

    def op_binary(self):
        x = self.pick()
        y = self.partner(x)
        shape, tshape = broadcast(x, y)
        t = result_type([x, y])
        ops = ["add", "mul", "maximum", "minimum", "div"]
        if t != "i1":
            ops += ["sub", "sub", "pow"]
        op = self.rng.choice(ops)
        rt = "f32" if op == "div" and t not in FLOATS else t
        self.emit(f"kf.{op} {x.name}, {y.name} : {x.type()}, {y.type()}", shape, rt, tshape)

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

    def op_reduce(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        op = self.rng.choice(["sum", "max", "min", "mean"])
        if op == "mean":
            x = self.floaty(x)
        r = len(x.shape)
        dims = sorted(self.rng.sample(range(r), self.rng.randint(1, r)))
        keep = self.rng.random() < 0.5

        def reduced(s):
            return [1 if i in dims else d for i, d in enumerate(s)] if keep else \
                [d for i, d in enumerate(s) if i not in dims]
        t = "i64" if op == "sum" and x.dtype not in FLOATS else x.dtype
        self.emit(f"kf.{op} {x.name} dims [{', '.join(map(str, dims))}]{' keepdim' if keep else ''} : {x.type()}",
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
        self.emit(f"kf.transpose {x.name} [{', '.join(map(str, perm))}] : {x.type()}",
                  [x.shape[p] for p in perm], x.dtype, [x.tshape[p] for p in perm])

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
        self.emit(f"kf.matmul {a.name}, {b.name} : {a.type()}, {b.type()}",
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
