"""The coefficients of kErfcFit in passes/host/HostMathComplements.cpp:
erfc(a) exp(a^2) = q P(u) for a in [0, 10.5], q = 2 / (2 + a) and u = q
mapped from [2 / 12.5, 1] onto [-1, 1]; P a degree-10 least-squares fit
on 4000 Chebyshev nodes in u, weighted so that its error is relative,
written in monomial form. Prints the coefficients and the fit's largest
relative error on the nodes. Needs numpy and mpmath (kfuse's venv).

    ~/.cache/kfuse/venv/bin/python scripts/fit_erfc.py
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 30
SCALE, LARGEST, DEGREE, NODES = 2.0, 10.5, 10, 4000
low = SCALE / (SCALE + LARGEST)
u = np.cos(np.pi * (np.arange(NODES) + 0.5) / NODES)
q = (u + 1) / 2 * (1 - low) + low
a = SCALE / q - SCALE
p = np.array([float(mp.erfc(x) * mp.exp(x * x)) for x in a]) / q
monomial = np.polynomial.chebyshev.cheb2poly(
    np.polynomial.chebyshev.chebfit(u, p, DEGREE, w=1 / p))
error = np.max(np.abs(np.polynomial.polynomial.polyval(u, monomial) / p - 1))
print(", ".join(repr(float(c)) for c in monomial))
print(f"largest relative error {error:.2e}")
