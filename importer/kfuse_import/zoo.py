"""The model catalogue shared by the importer's tests and the benchmarks.

MODELS maps a stable name to (factory, example_inputs, dynamic_shapes):
  factory()         -> a torch.nn.Module in eval mode, weights seeded so that
                       every process builds the same one;
  example_inputs()  -> a tuple of tensors, the arguments of forward();
  dynamic_shapes    -> None, or the torch.export dynamic_shapes spec of forward()'s
                       arguments (a tuple, one entry an argument).
Sizes are small so that the tests stay fast; a benchmark scales them itself.
TOLERANCES gives each model's (rtol, atol) against PyTorch's own outputs, or
"float64": within 10x PyTorch's float32 error against the model in float64.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _seeded(make):
    """Builds make() under a fixed seed, in eval mode (no dropout, BN stats)."""
    def factory():
        torch.manual_seed(0)
        return make().eval()
    factory.__name__ = make.__name__
    return factory


def _randn(*shape, dtype=torch.float32, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


class MLP(nn.Module):
    """Two linear layers with a ReLU between: the README's example."""

    def __init__(self, d_in=32, d_hidden=64, d_out=16):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class Attention(nn.Module):
    """Multi-head self-attention: softmax(q k^T / sqrt(d)) v with projections."""

    def __init__(self, d_model=32, heads=2):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, s, d = x.shape
        hd = d // self.heads

        def split(t):  # [b, s, d] -> [b, heads, s, hd]
            return t.view(b, s, self.heads, hd).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd)
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.out(ctx.transpose(1, 2).reshape(b, s, d))


class RMSNormManual(nn.Module):
    """RMSNorm written out: x * rsqrt(mean(x^2) + eps) * w."""

    def __init__(self, d=32, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.rand(d) + 0.5)

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class GeluMLP(nn.Module):
    def __init__(self, d=32, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class SwiGLU(nn.Module):
    """The LLaMA feed-forward: w2(silu(w1 x) * w3 x), no biases."""

    def __init__(self, d=32, hidden=64):
        super().__init__()
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class ResidualBlock(nn.Module):
    """Pre-norm residual block: x + fc2(gelu(fc1(layer_norm(x))))."""

    def __init__(self, d=32, hidden=64):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class CrossEntropyHead(nn.Module):
    """A linear classifier and its mean cross-entropy loss on int64 targets."""

    def __init__(self, d=32, classes=10):
        super().__init__()
        self.fc = nn.Linear(d, classes)

    def forward(self, x, target):
        return F.cross_entropy(self.fc(x), target)


class BasicBlock(nn.Module):
    """torchvision's ResNet BasicBlock: two 3x3 convolutions with batch
    norm, a 1x1 strided projection where the shape changes."""

    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.down = None
        if stride != 1 or c_in != c_out:
            self.down = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False),
                                      nn.BatchNorm2d(c_out))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class TinyResNet(nn.Module):
    """ResNet-18's layers at a small size, as torchvision writes them: a 7x7
    stride-2 stem, batch norm, max pooling, basic blocks, adaptive average
    pooling and a linear classifier (the batch norms' statistics seeded, not
    the identity)."""

    def __init__(self, width=8, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 7, 2, 3, bias=False)
        self.bn = nn.BatchNorm2d(width)
        self.layer1 = BasicBlock(width, width, 1)
        self.layer2 = BasicBlock(width, 2 * width, 2)
        self.fc = nn.Linear(2 * width, classes)
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.stem(x))), 3, 2, 1)
        x = self.layer2(self.layer1(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class TinyGPT2(nn.Module):
    """GPT-2's layers at a small size: token and position embeddings (rows
    of tables), pre-norm blocks of causal F.scaled_dot_product_attention and
    a tanh-GELU MLP, a final layer norm and a head tied to the token table."""

    def __init__(self, vocab=50, d=32, heads=2, layers=2, ctx=16):
        super().__init__()
        self.heads = heads
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(nn.ModuleDict({
            "ln1": nn.LayerNorm(d), "qkv": nn.Linear(d, 3 * d), "proj": nn.Linear(d, d),
            "ln2": nn.LayerNorm(d), "fc": nn.Linear(d, 4 * d), "out": nn.Linear(4 * d, d),
        }) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)

    def forward(self, tokens):
        b, t = tokens.shape
        x = self.wte(tokens) + self.wpe(torch.arange(t))
        for blk in self.blocks:
            q, k, v = blk["qkv"](blk["ln1"](x)).split(x.shape[-1], dim=-1)
            q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + blk["proj"](a.transpose(1, 2).reshape(b, t, -1))
            x = x + blk["out"](F.gelu(blk["fc"](blk["ln2"](x)), approximate="tanh"))
        return self.ln_f(x) @ self.wte.weight.t()


def _batch():
    return torch.export.Dim("batch", min=1, max=4096)


MODELS = {
    "mlp": (_seeded(MLP), lambda: (_randn(8, 32),), None),
    "attention": (_seeded(Attention), lambda: (_randn(2, 8, 32),), None),
    "layer_norm": (_seeded(lambda: nn.LayerNorm(32)), lambda: (_randn(4, 8, 32),), None),
    "rms_norm": (_seeded(RMSNormManual), lambda: (_randn(4, 8, 32),), None),
    "rms_norm_module": (_seeded(lambda: nn.RMSNorm(32, eps=1e-6)), lambda: (_randn(4, 8, 32),),
                        None),
    "gelu_mlp": (_seeded(GeluMLP), lambda: (_randn(8, 32),), None),
    "swiglu_mlp": (_seeded(SwiGLU), lambda: (_randn(8, 32),), None),
    "residual_block": (_seeded(ResidualBlock), lambda: (_randn(2, 8, 32),), None),
    "cross_entropy": (_seeded(CrossEntropyHead),
                      lambda: (_randn(8, 32), torch.randint(0, 10, (8,), generator=torch.Generator().manual_seed(2))),
                      None),
    "mlp_dynamic_batch": (_seeded(MLP), lambda: (_randn(8, 32),), ({0: _batch()},)),
    "layer_norm_bf16": (_seeded(lambda: nn.LayerNorm(32).to(torch.bfloat16)),
                        lambda: (_randn(4, 32, dtype=torch.bfloat16),), None),
    "gelu_mlp_f16": (_seeded(lambda: GeluMLP().to(torch.float16)),
                     lambda: (_randn(8, 32, dtype=torch.float16),), None),
    "tiny_resnet": (_seeded(TinyResNet), lambda: (_randn(2, 3, 32, 32),), None),
    "tiny_gpt2": (_seeded(TinyGPT2),
                  lambda: (torch.randint(0, 50, (2, 16), generator=torch.Generator().manual_seed(3)),),
                  None),
}

# (rtol, atol) of kfuse's outputs against PyTorch's, by model.
TOLERANCES = {name: (1e-5, 1e-5) for name in MODELS}
TOLERANCES.update({"layer_norm_bf16": (2e-2, 2e-2), "gelu_mlp_f16": (2e-3, 2e-3)})
# Deeper models: against the model in float64, within 10x PyTorch's own
# float32 error there (an elementwise tolerance would be tuned to one CPU).
TOLERANCES.update({"tiny_resnet": "float64", "tiny_gpt2": "float64"})
