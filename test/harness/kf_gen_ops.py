"""The ops of issue 12 for the random program generator (kf_gen.py).

`NewOps` is a mixin for kf_gen.Program: each `op_<kind>` method emits one of
the new ops in the style of Program's own (self.pick, self.partner,
self.floaty, self.new_arg, self.emit), with kf's type rules mirrored
exactly (KfTypeRules.cpp, KfOps.cpp), so a program kfuse refuses is itself
a finding. `NEW_KINDS` names them; `POINTWISE_NEW_KINDS` are the ones a
pointwise-only program may use.

    class Program(NewOps, kf_gen.Program): ...
    kinds += NEW_KINDS   # in add_op
"""

from kf_gen import FLOATS, INTS, result_type, broadcast

NEW_KINDS = ["math", "rounding", "clamp", "floor_mod", "var", "rms_norm",
             "batch_norm", "arg_extreme", "cat", "gather"]
POINTWISE_NEW_KINDS = ["math", "rounding", "clamp", "floor_mod", "cat", "gather"]

# The finfo(dtype).eps kf.rms_norm uses when no eps is given.
EPS = {"f32": 2.0 ** -23, "f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f64": 2.0 ** -52}


def exact(v):
    """Whether v is the same on every path: an integer or bool, or an
    argument (the harness's values, steps of 0.25). A float computed by a
    reduction may differ in its last bits between the CPU and a GPU mapping
    (another summation order), and floor, round, floor_divide, remainder
    and argmax are not continuous: a last-bit difference can move their
    result by 1 (or an index), so their float operands are arguments only."""
    return v.dtype not in FLOATS or v.name.startswith("%arg")


