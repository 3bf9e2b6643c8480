"""Modules whose refused ops read constants only (folded at import), and
modules whose refused ops read an input or a weight (still refused), for
fold.mlir."""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "importer"))
import kfuse_import  # noqa: E402


class Positions(nn.Module):
    """A cumsum of positions made from the sequence length (a mask builder's)."""

    def forward(self, x):
        return x + torch.arange(x.shape[1]).cumsum(0)


class TokenTypes(nn.Module):
    """BERT's token types: an integer gather from non-persistent buffers."""

    def __init__(self):
        super().__init__()
        self.register_buffer("types", torch.tensor([[0, 1, 1, 0, 1]]), persistent=False)
        self.register_buffer("order", torch.tensor([[4, 3, 2, 1, 0]]), persistent=False)
        self.table = nn.Embedding(2, 3)

    def forward(self, x):
        return x + self.table(torch.gather(self.types, 1, self.order))


class CausalMask(nn.Module):
    """A mask builder of ops kf has: small, so computed at import."""

    def forward(self, x):
        n = x.shape[-1]
        keep = torch.arange(n)[:, None] >= torch.arange(n)[None, :]
        return torch.where(keep, x, float("-inf"))


class WeightCumsum(nn.Module):
    """A persistent buffer is a weight: never folded."""

    def __init__(self):
        super().__init__()
        self.register_buffer("w", torch.ones(4))

    def forward(self, x):
        return x + self.w.cumsum(0)


class SizeCumsum(nn.Module):
    def forward(self, x):
        return x + torch.arange(x.shape[0]).cumsum(0)


def show(name, module, args, dynamic=None):
    try:
        text = kfuse_import.import_module(module, args, dynamic, entry=name).text
        print(text)
    except kfuse_import.UnsupportedOp as e:
        print(f"{name}: UnsupportedOp op={e.op} reason={e.reason}")


show("positions", Positions(), (torch.zeros(2, 5, dtype=torch.int64),))
torch.manual_seed(0)
show("token_types", TokenTypes().eval(), (torch.zeros(2, 5, 3),))
show("causal_mask", CausalMask(), (torch.zeros(4, 4),))
show("large_mask", CausalMask(), (torch.zeros(300, 300),))
show("weight_cumsum", WeightCumsum(), (torch.zeros(4),))
show("size_cumsum", SizeCumsum(), (torch.zeros(4),), ({0: torch.export.Dim("n", min=2)},))
show("input_cumsum", type("InputCumsum", (nn.Module,), {"forward": lambda s, x: x.cumsum(0)})(),
     (torch.zeros(4),))
