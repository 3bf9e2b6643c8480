"""Matmuls, softmax, norms and losses: the ops kf has as composites, kept
whole rather than decomposed (kf decomposes and fuses them itself)."""
import numpy as np

from .emitter import float_literal
from .errors import UnsupportedOp
from .kftypes import TORCH_TO_KF
from .registry import handles


def _linear_2d(ctx, x, w_t, hint, bias=None):
    """x @ w_t (+ bias) with x of rank > 2 flattened to 2-D around the
    matmul, so that it is a 2-D matmul (the GPU maps those; batched ones run
    on the CPU). A bias over the last dim is added in the 2-D space, before
    the reshape back, as aten's addmm does: a reshape between the matmul and
    its bias would be a kernel boundary, and there it is the matmul's
    epilogue."""
    em = ctx.em
    lead = x.type.shape[:-1]
    if x.type.rank <= 2 or list(lead).count(None) > 1:
        y = em.matmul(x, w_t, hint=hint + ("_mm" if bias is not None else ""))
        return em.binary("add", y, bias, hint=hint) if bias is not None else y
    flat = em.reshape(x, [-1, x.type.shape[-1]], hint=hint + "_2d")
    y = em.matmul(flat, w_t, hint=hint + "_mm")
    if bias is not None and bias.type.rank <= 1:
        y = em.binary("add", y, bias, hint=hint + "_bias")
        bias = None
    y = em.reshape(y, [-1 if d is None else d for d in lead] + [w_t.type.shape[-1]],
                   hint=hint if bias is None else hint + "_3d")
    return em.binary("add", y, bias, hint=hint) if bias is not None else y


@handles("linear")
def linear(ctx, node):
    x, w = ctx.value(node.args[0]), ctx.value(node.args[1])
    bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
    # The weight is [out, in]: kf.matmul reads the transposed view in place.
    wt = ctx.em.transpose(w, [1, 0], hint=w.name + "_t") if w.type.rank == 2 else w
    return _linear_2d(ctx, x, wt, node.name, None if bias is None else ctx.value(bias))


@handles("mm", "bmm")
def mm(ctx, node):
    return ctx.em.matmul(ctx.value(node.args[0]), ctx.value(node.args[1]), hint=node.name)


@handles("matmul")
def matmul(ctx, node):
    """torch.matmul, 1-D operands included (kf.matmul wants rank >= 2)."""
    a, b = ctx.value(node.args[0]), ctx.value(node.args[1])
    em = ctx.em
    if a.type.rank == 1 and b.type.rank == 1:
        return em.reduce("sum", em.binary("mul", a, b), None, False, hint=node.name)
    squeeze = []
    if a.type.rank == 1:
        a = em.reshape(a, [1, -1 if a.type.shape[0] is None else a.type.shape[0]])
        squeeze.append(-2)
    if b.type.rank == 1:
        b = em.reshape(b, [-1 if b.type.shape[0] is None else b.type.shape[0], 1])
        squeeze.append(-1)
    if not squeeze and b.type.rank == 2 and a.type.rank > 2:
        return _linear_2d(ctx, a, b, node.name)
    y = em.matmul(a, b, hint=node.name if not squeeze else node.name + "_mm")
    if squeeze:
        shape = [d for i, d in enumerate(y.type.shape) if i - y.type.rank not in squeeze]
        if shape.count(None) > 1:
            raise UnsupportedOp("matmul of a vector with more than one dynamic dim")
        y = em.reshape(y, [-1 if d is None else d for d in shape], hint=node.name)
    return y


@handles("addmm")
def addmm(ctx, node):
    """beta * input + alpha * (a @ b): the matmul, then its epilogue."""
    em = ctx.em
    bias, a, b = (ctx.value(n) for n in node.args[:3])
    beta, alpha = ctx.number(node.kwargs.get("beta", 1)), ctx.number(node.kwargs.get("alpha", 1))
    y = em.matmul(a, b, hint=node.name + "_mm")
    if alpha != 1:
        y = em.binary("mul", y, em.scalar(alpha, y.type.dtype))
    if beta == 0:
        return y
    if beta != 1:
        bias = em.binary("mul", bias, em.scalar(beta, bias.type.dtype))
    return em.binary("add", y, bias, hint=node.name)


