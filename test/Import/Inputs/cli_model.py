"""A model file as kfuse-import reads it: model() and example_inputs()."""
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return torch.sigmoid(self.fc(x)) * 2


def model():
    torch.manual_seed(0)
    return Scale()


def example_inputs():
    return (torch.randn(5, 4),)
