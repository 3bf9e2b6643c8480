"""Modules kfuse-import refuses, each with the UnsupportedOp it raises
(its op, its source line and its message), for refuse.mlir."""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "importer"))
import kfuse_import  # noqa: E402


class Cumprod(nn.Module):
    def forward(self, x):
        return torch.cumprod(x, 0)


class IntGather(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.arange(40).view(10, 4))

    def forward(self, i):
        return torch.index_select(self.table, 0, i)


class TrainingBatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.bn(x)


class Smoothing(nn.Module):
    def forward(self, x, t):
        return F.cross_entropy(x, t, label_smoothing=0.1)


class DynamicArgmax(nn.Module):
    def forward(self, x):
        return x.argmax(0)


class IntTrunc(nn.Module):
    def forward(self, a, b):
        return torch.div(a, b, rounding_mode="trunc")


class Bytes(nn.Module):
    def forward(self, x):
        return x + 1


class SizeAsValue(nn.Module):
    def forward(self, x):
        return x * x.shape[0]


def running_total(x):
    return torch.cumprod(x, 0)


class InHelper(nn.Module):
    def forward(self, x):
        return running_total(x * 2)


class Fn(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, *xs):
        return self.f(*xs)


CASES = [
    ("cumprod", Cumprod(), (torch.randn(4, 3),), None),
    ("int_gather", IntGather(), (torch.tensor([1, 2]),), None),
    ("batch_norm_training", TrainingBatchNorm().train(), (torch.randn(4, 3),), None),
    ("label_smoothing", Smoothing(), (torch.randn(4, 3), torch.tensor([0, 1, 2, 0])), None),
    ("argmax_dynamic", DynamicArgmax(), (torch.randn(4, 3),),
     ({0: torch.export.Dim("n", min=2)},)),
    ("int_trunc", IntTrunc(), (torch.tensor([7, -7]), torch.tensor([2, 2])), None),
    ("uint8", Bytes(), (torch.tensor([1, 2], dtype=torch.uint8),), None),
    ("size_as_value", SizeAsValue(), (torch.randn(4, 3),), ({0: torch.export.Dim("n", min=2)},)),
    ("in_helper", InHelper(), (torch.randn(4, 3),), None),
    ("mask_index", Fn(lambda x: x[x > 0]), (torch.randn(4, 3),), None),
    ("two_index_tensors", Fn(lambda x, i: x[i, i]), (torch.randn(4, 3), torch.tensor([0, 2])),
     None),
    ("several", Fn(lambda x: torch.cumprod(x, 0) + torch.sort(x, 1).values + torch.cummax(x, 1).values),
     (torch.randn(4, 3),), None),
]

for name, module, args, dynamic in CASES:
    try:
        kfuse_import.import_module(module, args, dynamic)
        print(f"{name}: imported (expected a refusal)")
    except kfuse_import.UnsupportedOp as e:
        where = os.path.basename(e.where) if e.where else None
        print(f"{name}: UnsupportedOp op={e.op} where={where} reason={e.reason}")
        print(f"  message: {e}")
        if e.others:
            print(f"  others: {', '.join(o.op for o in e.others)}")
        if e.callers:
            print("  callers: " + ", ".join(f"{os.path.basename(at)} in {fn}"
                                           for at, fn, _ in e.callers))
