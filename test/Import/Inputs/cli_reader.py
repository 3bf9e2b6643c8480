"""A model whose example input is a file in read.inputs/ beside it: the
folder kfuse-import -o read.mlir --save-inputs would replace whole."""
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def model():
    return torch.nn.ReLU()


def example_inputs():
    return (torch.from_numpy(np.load(os.path.join(HERE, "read.inputs", "x.npy"))),)
