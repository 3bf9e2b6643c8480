"""Writes the .npy files of npy-headers.mlir into the directory argv[1] and
prints what numpy makes of each (the independent reference): headers numpy
refuses, headers it reads otherwise than a lax parser would, headers it
reads as written, and a bool array whose bytes are not all 0 or 1."""
import os
import struct
import sys

import numpy as np

data = np.arange(6, dtype=np.float32).tobytes()  # [[0, 1, 2], [3, 4, 5]] as (2, 3)


def npy(name, header, payload=data):
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    path = os.path.join(sys.argv[1], name)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)
    try:
        a = np.load(path)
        print(f"numpy {name}: shape {a.shape} fortran {np.isfortran(a)} sums {a.sum(axis=-1).tolist()}")
    except ValueError:
        print(f"numpy {name}: refused")


# Refused by numpy: a key it does not know (fortran_order only inside a
# string), fortran_order a string or 1, shape an int, a key not a string.
npy("instring.npy", "{'descr': '<f4', 'note': \"'fortran_order': False\", 'shape': (2, 3), }")
npy("strvalue.npy", "{'descr': '<f4', 'fortran_order': 'False', 'shape': (2, 3), }")
npy("one.npy", "{'descr': '<f4', 'fortran_order': 1, 'shape': (2, 3), }")
npy("intshape.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6), }")
npy("nokey.npy", "{'descr': '<f4', 'fortran_order': False, }")
npy("listshape.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }")
# Read otherwise by numpy: a repeated key keeps its last value.
npy("twoshapes.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), 'shape': (2, 3), }")
npy("twoorders.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'fortran_order': True, }")
# Read as written: double quotes, no trailing comma, newlines and tabs
# between the items, the keys in another order.
npy("spelled.npy", '{"shape": (2,\t3),\n "fortran_order": False, "descr": "<f4"}')
# A bool array holding the bytes 2, 1, 0, 255: numpy (and torch) read any
# byte but 0 as True.
npy("bool.npy", "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", bytes([2, 1, 0, 255]))
