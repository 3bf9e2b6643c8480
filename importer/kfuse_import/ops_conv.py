"""Convolutions and pooling, written out in kf ops (NCHW).

A 2-D convolution becomes an explicit GEMM: the input padded with zeros
(kf.cat), one strided kf.slice per kernel position (a view each), those
joined into the im2col matrix [N, C*KH*KW, OH*OW] (one kf.cat kernel that
reads the padded input in place), and the weight [F, C*KH*KW] times it, a
matmul batched over the images (and the groups where there are several)
whose result is NCHW as it is, the bias its epilogue. That is
correct for every stride, padding, dilation and group count, but the
im2col matrix is written to memory (KH*KW times the input, and
once more transposed), and kf.cat reads each of its KH*KW inputs for every
element it writes. An implicit GEMM on the matmul kernels (no im2col
matrix) is not built yet. A depthwise convolution (one filter a channel)
is no GEMM: the sum over kernel positions of each strided view times its
weights, one fused elementwise kernel (_depthwise). A patch embedding
(stride equal to the kernel) takes its im2col matrix as a transpose of the
input's patches (_patch_matrix): each element is read once.

Pooling is the same windows without a matmul: max_pool2d the kf.maximum of
the KH*KW strided slices of the input padded with -inf (one pointwise
kernel), avg_pool2d their sum divided by the window's size (or, with
count_include_pad=False, by the number of real elements, computed here
with numpy), adaptive_avg_pool2d an avg_pool2d where the sizes divide.
"""
import numpy as np

from .errors import UnsupportedOp
from .kftypes import KfType
from .ops_shape import _slice
from .registry import handles


def _pair(v, n=2):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


def _static(x, what):
    if None in x.type.shape:
        raise UnsupportedOp(f"{what} of a tensor with a dynamic dim ({x.type}): "
                            "kfuse writes it out with static windows")


def _cat(ctx, xs, dim, hint):
    if len(xs) == 1:
        return xs[0]
    shape = list(xs[0].type.shape)
    shape[dim] = sum(x.type.shape[dim] for x in xs)
    names = ", ".join(f"%{x.name}" for x in xs)
    types = ", ".join(str(x.type) for x in xs)
    return ctx.em.emit(hint, f"kf.cat {names} dim {dim} : {types}",
                       KfType(tuple(shape), xs[0].type.dtype))


def _pad(ctx, x, pads, value, hint):
    """x [N, C, H, W] with pads[0] rows of `value` above and below and
    pads[1] columns left and right."""
    for dim, p in ((2, pads[0]), (3, pads[1])):
        if p == 0:
            continue
        shape = list(x.type.shape)
        shape[dim] = p
        edge = ctx.em.constant(hint + "_edge", value, x.type.dtype, shape)
        x = _cat(ctx, [edge, x, edge], dim, hint)
    return x


def _windows(ctx, x, kernel, stride, dilation, out, hint, keep=None):
    """The KH*KW strided views of x [N, C, Hp, Wp], each [N, C, OH, OW]:
    view (kh, kw) holds x[n, c, oh*sh + kh*dh, ow*sw + kw*dw]. Each is one
    kf.slice over both dims: a slice of a slice is a view kernel formation
    does not fold into its reader (it was a kernel writing the row views).
    keep[0][kh] and keep[1][kw], when given, say which views to make (None
    in the others' places)."""
    n, c = x.type.shape[:2]
    big = 9223372036854775807
    views = []
    for kh in range(kernel[0]):
        for kw in range(kernel[1]):
            starts = [0, 0, kh * dilation[0], kw * dilation[1]]
            ends = [big, big] + [starts[2 + i] + stride[i] * (out[i] - 1) + 1 for i in range(2)]
            steps = [1, 1, stride[0], stride[1]]
            if keep is not None and not (keep[0][kh] and keep[1][kw]):
                views.append(None)
                continue
            if starts[2:] == [0, 0] and tuple(out) == tuple(x.type.shape[2:]) and list(stride) == [1, 1]:
                views.append(x)  # the whole input
                continue
            fmt = lambda v: "[" + ", ".join(map(str, v)) + "]"
            views.append(ctx.em.emit(hint, f"kf.slice %{x.name} starts {fmt(starts)} ends "
                                           f"{fmt(ends)} steps {fmt(steps)} : {x.type}",
                                     KfType((n, c) + tuple(out), x.type.dtype)))
    return views