def _softmax_like(ctx, node, kind):
    x = ctx.value(node.args[0])
    dim = node.args[1]
    if ctx.overload == "int":  # softmax.int(x, dim, dtype=None): cast first
        dtype = node.args[2] if len(node.args) > 2 else node.kwargs.get("dtype")
        if dtype is not None:
            x = ctx.em.cast(x, TORCH_TO_KF[dtype])
    elif node.args[2]:  # _softmax(x, dim, half_to_float): f16 in, f32 out
        x = ctx.em.cast(x, "f32")
    if not x.type.is_float:
        raise UnsupportedOp(f"{kind} of {x.type.dtype} (PyTorch needs floats too)")
    return ctx.em.emit(node.name, f"kf.{kind} %{x.name} dim {dim} : {x.type}", x.type)


@handles("softmax", "_softmax")
def softmax(ctx, node):
    return _softmax_like(ctx, node, "softmax")


@handles("log_softmax", "_log_softmax")
def log_softmax(ctx, node):
    return _softmax_like(ctx, node, "log_softmax")


def _optional(ctx, arg, keyword):
    return f" {keyword} %{ctx.value(arg).name} : {ctx.value(arg).type}" if arg is not None else ""


@handles("layer_norm", "native_layer_norm")
def layer_norm(ctx, node):
    x = ctx.value(node.args[0])
    args = list(node.args) + [None] * 4
    shape, weight, bias = args[1], args[2], args[3]
    eps = args[4] if len(node.args) > 4 else node.kwargs.get("eps", 1e-5)
    text = (f"kf.layer_norm %{x.name}{_optional(ctx, weight, 'weight')}"
            f"{_optional(ctx, bias, 'bias')} normalized_shape [{', '.join(map(str, shape))}] "
            f"eps {float_literal(ctx.number(eps), 'f64')} : {x.type}")
    y = ctx.em.emit(node.name, text, x.type)
    if ctx.name == "layer_norm":
        return y
    # native_layer_norm also returns the mean and 1/std (keepdim over the
    # normalized dims), computed only when read.
    dims = list(range(x.type.rank - len(shape), x.type.rank))
    em = ctx.em

    def mean():
        return em.reduce("mean", x, dims, True, hint=node.name + "_mean")

    def rstd():
        var = em.reduce("var", x, dims, True, hint=node.name + "_var", extra=" correction 0")
        e = em.scalar(ctx.number(eps), var.type.dtype)
        return em.unary("rsqrt", em.binary("add", var, e), hint=node.name + "_rstd")
    return (y, mean, rstd)


@handles("rms_norm")
def rms_norm(ctx, node):
    x = ctx.value(node.args[0])
    args = list(node.args) + [None] * 3
    shape, weight = args[1], args[2]
    eps = args[3] if len(node.args) > 3 else node.kwargs.get("eps")
    text = (f"kf.rms_norm %{x.name}{_optional(ctx, weight, 'weight')} "
            f"normalized_shape [{', '.join(map(str, shape))}]")
    if eps is not None:
        text += f" eps {float_literal(ctx.number(eps), 'f64')}"
    return ctx.em.emit(node.name, f"{text} : {x.type}", x.type)


@handles("_native_batch_norm_legit_no_training", "batch_norm")
def batch_norm(ctx, node):
    if ctx.name == "batch_norm":  # (x, w, b, mean, var, training, momentum, eps, cudnn)
        x, w, b, mean, var, training, _, eps = node.args[:8]
        if training:
            raise UnsupportedOp("batch_norm in training mode (call model.eval())")
    else:  # (x, w, b, mean, var, momentum, eps)
        x, w, b, mean, var, _, eps = node.args[:7]
    xv, mv, vv = ctx.value(x), ctx.value(mean), ctx.value(var)
    text = (f"kf.batch_norm %{xv.name}, %{mv.name}, %{vv.name}{_optional(ctx, w, 'weight')}"
            f"{_optional(ctx, b, 'bias')} eps {float_literal(ctx.number(eps), 'f64')} : "
            f"{xv.type}, {mv.type}, {vv.type}")
    y = ctx.em.emit(node.name, text, xv.type)
    if ctx.name == "batch_norm":
        return y
    return (y,)  # save_mean and save_rstd are empty in eval mode: never read


@handles("_native_batch_norm_legit_functional", "_native_batch_norm_legit", "native_batch_norm")
def batch_norm_training(ctx, node):
    raise UnsupportedOp("batch_norm in training mode updates its running statistics, which a "
                        "kf function cannot (call model.eval() before importing)")


REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _nll(ctx, node, logp, target, weight, reduction, ignore_index, hint):
    """nll_loss written with kf ops (kf has no gather): the target's column
    is picked by a one-hot mask eq(arange(C), target), as
    -sum(where(mask, logp, 0), class dim) [* weight[target]], ignored
    targets masked out, then reduced as PyTorch does."""
    em = ctx.em
    if target.type.dtype not in ("i64", "i32"):
        raise UnsupportedOp(f"class targets of {target.type.dtype} (probabilities as targets "
                            "are not supported)")
    cdim = 0 if logp.type.rank == 1 else 1
    classes = logp.type.shape[cdim]
    if classes is None:
        raise UnsupportedOp("a loss over a dynamic number of classes")
    # arange(C) laid along the class dim, the target with a unit class dim.
    ashape = [1] * logp.type.rank
    ashape[cdim] = classes
    iota = em.constant(hint + "_classes", np.arange(classes).reshape(ashape), target.type.dtype,
                       tuple(ashape))
    tshape = list(target.type.shape)
    tshape.insert(cdim, 1)
    t = em.reshape(target, [-1 if d is None else d for d in tshape], hint=hint + "_target")
    mask = em.binary("eq", iota, t, hint=hint + "_onehot")
    zero = em.scalar(0, logp.type.dtype)
    picked = em.reduce("sum", em.where(mask, logp, zero, hint=hint + "_masked"), [cdim], False,
                       hint=hint + "_picked")
    loss = em.unary("neg", picked, hint=hint + "_nll")
    valid = em.binary("ne", target, em.scalar(ignore_index, target.type.dtype),
                      hint=hint + "_valid")
    if weight is not None:
        wv = ctx.value(weight)
        wshape = [1] * logp.type.rank
        wshape[cdim] = classes
        w = em.reshape(wv, wshape)
        wt = em.reduce("sum", em.where(mask, w, em.scalar(0, wv.type.dtype)), [cdim], False,
                       hint=hint + "_wt")
        wt = em.where(valid, wt, em.scalar(0, wt.type.dtype), hint=hint + "_wt_valid")
        loss = em.binary("mul", loss, wt)
        count = wt
    else:
        count = em.cast(valid, logp.type.dtype, hint=hint + "_count")
    loss = em.where(valid, loss, zero, hint=hint + "_kept")
    if reduction == "none":
        return loss
    total = em.reduce("sum", loss, None, False, hint=hint + "_sum")
    if reduction == "sum":
        return total
    return em.binary("div", total, em.reduce("sum", count, None, False, hint=hint + "_n"),
                     hint=hint)


def _reduction(value):
    return REDUCTIONS[value] if isinstance(value, int) else value


@handles("cross_entropy_loss")
def cross_entropy(ctx, node):
    args = list(node.args) + [None] * 5
    logits, target = ctx.value(args[0]), ctx.value(args[1])
    weight = args[2] if len(node.args) > 2 else node.kwargs.get("weight")
    reduction = _reduction(args[3] if len(node.args) > 3 else node.kwargs.get("reduction", 1))
    ignore = args[4] if len(node.args) > 4 else node.kwargs.get("ignore_index", -100)
    smoothing = args[5] if len(node.args) > 5 else node.kwargs.get("label_smoothing", 0.0)
    if smoothing:
        raise UnsupportedOp("cross_entropy with label_smoothing")
    if not logits.type.is_float or target.type.is_float:
        raise UnsupportedOp("cross_entropy with probability targets (kfuse-import takes "
                            "class indices)")
    cdim = 0 if logits.type.rank == 1 else 1
    logp = ctx.em.emit(node.name + "_logp", f"kf.log_softmax %{logits.name} dim {cdim} : "
                                            f"{logits.type}", logits.type)
    return _nll(ctx, node, logp, target, weight, reduction, ignore, node.name)


@handles("nll_loss_forward", "nll_loss", "nll_loss_nd", "nll_loss2d_forward")
def nll_loss(ctx, node):
    args = list(node.args) + [None] * 4
    logp, target = ctx.value(args[0]), ctx.value(args[1])
    weight = args[2] if len(node.args) > 2 else node.kwargs.get("weight")
    reduction = _reduction(args[3] if len(node.args) > 3 else node.kwargs.get("reduction", 1))
    ignore = args[4] if len(node.args) > 4 else node.kwargs.get("ignore_index", -100)
    loss = _nll(ctx, node, logp, target, weight, reduction, ignore, node.name)
    if ctx.name.endswith("_forward"):  # (output, total_weight)
        return (loss, _refused("nll_loss_forward's total_weight output"))
    return loss


def _refused(reason):
    """A result that is refused only when something reads it."""
    def read():
        raise UnsupportedOp(reason)
    return read