class NewOps:
    def op_math(self):
        # exp2, log1p, expm1, erf: floats keep their dtype, ints and bools
        # compute in f32 (FloatOrF32).
        x = self.pick()
        op = self.rng.choice(["exp2", "log1p", "expm1", "erf"])
        t = x.dtype if x.dtype in FLOATS else "f32"
        self.emit(f"kf.{op} {x.name} : {x.type()}", x.shape, t, x.tshape)

    def op_rounding(self):
        # floor, ceil, round keep the dtype (an int is its own result);
        # bool is refused (SameNoBool).
        x = self.pick(lambda v: v.dtype != "i1" and exact(v))
        if x is None:
            return
        op = self.rng.choice(["floor", "ceil", "round"])
        self.emit(f"kf.{op} {x.name} : {x.type()}", x.shape, x.dtype, x.tshape)

    def op_clamp(self):
        # Scalar bounds, one or both; a float bound on an int tensor gives
        # f32 (clampResultType); bool refused. Int bounds stay small (they
        # must fit i32).
        x = self.pick(lambda v: v.dtype != "i1")
        if x is None:
            return
        rng = self.rng
        which = rng.choice([("min",), ("max",), ("min", "max")])
        bounds, floaty = [], False
        for name in which:
            if rng.random() < 0.5:
                bounds.append(f"{name}({rng.randint(-3, 3)})")
            else:
                floaty = True
                bounds.append(f"{name}({rng.choice([-2.5, -1.0, 0.0, 0.5, 1.75, 3.0])})")
        t = x.dtype if x.dtype in FLOATS else ("f32" if floaty else x.dtype)
        self.emit(f"kf.clamp {x.name} {' '.join(bounds)} : {x.type()}", x.shape, t, x.tshape)

    def op_floor_mod(self):
        # remainder and floor_divide broadcast and promote; a bool result is
        # refused (PromoteNoBool). Integer division by 0 gives 0.
        x = self.pick(exact)
        y = self.partner(x)
        t = result_type([x, y])
        if t == "i1" or not exact(y):
            return
        shape, tshape = broadcast(x, y)
        op = self.rng.choice(["remainder", "floor_divide"])
        self.emit(f"kf.{op} {x.name}, {y.name} : {x.type()}, {y.type()}", shape, t, tshape)

    def op_var(self):
        # var/std of floats over some dims (none: all), a correction of 0 to
        # 2 (n <= correction gives inf or NaN on every path), keepdim.
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        rng = self.rng
        r = len(x.shape)
        dims = sorted(rng.sample(range(r), rng.randint(1, r)))
        keep = rng.random() < 0.5
        correction = rng.choice([0, 1, 1, 2])

        def reduced(s):
            return [1 if i in dims else d for i, d in enumerate(s)] if keep else \
                [d for i, d in enumerate(s) if i not in dims]
        op = rng.choice(["var", "std"])
        spelled = f" dims [{', '.join(map(str, dims))}]"
        self.emit(f"kf.{op} {x.name}{spelled} correction {correction}{' keepdim' if keep else ''}"
                  f" : {x.type()}", reduced(x.shape), x.dtype, reduced(x.tshape))

    def op_rms_norm(self):
        # normalized_shape is the trailing dims (as layer_norm); a weight of
        # that static shape and the input's dtype; eps given or finfo's.
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        x = self.floaty(x)
        norm = x.shape[-self.rng.randint(1, len(x.shape)):]
        extra = ""
        if self.rng.random() < 0.5:
            w = self.new_arg(list(norm), x.dtype, static=True)
            extra = f" weight {w.name} : {w.type()}"
        eps = f" eps {self.rng.choice(['1.0e-05', '1.0e-06'])}" if self.rng.random() < 0.5 else ""
        self.emit(f"kf.rms_norm {x.name}{extra} normalized_shape [{', '.join(map(str, norm))}]"
                  f"{eps} : {x.type()}", x.shape, x.dtype, x.tshape)

    def op_batch_norm(self):
        # x is [N, C, ...] (rank >= 2); the statistics and the optional
        # weight and bias are static [C] of any float dtype; the result has
        # x's dtype. The variance goes through abs (a negative one is NaN).
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return
        x = self.floaty(x)
        c = x.shape[1]
        rng = self.rng

        def param():
            return self.new_arg([c], rng.choice(["f32", "f32", x.dtype, "f64"]), static=True)
        mean, var = param(), param()
        var = self.emit(f"kf.abs {var.name} : {var.type()}", [c], var.dtype)
        extra = ""
        for name in ("weight", "bias"):
            if rng.random() < 0.5:
                p = param()
                extra += f" {name} {p.name} : {p.type()}"
        eps = f" eps {rng.choice(['1.0e-05', '1.0e-03'])}" if rng.random() < 0.5 else ""
        self.emit(f"kf.batch_norm {x.name}, {mean.name}, {var.name}{extra}{eps} : "
                  f"{x.type()}, {mean.type()}, {var.type()}", x.shape, x.dtype, x.tshape)

    def op_arg_extreme(self):
        # argmax/argmin of ints or floats (not bool) over a static dim (kf
        # refuses a dynamic one), or of the whole static tensor; i64.
        rng = self.rng
        x = self.pick(lambda v: v.dtype != "i1" and len(v.shape) >= 1 and exact(v)
                      and any(t is not None for t in v.tshape))
        if x is None:
            return
        op = rng.choice(["argmax", "argmin"])
        keep = rng.random() < 0.5
        if None not in x.tshape and rng.random() < 0.25:  # flattened
            shape = [1] * len(x.shape) if keep else []
            self.emit(f"kf.{op} {x.name}{' keepdim' if keep else ''} : {x.type()}",
                      shape, "i64", list(shape))
            return
        d = rng.choice([i for i, t in enumerate(x.tshape) if t is not None])

        def reduced(s):
            return [1 if i == d else v for i, v in enumerate(s)] if keep else \
                [v for i, v in enumerate(s) if i != d]
        spelled = d - len(x.shape) if rng.random() < 0.3 else d
        self.emit(f"kf.{op} {x.name} dim {spelled}{' keepdim' if keep else ''} : {x.type()}",
                  reduced(x.shape), "i64", reduced(x.tshape))

    def op_cat(self):
        # 1 to 3 tensors joined along a dim that is static in all of them;
        # the others equal (a static size wins over `?`); dtypes promote.
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1 and any(t is not None for t in v.tshape))
        if x is None:
            return
        d = rng.choice([i for i, t in enumerate(x.tshape) if t is not None])
        inputs = [x]
        for _ in range(rng.randint(0, 2)):
            same = self.pick(lambda v: v is not x and v.shape == x.shape and v.tshape[d] is not None)
            if same is not None and rng.random() < 0.3:
                inputs.append(same)
                continue
            shape = list(x.shape)
            shape[d] = rng.choice([1, 2, 3])
            inputs.append(self.new_arg(shape, static=True))
        shape = list(x.shape)
        shape[d] = sum(v.shape[d] for v in inputs)
        tshape = []
        for i in range(len(shape)):
            if i == d:
                tshape.append(shape[d])
            else:
                known = [v.tshape[i] for v in inputs if v.tshape[i] is not None]
                tshape.append(known[0] if known else None)
        t = result_type(inputs)
        spelled = d - len(shape) if rng.random() < 0.3 else d
        names = ", ".join(v.name for v in inputs)
        types = ", ".join(v.type() for v in inputs)
        self.emit(f"kf.cat {names} dim {spelled} : {types}", shape, t, tshape)

    def op_gather(self):
        # kf.index_select (an index of rank 0 to 2) or kf.gather of a float
        # value along a dim that is static in it; the index is a new
        # argument (the harness's integers: some out of range, NaN there).
        rng = self.rng
        x = self.pick(lambda v: v.dtype in FLOATS and len(v.shape) >= 1
                      and any(t is not None for t in v.tshape))
        if x is None:
            return
        d = rng.choice([i for i, t in enumerate(x.tshape) if t is not None])
        spelled = d - len(x.shape) if rng.random() < 0.3 else d
        index_type = rng.choice(INTS)
        if rng.random() < 0.6:
            ishape = [rng.choice([1, 2, 3, 5]) for _ in range(rng.choice([0, 1, 1, 2]))]
            i = self.new_arg(ishape, index_type, static=True)
            self.emit(f"kf.index_select {x.name}, {i.name} dim {spelled} : {x.type()}, {i.type()}",
                      x.shape[:d] + ishape + x.shape[d + 1:], x.dtype,
                      x.tshape[:d] + ishape + x.tshape[d + 1:])
            return
        # torch.gather: off the dim, at most the input's size (its own
        # size where the input's is dynamic, checked when it runs).
        ishape = [rng.choice([1, 2, 3, 5]) if k == d else
                  (c if t is None else rng.randint(min(1, c), c))
                  for k, (c, t) in enumerate(zip(x.shape, x.tshape))]
        i = self.new_arg(ishape, index_type, static=True)
        self.emit(f"kf.gather {x.name}, {i.name} dim {spelled} : {x.type()}, {i.type()}",
                  ishape, x.dtype, ishape)

    def op_cumsum(self):
        # (kf_gen.EXTRA_KINDS: drawn only when asked.) kf.cumsum along any dim (static or dynamic) of a value of rank 1
        # or more: floats keep their dtype, ints and bool give i64.
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        d = rng.randrange(len(x.shape))
        spelled = d - len(x.shape) if rng.random() < 0.3 else d
        t = x.dtype if x.dtype in FLOATS else "i64"
        self.emit(f"kf.cumsum {x.name} dim {spelled} : {x.type()}", x.shape, t, x.tshape)
