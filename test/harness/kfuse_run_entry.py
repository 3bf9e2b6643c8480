"""Runs one entry of a kfuse library with kfuse-run on the CPU, on numpy
inputs saved as .npy files in `work`, and returns its first result: what
the Runtime tests' scripts that compare a library with numpy share."""
import os
import subprocess

import numpy as np


def run_entry(kfuse_run, lib, entry, inputs, work, tag="", extra=()):
    stem = os.path.join(work, f"{entry}_{tag}" if tag else entry)
    args = [kfuse_run, lib, "--entry", entry, "--device=cpu", "--repeat=0", *extra]
    for k, a in enumerate(inputs):
        path = f"{stem}_arg{k}.npy"
        np.save(path, a)
        args += ["--input", f"arg{k}={path}"]
    result = f"{stem}_r.npy"
    args += ["--output", f"result0={result}"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return np.load(result)
