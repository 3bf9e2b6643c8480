"""Writes the .npy directories of input-dir.mlir and checks its results.

  input-dir.mlir.py make DIR [ARG ...]   argN.npy for each N given (default
                                         0 1 2), plus files kfuse-run ignores
  input-dir.mlir.py check FILE V,V,...   FILE holds exactly these values
"""
import json
import os
import sys

import numpy as np

VALUES = {0: np.array([1, 2, 3, 4], np.float32), 1: np.array([10, 20, 30, 40], np.float32),
          2: np.array([1.5, -2], np.float32),  # bf16 argument: f32 holding bf16 values
          3: np.array([7], np.float32)}

if sys.argv[1] == "make":
    d = sys.argv[2]
    os.makedirs(d, exist_ok=True)
    for n in [int(a) for a in sys.argv[3:]] or [0, 1, 2]:
        np.save(os.path.join(d, f"arg{n}.npy"), VALUES[n])
    # Not argument files: a manifest, notes, a name with a leading zero.
    with open(os.path.join(d, "kfuse-import.json"), "w") as f:
        json.dump({"generator": "kfuse-import"}, f)
    np.save(os.path.join(d, "arg01.npy"), np.zeros(9, np.float32))
    np.save(os.path.join(d, "args.npy"), np.zeros(9, np.float32))
else:
    got = np.load(sys.argv[2])
    want = np.array([float(v) for v in sys.argv[3].split(",")])
    if got.shape != want.shape or not np.array_equal(got.astype(np.float64), want):
        sys.exit(f"{sys.argv[2]}: {got}, expected {want}")
    print(f"{os.path.basename(sys.argv[2])} = {sys.argv[3]}")
