"""Gathers: embedding tables, index_select and gather, as kf.index_select
and kf.gather (never a one-hot matmul)."""
from .errors import UnsupportedOp
from .kftypes import KfType
from .registry import handles


def _check(op, x, index):
    if not x.type.is_float:
        raise UnsupportedOp(f"{op} of {x.type.dtype} values: kf gathers floats "
                            "only (an index out of range shows as NaN)")
    if index.type.dtype not in ("i32", "i64"):
        raise UnsupportedOp(f"{op} with a {index.type.dtype} index (want int32 or int64)")


def _index_select(ctx, node, x, dim, index):
    _check(ctx.name, x, index)
    dim %= max(x.type.rank, 1)
    shape = x.type.shape[:dim] + index.type.shape + x.type.shape[dim + 1:]
    return ctx.em.emit(node.name, f"kf.index_select %{x.name}, %{index.name} dim {dim} : "
                       f"{x.type}, {index.type}", KfType(shape, x.type.dtype))


@handles("embedding")
def embedding(ctx, node):
    # padding_idx, scale_grad_by_freq and sparse only change the gradient.
    weight, indices = ctx.value(node.args[0]), ctx.value(node.args[1])
    return _index_select(ctx, node, weight, 0, indices)


@handles("index_select")
def index_select(ctx, node):
    x, index = ctx.value(node.args[0]), ctx.value(node.args[2])
    return _index_select(ctx, node, x, node.args[1], index)


@handles("gather")
def gather(ctx, node):
    x, index = ctx.value(node.args[0]), ctx.value(node.args[2])
    _check(ctx.name, x, index)
    dim = node.args[1] % max(x.type.rank, 1)
    return ctx.em.emit(node.name, f"kf.gather %{x.name}, %{index.name} dim {dim} : "
                       f"{x.type}, {index.type}", KfType(index.type.shape, x.type.dtype))


@handles("index")
def index(ctx, node):
    # x[..., i, ...] with one tensor index (the others full slices, None):
    # numpy's take along that dim, which kf.index_select is for an index
    # of any rank. Several tensor indices broadcast together (x[i, j]) and
    # boolean masks (a size that depends on the data) are not supported.
    x = ctx.value(node.args[0])
    given = [(d, a) for d, a in enumerate(node.args[1]) if a is not None]
    if len(given) != 1:
        raise UnsupportedOp(f"indexing with {len(given)} index tensors (kf takes one: "
                            "x[i] or x[:, i])")
    d, arg = given[0]
    index = ctx.value(arg)
    if index.type.dtype == "i1":
        raise UnsupportedOp("indexing with a boolean mask (the result's size depends on "
                            "the data)")
    return _index_select(ctx, node, x, d, index)
