"""Small modules, one a family of aten ops, for kfuse-import's tests:
ops.mlir checks the kf text of each, ops-e2e.mlir runs each with kfuse-run
against PyTorch. OPS maps a name to (module, example inputs, dynamic_shapes)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _rand(*shape, seed=0, low=-2.0, high=2.0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(*shape, generator=g) * (high - low) + low).to(dtype)


def _ints(*shape, low=-8, high=9, seed=0, dtype=torch.int32):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(low, high, shape, generator=g).to(dtype)


class Fn(nn.Module):
    """A module around a function of the inputs (no weights)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def arithmetic(x, y, i, j):
    return (torch.add(x, y, alpha=2), x - 1.5, 3 - x, x * y, x / y, i / j, i // j, x // y,
            torch.maximum(x, y), torch.minimum(x, y), x.pow(2), x.abs().pow(y), 2 ** x,
            torch.remainder(i, j), torch.remainder(x, y), i + 1, i * 2.5, x.square())


def unary(x):
    p = x.abs() + 0.5
    return (-x, x.abs(), x.relu(), x.exp(), p.log(), p.sqrt(), p.rsqrt(), x.tanh(), x.sigmoid(),
            x.sin(), x.cos(), p.reciprocal(), x.exp2(), p.log1p(), x.expm1(), x.erf(),
            x.floor(), x.ceil(), x.round())


def activations(x):
    return (F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x), F.leaky_relu(x, 0.1),
            F.hardtanh(x), F.relu6(x), x.clamp(-0.5, 0.5), x.clamp(min=0.25),
            torch.clamp(x, max=x.mean()))


def compare_select(x, y, i):
    return (x == y, x != 0.5, x < y, x <= 0, x > y, x >= 1, torch.where(x > 0, x, y),
            torch.where(x > y, 1.0, 0.0), torch.where(i > 0, i, 0), (x > 0) & (y > 0),
            (x > 0) | (y > 0), ~(x > 0))


def casts(x, i, b):
    return (x.to(torch.int32), i.to(torch.float32), b.to(torch.float32), x.to(torch.float16),
            x.half().to(torch.bfloat16).float(), i.to(torch.int64), x.to(torch.bool), b.long())


def reductions(x, i):
    return (x.sum(1), x.sum(), x.sum((0, 2), keepdim=True), i.sum(-1), x.mean(-1, keepdim=True),
            x.mean(), x.amax(1), x.amin((1, 2)), x.max(), x.min(), torch.var(x, 2, correction=0),
            x.std(1), x.var(), torch.std(x, dim=(1, 2), keepdim=True))


def any_all(x, i, b):
    return (x.any(1), b.all(), (x > 0).any(-1, keepdim=True), b.any((0, 1)), i.all(0), b.any(),
            x.all(-1), b.all(2))


def attention(q, k, v, mask):
    hidden = mask & (torch.arange(6) != 2)[:, None]  # query 2 sees no key
    additive = torch.where(hidden, 0.0, float("-inf")) + 0.25 * q[0, 0, :, :6]
    return (F.scaled_dot_product_attention(q, k, v),
            F.scaled_dot_product_attention(q, k, v, is_causal=True),
            F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
            F.scaled_dot_product_attention(q, k, v, attn_mask=hidden),
            F.scaled_dot_product_attention(q, k, v, attn_mask=additive, scale=0.3),
            F.scaled_dot_product_attention(q, k[:, :1], v[:, :1], is_causal=True,
                                           enable_gqa=True),
            F.scaled_dot_product_attention(q[:, :, :4], k, v, is_causal=True))


def _with_zeros(x, every=3):
    x = x.clone()
    x.view(-1)[::every] = 0
    return x


def arg_reductions(x, i):
    values, indices = x.max(dim=1)
    low, where = x.min(dim=-1, keepdim=True)
    return values, indices, low, where, x.argmax(-1), x.argmin(0), i.argmax(1), x.argmax()


def views(x):
    a = x.view(4, 6).t()
    b = x.permute(2, 0, 1).reshape(-1, 2)
    c = x.transpose(0, 1).contiguous()
    d = x.unsqueeze(1).squeeze(1).expand(3, 2, 3, 4)
    e = x[:, 1:, ::2]
    f = x[1]
    g = torch.cat([x, x * 2], dim=-1)
    h0, h1 = x.chunk(2, dim=-1)
    k = torch.stack([x, x], 0).flatten(0, 1)
    # h0 and h1 returned as they are (test/Regression/returned-slice.mlir).
    return a, b, c, d, e, f, g, h0, h1, k


def matmuls(a, b, v, bb):
    return (torch.mm(a, b), a @ b, torch.bmm(bb, bb.transpose(1, 2)), a @ v, v @ b, v @ v,
            torch.addmm(b[0], a, b, beta=0.5, alpha=2.0), torch.matmul(bb, b.t()))


def constants(x):
    return x + torch.arange(4), x * torch.tensor([1.0, -1.0, 2.0, 0.5]), torch.full((2, 4), 3.0) + x


