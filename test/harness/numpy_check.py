#!/usr/bin/env python3
"""Checks what an executed kfuse test printed against numpy.

The test file carries its own reference computation in `// NUMPY:` lines:
python run with numpy as `np` and a function `expect(array, rtol=, atol=)`
that records the next value the program must print. The program's output
(read from stdin) is a sequence of printMemref* blocks; each is compared, in
order, with the recorded arrays: same shape, values within the tolerance
(NaNs must match NaNs, infinities must match exactly).

Exit 0 and "numpy-check: N arrays match" when all match; exit 1 with the
first difference otherwise.
"""
import re
import sys

import numpy as np

HEADER = re.compile(r"Unranked Memref base@ = \S+ rank = (\d+) offset = \d+ "
                    r"sizes = \[([0-9, ]*)\] strides = \[[0-9, ]*\] data =")
NUMBER = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


def printed_arrays(text):
    """[(shape, values)] for every printMemref block in `text`."""
    blocks = []
    matches = list(HEADER.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end():end]
        sizes = [int(s) for s in m.group(2).replace(" ", "").split(",") if s]
        values = [float(v) for v in NUMBER.findall(body)]
        blocks.append((tuple(sizes), np.array(values, dtype=np.float64)))
    return blocks


def numpy_lines(test_path):
    for line in open(test_path, encoding="utf-8"):
        _, sep, code = line.partition("// NUMPY:")
        if sep:
            yield code[1:] if code.startswith(" ") else code.rstrip("\n")


def expected_arrays(test_path):
    source = "\n".join(line.rstrip("\n") for line in numpy_lines(test_path))
    recorded = []

    def expect(value, rtol=1e-4, atol=1e-5):
        recorded.append((np.asarray(value), rtol, atol))

    np.seterr(all="ignore")  # a test may mean to overflow to inf
    exec(compile(source, test_path + " (NUMPY lines)", "exec"),
         {"np": np, "expect": expect})
    return recorded


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: numpy_check.py TEST_FILE < program-output")
    output = sys.stdin.read()
    got = printed_arrays(output)
    want = expected_arrays(sys.argv[1])
    if len(got) != len(want):
        print(f"numpy-check: the program printed {len(got)} arrays, the test "
              f"expects {len(want)}\n--- output ---\n{output}")
        return 1
    for k, ((shape, values), (ref, rtol, atol)) in enumerate(zip(got, want)):
        if shape != ref.shape:
            print(f"numpy-check: array #{k} has shape {shape}, numpy gives {ref.shape}")
            return 1
        ref = ref.astype(np.float64).ravel()
        # The runtime prints 6 significant digits: compare at that precision.
        close = np.isclose(values, ref, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            i = int(np.argmin(close))
            print(f"numpy-check: array #{k} differs at flat index {i}: printed "
                  f"{values[i]!r}, numpy gives {ref[i]!r}\n  printed {values}\n"
                  f"  numpy   {ref}")
            return 1
    print(f"numpy-check: {len(got)} arrays match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
