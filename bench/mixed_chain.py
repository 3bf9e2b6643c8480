#!/usr/bin/env python3
"""Prints a kf function of N ops over tensor<32x64xf32> cycling through
softmax, layer_norm (weight and bias from the arguments), tanh, add and mul:
each op reads the previous result and, for add and mul, an earlier one too
(chosen by a fixed seed, so the program is the same every run), so fusion
sees reductions, pointwise ops and values used far from where they are made.
Used by the compile-time benchmarks: python3 bench/mixed_chain.py N [SEED]"""
import random
import sys

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
t, v = "tensor<32x64xf32>", "tensor<64xf32>"
lines = [f"func.func @mixed(%v0: {t}, %w: {v}, %b: {v}) -> {t} {{"]
for i in range(1, n + 1):
    prev = f"%v{i - 1}"
    kind = i % 5
    if kind == 1:
        op = f"kf.softmax {prev} dim -1 : {t}"
    elif kind == 2:
        op = (f"kf.layer_norm {prev} weight %w : {v} bias %b : {v} "
              f"normalized_shape [64] eps 1.0e-5 : {t}")
    elif kind == 3:
        op = f"kf.tanh {prev} : {t}"
    else:
        other = f"%v{rng.randrange(0, i)}"
        name = "add" if kind == 4 else "mul"
        op = f"kf.{name} {prev}, {other} : {t}, {t}"
    lines.append(f"  %v{i} = {op}")
lines += [f"  return %v{n} : {t}", "}"]
print("\n".join(lines))