def _out_size(size, k, s, p, d, ceil_mode=False):
    span = size + 2 * p - d * (k - 1) - 1
    if span < 0:
        raise UnsupportedOp(f"a window larger than the padded input ({size} + 2 * {p})")
    if ceil_mode:
        n = -(-span // s) + 1
        # PyTorch: the last window must start inside the input or its left padding.
        return n - 1 if (n - 1) * s >= size + p else n
    return span // s + 1


def _as_2d(ctx, x, hint):
    """A 1-D op's [N, C, L] as [N, C, 1, L]."""
    n, c, length = x.type.shape
    return ctx.em.reshape(x, [n, c, 1, length], hint=hint)


@handles("convolution")
def convolution(ctx, node):
    x, w = ctx.value(node.args[0]), ctx.value(node.args[1])
    bias = ctx.value(node.args[2]) if node.args[2] is not None else None
    stride, padding, dilation, transposed, output_padding, groups = node.args[3:9]
    if transposed:
        raise UnsupportedOp("a transposed convolution")
    if x.type.rank not in (3, 4) or not x.type.is_float:
        raise UnsupportedOp(f"a convolution of {x.type} (kf takes float NCHW or NCL)")
    if isinstance(padding, str):
        raise UnsupportedOp(f"convolution padding {padding!r}")
    one_d = x.type.rank == 3
    _static(x, "a convolution")
    if one_d:
        x, w = _as_2d(ctx, x, node.name + "_2d"), _as_2d(ctx, w, node.name + "_w2d")
        stride, padding, dilation = [1] + _pair(stride, 1), [0] + _pair(padding, 1), \
            [1] + _pair(dilation, 1)
    stride, padding, dilation = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, wd = x.type.shape
    f, cg, kh, kw = w.type.shape
    g = groups
    out = (_out_size(h, kh, stride[0], padding[0], dilation[0]),
           _out_size(wd, kw, stride[1], padding[1], dilation[1]))
    k, p = cg * kh * kw, out[0] * out[1]
    hint = node.name
    padded = _pad(ctx, x, padding, 0.0, hint + "_pad")
    if g == c and cg == 1 and f == c:
        real = [[_touches(t, dilation[i], stride[i], out[i], padding[i], (h, wd)[i])
                 for t in range((kh, kw)[i])] for i in range(2)]
        y = _depthwise(ctx, padded, w, bias, (kh, kw), stride, dilation, out, real, hint)
        return ctx.em.reshape(y, [n, f, out[1]], hint=hint) if one_d else y
    # A patch embedding (ViT's, Mixer's, ConvNeXt's stem: the stride is
    # the kernel, no padding, no dilation) reads each input element once:
    # its im2col matrix is a transpose of the input's patches, one kernel,
    # not KH*KW windows joined by a kf.cat (whose kernel selects among its
    # inputs for every element it writes: Mixer's 16 x 16 patches made it a
    # third of the model's CPU time).
    patches = (g == 1 and list(stride) == [kh, kw] and list(padding) == [0, 0]
               and list(dilation) == [1, 1])
    if patches:
        cols = None
    else:
        # im2col: [N, C, KH*KW, OH*OW] in (c, kh, kw) order, the weight's.
        views = [ctx.em.reshape(v, [n, c, 1, p], hint=hint + "_col")
                 for v in _windows(ctx, padded, (kh, kw), stride, dilation, out,
                                   hint + "_win")]
        cols = _cat(ctx, views, 2, hint + "_im2col")
    if g == 1 and p >= _WIDE:
        # The weight [F, K] times each image's columns [K, P] (a matmul
        # batched over N, the weight broadcast): the result is NCHW as it
        # is, with no transposes around the matmul, and the bias [F, 1] is
        # its epilogue.
        cols = (_patch_matrix(ctx, x, (kh, kw), out, "cols", hint) if patches
                else ctx.em.reshape(cols, [n, k, p], hint=hint + "_cols"))
        y = ctx.em.matmul(ctx.em.reshape(w, [f, k], hint=hint + "_wmat"), cols,
                          hint=hint + "_mm")                    # [N, F, P]
        if bias is not None:
            y = ctx.em.binary("add", y, ctx.em.reshape(bias, [f, 1], hint=hint + "_bias"),
                              hint=hint + "_add")
    elif g == 1:
        # Few output positions (P < _WIDE: a late stage's 4x4 or 1x1): P
        # as the matmul's columns would fill a fraction of a register tile
        # (16 wide). One 2-D matmul of all images' rows [N*P, K] by the
        # weight read transposed instead, its columns the F filters, at the
        # cost of a transpose on each side (ResNet-18 on 32x32 images: 72.6
        # ms the batched way at every stage, 43 ms this way).
        if patches:
            rows = _patch_matrix(ctx, x, (kh, kw), out, "rows", hint)
        else:
            cols = ctx.em.reshape(cols, [n, k, p], hint=hint + "_cols")
            rows = ctx.em.reshape(ctx.em.transpose(cols, [0, 2, 1], hint=hint + "_colsT"),
                                  [n * p, k], hint=hint + "_rows")
        wT = ctx.em.transpose(ctx.em.reshape(w, [f, k], hint=hint + "_wmat"), [1, 0],
                              hint=hint + "_wT")
        y = ctx.em.matmul(rows, wT, hint=hint + "_mm")          # [N*P, F]
        if bias is not None:
            y = ctx.em.binary("add", y, bias, hint=hint + "_add")
        y = ctx.em.transpose(ctx.em.reshape(y, [n, p, f], hint=hint + "_npf"), [0, 2, 1],
                             hint=hint + "_nfp")
    else:
        cols = ctx.em.reshape(cols, [n, g, k, p], hint=hint + "_cols")
        wg = ctx.em.reshape(w, [g, f // g, k], hint=hint + "_wmat")
        y = ctx.em.matmul(wg, cols, hint=hint + "_mm")          # [N, g, F/g, P]
        if bias is not None:
            y = ctx.em.binary("add", y, ctx.em.reshape(bias, [g, f // g, 1],
                                                       hint=hint + "_bias"), hint=hint + "_add")
    shape = [n, f, out[1]] if one_d else [n, f, out[0], out[1]]
    return ctx.em.reshape(y, shape, hint=hint)


def _patch_matrix(ctx, x, kernel, out, form, hint):
    """The im2col matrix of a convolution whose stride is its kernel (no
    padding, no dilation) over x [N, C, H, W]: the rows and columns past
    the last whole patch dropped (a slice), x seen as [N, C, OH, KH, OW,
    KW] and transposed, as "cols" [N, C*KH*KW, OH*OW] (element (c, kh, kw),
    (oh, ow) is x[n, c, oh*KH + kh, ow*KW + kw]) or "rows" [N*OH*OW,
    C*KH*KW]."""
    n, c, h, w = x.type.shape
    (kh, kw), (oh, ow) = kernel, out
    if (h, w) != (oh * kh, ow * kw):
        big = 9223372036854775807
        x = ctx.em.emit(hint + "_whole", f"kf.slice %{x.name} starts [0, 0, 0, 0] ends "
                                         f"[{big}, {big}, {oh * kh}, {ow * kw}] steps "
                                         f"[1, 1, 1, 1] : {x.type}",
                        KfType((n, c, oh * kh, ow * kw), x.type.dtype))
    six = ctx.em.reshape(x, [n, c, oh, kh, ow, kw], hint=hint + "_patches")
    if form == "cols":
        t = ctx.em.transpose(six, [0, 1, 3, 5, 2, 4], hint=hint + "_patchesT")
        return ctx.em.reshape(t, [n, c * kh * kw, oh * ow], hint=hint + "_cols")
    t = ctx.em.transpose(six, [0, 2, 4, 1, 3, 5], hint=hint + "_patchesT")
    return ctx.em.reshape(t, [n * oh * ow, c * kh * kw], hint=hint + "_rows")


# Output positions from which a convolution's matmul takes them as its
# columns (batched over the images): four of the host's 16-wide register
# tiles.
_WIDE = 64


def _touches(k, dilation, stride, out, pad, size):
    """Whether kernel position k reads a real (not padding) element for
    some output position: k*d + o*s in [pad, pad + size) for an o < out."""
    return any(pad <= k * dilation + o * stride < pad + size for o in range(out))


def _depthwise(ctx, padded, w, bias, kernel, stride, dilation, out, real, hint):
    """A depthwise convolution (one filter a channel: ConvNeXt's 7x7) as
    the sum over the KH*KW kernel positions of each strided view of the
    padded input times that position's weights [C, 1, 1]: elementwise ops
    on views, which kernel formation fuses into one kernel reading the
    padded input in place. No im2col matrix (KH*KW times the input) and no
    matmul with one column a group. A position that reads only padding
    (real[0][kh] or real[1][kw] false: a 7x7 kernel over a 1x1 input)
    adds zeros and is left out."""
    em = ctx.em
    c = w.type.shape[0]
    # [C, KH, KW], each position's weights a [C, 1, 1] slice of it: read in
    # place by the product (a [C, 1] slice reshaped to [C, 1, 1] was a
    # kernel of its own over a 1x1 output).
    taps = em.reshape(w, [c, kernel[0], kernel[1]], hint=hint + "_taps")
    big = 9223372036854775807
    y = None
    for t, view in enumerate(_windows(ctx, padded, kernel, stride, dilation, out,
                                      hint + "_win", keep=real)):
        if view is None:
            continue
        kh, kw = divmod(t, kernel[1])
        weight = em.emit(hint + "_tap", f"kf.slice %{taps.name} starts [0, {kh}, {kw}] ends "
                                        f"[{big}, {kh + 1}, {kw + 1}] steps [1, 1, 1] : "
                                        f"{taps.type}", KfType((c, 1, 1), taps.type.dtype))
        term = em.binary("mul", view, weight, hint=hint + "_term")
        y = term if y is None else em.binary("add", y, term, hint=hint + "_sum")
    if y is None:  # every position reads padding only: zeros
        y = em.constant(hint + "_zeros", 0.0, padded.type.dtype,
                        tuple(padded.type.shape[:2]) + tuple(out))
    if bias is not None:
        y = em.binary("add", y, em.reshape(bias, [c, 1, 1], hint=hint + "_bias"),
                      hint=hint + "_add")
    return y


def _pool_args(node, default_stride_is_kernel=True):
    kernel = _pair(node.args[1])
    stride = _pair(node.args[2]) if len(node.args) > 2 and node.args[2] else kernel
    padding = _pair(node.args[3]) if len(node.args) > 3 else [0, 0]
    return kernel, stride, padding


@handles("max_pool2d_with_indices", "max_pool2d")
def max_pool2d(ctx, node):
    x = ctx.value(node.args[0])
    kernel, stride, padding = _pool_args(node)
    dilation = _pair(node.args[4]) if len(node.args) > 4 else [1, 1]
    ceil_mode = bool(node.args[5]) if len(node.args) > 5 else False
    if not x.type.is_float or x.type.rank != 4:
        raise UnsupportedOp(f"max_pool2d of {x.type} (kf takes float NCHW)")
    _static(x, "max_pool2d")
    n, c, h, w = x.type.shape
    out = tuple(_out_size(s, k, st, p, d, ceil_mode)
                for s, k, st, p, d in zip((h, w), kernel, stride, padding, dilation))
    # ceil_mode's last window may run past the padding: pad further with -inf.
    extra = [max(0, (o - 1) * st + d * (k - 1) + 1 - (s + 2 * p))
             for o, st, d, k, s, p in zip(out, stride, dilation, kernel, (h, w), padding)]
    hint = node.name
    padded = _pad(ctx, x, padding, -np.inf, hint + "_pad")
    if any(extra):
        shape = list(padded.type.shape)
        for dim, e in ((2, extra[0]), (3, extra[1])):
            if e:
                shape[dim] = e
                edge = ctx.em.constant(hint + "_tail", -np.inf, x.type.dtype, shape)
                padded = _cat(ctx, [padded, edge], dim, hint + "_pad")
                shape = list(padded.type.shape)
    views = _windows(ctx, padded, kernel, stride, dilation, out, hint + "_win")
    y = views[0]
    for v in views[1:]:
        y = ctx.em.binary("maximum", y, v, hint=hint)
    if ctx.name == "max_pool2d":
        return y

    def indices():
        raise UnsupportedOp("the indices of max_pool2d_with_indices (kf returns the values only)")
    return (y, indices)


def _avg(ctx, x, kernel, stride, padding, ceil_mode, count_include_pad, divisor, hint):
    if not x.type.is_float or x.type.rank != 4:
        raise UnsupportedOp(f"avg_pool2d of {x.type} (kf takes float NCHW)")
    _static(x, "avg_pool2d")
    n, c, h, w = x.type.shape
    out = tuple(_out_size(s, k, st, p, 1, ceil_mode)
                for s, k, st, p in zip((h, w), kernel, stride, padding))
    if ceil_mode:
        raise UnsupportedOp("avg_pool2d with ceil_mode=True")
    padded = _pad(ctx, x, padding, 0.0, hint + "_pad")
    views = _windows(ctx, padded, kernel, stride, (1, 1), out, hint + "_win")
    total = views[0]
    for v in views[1:]:
        total = ctx.em.binary("add", total, v, hint=hint + "_sum")
    if divisor:
        counts = np.full(out, float(divisor))
    elif count_include_pad:
        counts = np.full(out, float(kernel[0] * kernel[1]))
    else:  # the real (unpadded) elements of each window, counted here
        rows = [min(o * stride[0] - padding[0] + kernel[0], h) - max(o * stride[0] - padding[0], 0)
                for o in range(out[0])]
        cols = [min(o * stride[1] - padding[1] + kernel[1], w) - max(o * stride[1] - padding[1], 0)
                for o in range(out[1])]
        counts = np.outer(rows, cols).astype(np.float64)
    if np.all(counts == counts.flat[0]):
        d = ctx.em.scalar(float(counts.flat[0]), x.type.dtype, hint="cst")
    else:
        d = ctx.em.constant(hint + "_count", counts, x.type.dtype, counts.shape)
    return ctx.em.binary("div", total, d, hint=hint)


@handles("avg_pool2d")
def avg_pool2d(ctx, node):
    x = ctx.value(node.args[0])
    kernel, stride, padding = _pool_args(node)
    a = list(node.args) + [None] * 8
    ceil_mode = bool(a[4] or node.kwargs.get("ceil_mode", False))
    include = a[5] if a[5] is not None else node.kwargs.get("count_include_pad", True)
    divisor = a[6] if a[6] is not None else node.kwargs.get("divisor_override")
    return _avg(ctx, x, kernel, stride, padding, ceil_mode, include, divisor, node.name)


@handles("_adaptive_avg_pool2d", "adaptive_avg_pool2d")
def adaptive_avg_pool2d(ctx, node):
    x = ctx.value(node.args[0])
    _static(x, "adaptive_avg_pool2d")
    h, w = x.type.shape[-2:]
    oh, ow = _pair(node.args[1])
    oh, ow = oh or h, ow or w
    if h % oh or w % ow:
        raise UnsupportedOp(f"adaptive_avg_pool2d from {h}x{w} to {oh}x{ow} (kf takes sizes "
                            "that divide: windows of one size)")
    k = [h // oh, w // ow]
    return _avg(ctx, x, k, k, [0, 0], False, True, None, node.name)
