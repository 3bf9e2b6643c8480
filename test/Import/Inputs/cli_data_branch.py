"""A model torch.export cannot trace: a Python branch on a tensor's value."""
import torch


class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


def model():
    return Branchy()


def example_inputs():
    return (torch.randn(4),)
