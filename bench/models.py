"""The GPT-2 block and the Llama MLP sublayer of the matmul issue (25), for
kfuse-import --model NAME: f32, weights from torch.manual_seed(0).

    importer/kfuse-import bench/models.py --model gpt2_block -o gpt2.mlir
    kfuse-run gpt2.mlir --check --seed 1

The sizes are issue 25's (B8 T512 D768, 12 heads; 4096 rows of 2048 -> 5632)
unless the environment says otherwise: GPT2_B, GPT2_T, GPT2_D, LLAMA_ROWS,
LLAMA_D, LLAMA_HIDDEN (test/Runtime/check-models.mlir runs them small)."""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

B = int(os.environ.get("GPT2_B", 8))
T = int(os.environ.get("GPT2_T", 512))
D = int(os.environ.get("GPT2_D", 768))
ROWS = int(os.environ.get("LLAMA_ROWS", 4096))
LLAMA_D = int(os.environ.get("LLAMA_D", 2048))
LLAMA_HIDDEN = int(os.environ.get("LLAMA_HIDDEN", 5632))


class GPT2Block(nn.Module):
    """Pre-norm: x + attn(ln_1(x)), then + mlp(ln_2(.)); fused qkv Linear,
    head split, causal additive mask, softmax, head merge, GELU MLP."""

    def __init__(self, d=D, heads=12):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, 3 * d)
        self.attn_proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = nn.Linear(d, 4 * d)
        self.mlp_proj = nn.Linear(4 * d, d)

    def forward(self, x, mask):
        b, t, d = x.shape
        hd = d // self.heads
        q, k, v = self.c_attn(self.ln_1(x)).split(d, dim=2)
        q = q.view(b, t, self.heads, hd).transpose(1, 2)
        k = k.view(b, t, self.heads, hd).transpose(1, 2)
        v = v.view(b, t, self.heads, hd).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd) + mask
        y = torch.matmul(torch.softmax(att, dim=-1), v)
        y = y.transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.attn_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))


class LlamaMLP(nn.Module):
    """RMSNorm, SwiGLU (w2(silu(w1 x) * w3 x)), residual."""

    def __init__(self, d=LLAMA_D, hidden=LLAMA_HIDDEN):
        super().__init__()
        self.norm = nn.RMSNorm(d, eps=1e-6)
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        h = self.norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


def _seeded(make):
    def factory():
        torch.manual_seed(0)
        return make().eval()
    return factory


def _mask():
    return torch.triu(torch.full((T, T), float("-inf")), diagonal=1)


MODELS = {
    "gpt2_block": (_seeded(GPT2Block), lambda: (torch.randn(B, T, D), _mask()), None),
    "llama_mlp": (_seeded(LlamaMLP), lambda: (torch.randn(ROWS, LLAMA_D),), None),
}
