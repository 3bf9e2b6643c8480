"""What @ones of half-reference-sum.mlir printed when kfuse accumulated f16
sums in f16: mlir-runner's output format, for fusion_diff.py --candidate-output."""
import numpy as np

ones = np.ones(4096, np.float16)
total = np.add.accumulate(ones, dtype=np.float16)[-1]  # every partial sum rounded to f16
rows = np.add.accumulate(np.ones(64, np.float16), dtype=np.float16)[-1]  # 64: exact
head = "Unranked Memref base@ = 0x0 rank = {} offset = 0 sizes = {} strides = {} data = "
print(head.format(0, "[]", "[]"))
print(f"[{float(total)}]")
print(head.format(0, "[]", "[]"))
print(f"[{float(np.float16(total / np.float16(4096)))}]")
print(head.format(2, "[64, 1]", "[1, 1]"))
print("[" + ",\n ".join(f"[{float(rows)}]" for _ in range(64)) + "]")