class Norms(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.ln = nn.LayerNorm(8)
        self.ln_plain = nn.LayerNorm(8, elementwise_affine=False, eps=1e-3)
        self.rms = nn.RMSNorm(8, eps=1e-6)
        self.bn = nn.BatchNorm1d(3)
        self.bn.running_mean.uniform_(-1, 1)
        self.bn.running_var.uniform_(0.5, 2)

    def forward(self, x, y):
        return (self.ln(x), self.ln_plain(x), self.rms(x), F.rms_norm(x, (8,)), self.bn(y),
                torch.softmax(x, -1), torch.log_softmax(x, 1), F.softmax(x, 0))


def losses(logits, target, logp, weight):
    ignored = torch.where(target == 1, -100, target)
    return (F.cross_entropy(logits, target), F.cross_entropy(logits, ignored, reduction="sum"),
            F.cross_entropy(logits, target, reduction="none"), F.nll_loss(logp, target, weight),
            F.nll_loss(logp, ignored, ignore_index=-100))


class Dynamic(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        h = self.fc(x.view(x.shape[0], 2, 8)).relu()
        # A head split as Hugging Face writes it (view(*input_shape, -1,
        # head_dim)): the batch and a -1 in the sizes, the -1 known (2).
        heads = x.view(x.shape[0], 2, -1, 4)
        return h.sum(1), h.reshape(-1, 8), torch.softmax(h, -1), heads.sum(-1)


class Constants(nn.Module):
    """Weights kept inside the program with weights='constants'."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, -4.5]]))
        self.register_buffer("scale", torch.full((2,), 0.25))

    def forward(self, x):
        return x @ self.w * self.scale


def misc(x, y):
    v, m = torch.var_mean(x, 1, correction=0)
    a, b = x.split(3, dim=1)[:2]
    return (v, m, torch.div(x, y, rounding_mode="trunc"), torch.zeros_like(x) + 1,
            torch.ones(2, 1) * x[-1], torch.logical_not(x > 0.5), x.clamp(y - 1, y),
            torch.std_mean(x, 0)[0], a * b, x.new_full((3, 3), 2.0) - x[:, :3])


class Gathers(nn.Module):
    """Token and position embeddings (nn.Embedding), index_select and
    gather: kf.index_select and kf.gather, never a one-hot matmul."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.wte = nn.Embedding(11, 8)
        self.wpe = nn.Embedding(6, 8)

    def forward(self, tok, x, cols):
        h = self.wte(tok) + self.wpe(torch.arange(tok.shape[1]))
        rows = cols.view(1, -1).expand(x.shape[0], -1)
        return (h, F.layer_norm(h, (8,)), torch.index_select(x, 1, cols),
                torch.gather(x, 1, rows), self.wte(cols).sum(-1), x[:, cols.view(2, 2)],
                self.wte.weight[tok])


class Convs(nn.Module):
    """Convolutions (strided, padded, dilated, depthwise, grouped, 1-D) and
    pooling (max with ceil_mode, average with and without the padding
    counted, adaptive), written out as kf slices, cats and matmuls."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.dw = nn.Conv2d(8, 8, 3, padding=2, dilation=2, groups=8)
        self.g2 = nn.Conv2d(8, 6, (1, 3), padding=(0, 1), groups=2, bias=False)
        self.c1d = nn.Conv1d(4, 5, 3, stride=2, padding=1)
        # ConvNeXt's depthwise 7x7 (strided here, no bias; also over a 1x1
        # input, as ConvNeXt's last stage at 32x32 images), a depthwise
        # channel multiplier of 2 (an im2col GEMM: not one filter a
        # channel), a depthwise 1-D convolution.
        self.dw7 = nn.Conv2d(8, 8, 7, stride=2, padding=3, groups=8, bias=False)
        self.dw_x2 = nn.Conv2d(8, 16, 3, padding=1, groups=8)
        self.dw1d = nn.Conv1d(4, 4, 5, padding=2, groups=4)
        # Patch embeddings (stride = kernel): 4x4 patches of the 15x16
        # input (its last 3 rows in no patch; 12 positions: the rows form),
        # and 1x2 patches (120 positions: the columns form).
        self.patch = nn.Conv2d(3, 8, 4, stride=4)
        self.patch_wide = nn.Conv2d(3, 5, (1, 2), stride=(1, 2))

    def forward(self, x, s):
        y = self.c1(x).relu()
        z = self.dw(y)
        return (y, z, self.g2(z), F.max_pool2d(y, 3, 2, 1), F.max_pool2d(y, 2, ceil_mode=True),
                F.avg_pool2d(y, 3, 2, 1), F.avg_pool2d(y, 3, 2, 1, count_include_pad=False),
                F.adaptive_avg_pool2d(y, 1), F.adaptive_avg_pool2d(y, (2, 4)), self.c1d(s),
                self.dw7(y), self.dw_x2(y), self.dw1d(s),
                # 7x7 over a 1x1 input: 48 of 49 positions read padding only.
                self.dw7(F.adaptive_avg_pool2d(y, 1)), self.patch(x), self.patch_wide(x))


_batch = torch.export.Dim("batch", min=2, max=1024)
OPS = {
    "arithmetic": (lambda: Fn(arithmetic),
                   lambda: (_rand(4, 8), _rand(4, 8, seed=1, low=0.5, high=2.0),
                            _ints(4, 8), _ints(4, 8, low=1, high=5, seed=2)), None),
    "unary": (lambda: Fn(unary), lambda: (_rand(4, 8),), None),
    "activations": (lambda: Fn(activations), lambda: (_rand(4, 8, low=-4, high=4),), None),
    "compare_select": (lambda: Fn(compare_select),
                       lambda: (_rand(4, 8), _rand(4, 8, seed=1), _ints(4, 8)), None),
    "casts": (lambda: Fn(casts),
              lambda: (_rand(4, 8, low=-9, high=9), _ints(4, 8), _rand(4, 8) > 0), None),
    "reductions": (lambda: Fn(reductions), lambda: (_rand(2, 3, 8), _ints(2, 8)), None),
    "arg_reductions": (lambda: Fn(arg_reductions), lambda: (_rand(2, 3, 8), _ints(2, 8)), None),
    # Zeros in x and i (every 3rd, every 5th element), a sparse bool b: rows
    # and columns both with and without a true (a false) element.
    "any_all": (lambda: Fn(any_all),
                lambda: (_with_zeros(_rand(4, 6)), _with_zeros(_ints(5, 6, low=1), every=5),
                         _rand(3, 4, 5) > 1.2), None),
    # F.scaled_dot_product_attention imported as itself (ops_attention.py):
    # no mask, causal (also with fewer queries than keys), a bool mask, one
    # that hides every key of a query (zeros, as PyTorch), an additive mask
    # with -inf and a scale, grouped-query heads (3 over 1).
    "attention": (lambda: Fn(attention),
                  lambda: (_rand(2, 3, 6, 8), _rand(2, 3, 6, 8, seed=1), _rand(2, 3, 6, 8, seed=2),
                           (_rand(6, 6, seed=3) > -1.0) | torch.eye(6, dtype=torch.bool)), None),
    "views": (lambda: Fn(views), lambda: (_rand(2, 3, 4),), None),
    "matmuls": (lambda: Fn(matmuls),
                lambda: (_rand(4, 8), _rand(8, 6, seed=1), _rand(8, seed=2),
                         _rand(2, 4, 6, seed=3)), None),
    "constants": (lambda: Fn(constants), lambda: (_rand(2, 4),), None),
    "norms": (Norms, lambda: (_rand(2, 4, 8), _rand(4, 3, 5, seed=1)), None),
    "losses": (lambda: Fn(losses),
               lambda: (_rand(6, 5), torch.tensor([0, 1, 4, 2, 1, 3]),
                        torch.log_softmax(_rand(6, 5, seed=1), 1), _rand(5, low=0.5, high=1.5)),
               None),
    "misc": (lambda: Fn(misc), lambda: (_rand(3, 8), _rand(3, 8, seed=1, low=0.5)), None),
    # pow by the exponents kf computes without pow (kf's canonicalization,
    # as PyTorch's own kernels): 3, 0.5, -0.5, -1, -2, and 2 of an integer.
    "powers": (lambda: Fn(lambda x, p, i: (x.pow(3), p.pow(0.5), p.pow(-0.5), x.pow(-1),
                                           x.pow(-2), i.pow(2), torch.pow(x, 3.0) * 0.044715)),
               lambda: (_rand(4, 9), _rand(4, 9, seed=1, low=0.25, high=4.0), _ints(4, 9)), None),
    "gathers": (Gathers,
                lambda: (_ints(2, 6, low=0, high=11, dtype=torch.int64), _rand(3, 5),
                         torch.tensor([4, 0, 2, 2])), None),
    # torch.cumsum: floats along each dim, a bool mask's position ids (the
    # transformers mask builders' arithmetic), integers (int64 sums),
    # dtype=, and a 0-d input (the input itself).
    "scans": (lambda: Fn(lambda x, m, i: (
        torch.cumsum(x, 1), x.cumsum(-1), torch.cumsum(x * 2, 0) + 1,
        (m.long().cumsum(-1) - 1).masked_fill(m == 0, 1), torch.cumsum(i, 0),
        torch.cumsum(i, 1, dtype=torch.float32), torch.cumsum(x[0, 0, 0], 0))),
        lambda: (_rand(2, 3, 8), _rand(3, 16) > 0, _ints(4, 5)), None),
    "convs": (Convs, lambda: (_rand(2, 3, 15, 16), _rand(2, 4, 9, seed=1)), None),
    "dynamic": (Dynamic, lambda: (_rand(4, 16),), ({0: _batch},)),
    "bf16_f16": (lambda: Fn(lambda x, h: (x * 2 + 1, (h * h).sum(-1), torch.softmax(x, -1),
                                          F.layer_norm(h, (8,)))),
                 lambda: (_rand(4, 8, dtype=torch.bfloat16), _rand(4, 8, dtype=torch.float16)),
                 None),
}
