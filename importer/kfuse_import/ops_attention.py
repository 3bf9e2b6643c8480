"""F.scaled_dot_product_attention, imported as itself (kept out of
torch.export's decomposition) and written as the kf ops of its definition:
softmax(q @ k^T * scale + mask) @ v.

Why not torch's decomposition: it is written for autograd and for every
backend at once (q and k each scaled by sqrt(scale), `_safe_softmax` through
`any`, and on some models a stride mismatch that crashes torch.export's own
decomposition of a GPT-2). Here the attention is the four ops kf fuses:
the score matmul with its scale and mask as the epilogue, one softmax row
kernel, and the matmul by v. Kept in one handler so that the attention
kernel of kernel formation (issue 26) has one place to start from.
"""
import math

import numpy as np

from .errors import UnsupportedOp
from .kftypes import KfType
from .registry import handles


def _arguments(node):
    """node's arguments by their schema names, defaults filled in."""
    out = {}
    for i, arg in enumerate(node.target._schema.arguments):
        if i < len(node.args):
            out[arg.name] = node.args[i]
        elif arg.name in node.kwargs:
            out[arg.name] = node.kwargs[arg.name]
        else:
            out[arg.name] = arg.default_value if arg.has_default_value() else None
    return out


def _repeat_heads(ctx, x, times, hint):
    """x [..., Hk, S, E] as [..., Hk * times, S, E], each head repeated
    `times` times in place (repeat_interleave on the head dim: GQA's rule)."""
    if times == 1:
        return x
    em = ctx.em
    *lead, hk, s, e = x.type.shape
    if hk is None or s is None or e is None or lead.count(None) > 1:
        raise UnsupportedOp("grouped-query attention with dynamic heads or sequence")
    dims = lambda shape: [-1 if d is None else d for d in shape]
    x = em.reshape(x, dims(lead) + [hk, 1, s, e], hint=hint + "_heads")
    sizes = dims(lead) + [hk, times, s, e]
    t = KfType(tuple(lead) + (hk, times, s, e), x.type.dtype)
    x = em.emit(hint + "_repeat", f"kf.broadcast_to %{x.name} [{', '.join(map(str, sizes))}] : "
                                  f"{x.type}", t)
    return em.reshape(x, dims(lead) + [hk * times, s, e], hint=hint + "_gqa")


@handles("scaled_dot_product_attention")
def scaled_dot_product_attention(ctx, node):
    em, a, name = ctx.em, _arguments(node), node.name
    q, k, v = (ctx.value(a[n]) for n in ("query", "key", "value"))
    if ctx.number(a["dropout_p"]) != 0:
        raise UnsupportedOp("attention with dropout (kf has no random numbers; call model.eval())")
    if not q.type.is_float or min(q.type.rank, k.type.rank, v.type.rank) < 2:
        raise UnsupportedOp(f"attention of {q.type}: want float tensors of rank 2 or more")
    hq, hk = q.type.shape[-3] if q.type.rank > 2 else 1, k.type.shape[-3] if k.type.rank > 2 else 1
    if a["enable_gqa"] and hq != hk:
        if hq is None or hk is None or hq % hk:
            raise UnsupportedOp(f"grouped-query attention of {hq} query heads over {hk} key heads")
        k = _repeat_heads(ctx, k, hq // hk, name + "_k")
        v = _repeat_heads(ctx, v, hq // hk, name + "_v")
    scale = a["scale"]
    if scale is None:
        if q.type.shape[-1] is None:
            raise UnsupportedOp("attention's default scale over a dynamic head size")
        scale = 1.0 / math.sqrt(q.type.shape[-1])
    dtype = q.type.dtype
    perm = list(range(k.type.rank))
    perm[-2:] = perm[-1], perm[-2]
    scores = em.matmul(q, em.transpose(k, perm, hint=name + "_kt"), hint=name + "_scores")
    scores = em.binary("mul", scores, em.scalar(float(scale), dtype), hint=name + "_scaled")
    neg_inf = lambda: em.scalar(float("-inf"), dtype)
    masked = False
    if a["is_causal"]:
        length, source = q.type.shape[-2], k.type.shape[-2]
        if length is None or source is None:
            raise UnsupportedOp("causal attention over a dynamic sequence length")
        # PyTorch's is_causal is the top-left triangle: query i sees keys 0..i.
        keep = em.constant(name + "_causal", np.tril(np.ones((length, source), bool)),
                           "i1", (length, source))
        scores = em.where(keep, scores, neg_inf(), hint=name + "_causal_scores")
    if a["attn_mask"] is not None:
        mask = ctx.value(a["attn_mask"])
        if mask.type.dtype == "i1":
            scores = em.where(mask, scores, neg_inf(), hint=name + "_masked")
        else:
            scores = em.binary("add", scores, em.cast(mask, dtype), hint=name + "_masked")
        masked = True
    probs = em.emit(name + "_probs", f"kf.softmax %{scores.name} dim {scores.type.rank - 1} : "
                                     f"{scores.type}", scores.type)
    if masked:
        # A row the mask hides wholly gives zeros, as PyTorch's (_safe_softmax),
        # not the 0/0 NaNs of a plain softmax.
        row_max = em.reduce("max", scores, [-1], True, hint=name + "_row_max")
        hidden = em.binary("eq", row_max, neg_inf(), hint=name + "_hidden")
        probs = em.where(hidden, em.scalar(0.0, dtype), probs, hint=name + "_safe_probs")
    return em.matmul(probs, v, hint=name)
