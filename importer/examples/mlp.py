"""A two-layer MLP for kfuse-import (README's example):

    importer/kfuse-import importer/examples/mlp.py -o mlp.mlir --save-inputs
"""
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, d_in=256, d_hidden=1024, d_out=256):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def model():
    torch.manual_seed(0)
    return MLP()


def example_inputs():
    return (torch.randn(64, 256),)


def dynamic_shapes():
    # The batch is dynamic: the program takes tensor<?x256xf32>.
    return ({0: torch.export.Dim("batch", min=1, max=65536)},)
