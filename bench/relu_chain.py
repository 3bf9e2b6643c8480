#!/usr/bin/env python3
"""Prints a kf function of N chained relus over tensor<1024xf32>:
%v1 = relu %v0, %v2 = relu %v1, ..., returned (one fused kernel, N eager).
Used by the compile-time benchmarks: python3 bench/relu_chain.py N"""
import sys

n = int(sys.argv[1])
t = "tensor<1024xf32>"
lines = [f"func.func @chain(%v0: {t}) -> {t} {{"]
for i in range(1, n + 1):
    lines.append(f"  %v{i} = kf.relu %v{i - 1} : {t}")
lines += [f"  return %v{n} : {t}", "}"]
print("\n".join(lines))
