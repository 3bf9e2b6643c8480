"""A model whose unsupported op (sort) is in a helper function, two calls
below forward(), in a submodule: kfuse-import names the op's own line and
the calls that led there."""
import torch


def ascending(y):
    return torch.sort(y, dim=-1).values


def doubled_sorted(x):
    y = x * 2
    return ascending(y) + 1


class Inner(torch.nn.Module):
    def forward(self, x):
        return doubled_sorted(x)


class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x).relu()


def model():
    return Outer()


def example_inputs():
    return (torch.randn(3, 5),)
