"""Writes the .npy files of bad-sizes.mlir into the directory argv[1]:
headers numpy writes, with shapes and versions it refuses to load, and
one good array (float32 [[0, 1, 2], [3, 4, 5]]) in versions 2.0 and 3.0."""
import os
import struct
import sys

import numpy as np


def npy(name, shape, version=(1, 0), data=b""):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    prefix = 10 if version[0] < 2 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    size = struct.pack("<H" if version[0] < 2 else "<I", len(header))
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY" + bytes(version) + size + header.encode() + data)


good = np.arange(6, dtype=np.float32).tobytes()
npy("wraps.npy", "(4294967296, 4294967296)")
npy("negative.npy", "(-2, -3)", data=good)
npy("fraction.npy", "(2.9, 3)", data=good)
npy("letter.npy", "('a', 3)", data=good)
npy("huge-dim.npy", "(99999999999999999999, 3)", data=good)
npy("version0.npy", "(2, 3)", (0, 0), good)
npy("version9.npy", "(2, 3)", (9, 0), good)
npy("version2.npy", "(2, 3)", (2, 0), good)
npy("version3.npy", "(2, 3)", (3, 0), good)
