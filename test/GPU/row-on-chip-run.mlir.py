# The programs of row-on-chip-run.mlir and their numpy reference.
#
#   row-on-chip-run.mlir.py program [N...]  writes the kf program: one
#     function per (op, dtype, row length) taking its input as an argument
#     (the kernel then loads it from global memory), a @main that calls each
#     on a constant input and prints the result as f32; N... restricts the
#     row lengths.
#   row-on-chip-run.mlir.py check [N...] < printed  compares what the program
#     printed, in order, with numpy's float64 values of the same ops on the
#     same inputs (torch's definitions: biased variance, eps inside the
#     square root; f16 rounded once, at the end).
#
# Inputs are seeded (numpy's default_rng), normal values around an offset
# (layer_norm must take the mean away), f16 ones rounded to f16 first.
import re
import sys

import numpy as np

OPS = ["softmax", "log_softmax", "layer_norm", "rms_norm"]
DTYPES = {"f32": np.float32, "f16": np.float16}
WIDTHS = [1, 7, 40, 1024, 4096 + 3, 65536]
EPS = 1e-5


def rows_of(cols):
    return 2 if cols >= 65536 else 3


# Harder inputs for rows of 1024 and more: "masked", -inf over the first
# 5/8 of row 0 and a stretch of row 1 (an attention mask: the online
# softmax's running max starts at -inf); "offset", values around 1000
# (f32; 100 in f16), whose variance a naive sum of squares loses.
VARIANTS = {"softmax": ["", "masked"], "log_softmax": ["", "masked"],
            "layer_norm": ["", "offset"], "rms_norm": [""]}


def cases(widths):
    for cols in widths:
        for dt in DTYPES:
            for op in OPS:
                for variant in VARIANTS[op] if cols >= 1024 else [""]:
                    yield op, variant, dt, rows_of(cols), cols


def inputs(op, variant, dt, rows, cols):
    """x (and, for the norms, weight and bias), in the case's dtype."""
    seed = (OPS.index(op) * 10 + list(DTYPES).index(dt)) * 100003 + cols + len(variant)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)) * 2 + 3
    if variant == "offset":
        x += 1000 if dt == "f32" else 100
    if variant == "masked":
        x[0, :cols * 5 // 8] = -np.inf
        x[1, cols // 3:cols // 2] = -np.inf
    x = x.astype(DTYPES[dt])
    w = (rng.standard_normal(cols) * 0.5 + 1).astype(DTYPES[dt])
    b = rng.standard_normal(cols).astype(DTYPES[dt])
    return x, w, b


def reference(op, x, w, b):
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    b = b.astype(np.float64)
    if op == "softmax":
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    if op == "log_softmax":
        m = x - x.max(-1, keepdims=True)
        return m - np.log(np.exp(m).sum(-1, keepdims=True))
    if op == "layer_norm":
        c = x - x.mean(-1, keepdims=True)
        return c / np.sqrt((c * c).mean(-1, keepdims=True) + EPS) * w + b
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + EPS) * w


def tolerance(op, variant, dt):
    """(rtol, atol): f32 as printMemref prints it (6 digits) and sums in a
    tree; f16 one rounding of the result (half an ulp: 2^-11 relative,
    3e-8 for subnormal softmax values), with some room for f32 math on
    f16 inputs. layer_norm's values near 0 take an absolute bound of the
    order of the rounding of x - mean. Around 1000 in f32 the mean itself
    is known to an ulp of 1000 (6e-5), a std of 2: 2e-4 (a variance as
    E[x^2] - E[x]^2 would be off by 1e-2)."""
    if variant == "offset" and dt == "f32":
        return 2e-5, 2e-4
    if dt == "f32":
        return 2e-5, {"softmax": 1e-9, "log_softmax": 2e-5}.get(op, 2e-5)
    return 2e-3, {"softmax": 1e-7, "log_softmax": 4e-3}.get(op, 4e-3)


def hexdense(a):
    return 'dense<"0x' + a.tobytes().hex().upper() + '">'


def program(widths):
    out = ["func.func private @printMemrefF32(memref<*xf32>)",
           "func.func @show(%t: tensor<*xf32>) {",
           "  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>",
           "  call @printMemrefF32(%m) : (memref<*xf32>) -> ()",
           "  return",
           "}"]
    main = ["func.func @main() {"]
    for i, (op, variant, dt, rows, cols) in enumerate(cases(widths)):
        t = f"tensor<{rows}x{cols}x{dt}>"
        v = f"tensor<{cols}x{dt}>"
        name = f"@{op}{'_' + variant if variant else ''}_{dt}_{cols}"
        if op == "softmax":
            body = f"%y = kf.softmax %x dim -1 : {t}"
        elif op == "log_softmax":
            body = f"%y = kf.log_softmax %x dim -1 : {t}"
        elif op == "layer_norm":
            body = (f"%y = kf.layer_norm %x weight %w : {v} bias %b : {v} "
                    f"normalized_shape [{cols}] eps {EPS:e} : {t}")
        else:
            body = (f"%y = kf.rms_norm %x weight %w : {v} normalized_shape [{cols}] "
                    f"eps {EPS:e} : {t}")
        out += [f"func.func {name}(%x: {t}, %w: {v}, %b: {v}) -> {t} {{",
                f"  {body}", f"  return %y : {t}", "}"]
        x, w, b = inputs(op, variant, dt, rows, cols)
        main += [f"  %x{i} = kf.constant {hexdense(x)} : {t}",
                 f"  %w{i} = kf.constant {hexdense(w)} : {v}",
                 f"  %b{i} = kf.constant {hexdense(b)} : {v}",
                 f"  %y{i} = call {name}(%x{i}, %w{i}, %b{i}) : ({t}, {v}, {v}) -> {t}"]
        y = f"%y{i}"
        if dt != "f32":
            main.append(f"  %f{i} = kf.cast %y{i} : {t} to f32")
            y = f"%f{i}"
        main += [f"  %u{i} = tensor.cast {y} : tensor<{rows}x{cols}xf32> to tensor<*xf32>",
                 f"  call @show(%u{i}) : (tensor<*xf32>) -> ()"]
    main += ["  return", "}"]
    print("\n".join(out + main))


HEADER = re.compile(r"Unranked Memref base@ = \S+ rank = (\d+) offset = \d+ "
                    r"sizes = \[([0-9, ]*)\] strides = \[[0-9, ]*\] data =")
NUMBER = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


def check(widths):
    text = sys.stdin.read()
    blocks = list(HEADER.finditer(text))
    want = list(cases(widths))
    assert len(blocks) == len(want), f"{len(blocks)} arrays printed, {len(want)} expected"
    for k, (m, (op, variant, dt, rows, cols)) in enumerate(zip(blocks, want)):
        end = blocks[k + 1].start() if k + 1 < len(blocks) else len(text)
        got = np.array([float(v) for v in NUMBER.findall(text[m.end():end])])
        x, w, b = inputs(op, variant, dt, rows, cols)
        with np.errstate(invalid="ignore"):
            ref = reference(op, x, w, b)
        if dt != "f32":
            ref = ref.astype(DTYPES[dt]).astype(np.float64)
        rtol, atol = tolerance(op, variant, dt)
        name = f"{op}{' ' + variant if variant else ''} {dt} {rows}x{cols}"
        assert got.size == ref.size, f"{name}: {got.size} values, {ref.size} expected"
        ref = ref.ravel()
        # Infinities (log_softmax of -inf) must be the same; NaN nowhere.
        finite = np.isfinite(ref)
        err = np.where(finite, np.abs(got - np.where(finite, ref, 0)), 0)
        bad = (err > atol + rtol * np.abs(np.where(finite, ref, 0))) | np.isnan(got) | (
            ~finite & (got != ref))
        if bad.any():
            i = int(np.argmax(bad))
            sys.exit(f"{name}: element {i}: {got[i]} against numpy's {ref[i]} "
                     f"({int(bad.sum())} elements off)")
        print(f"{name}: matches numpy (max abs error {err.max():.3g})")
    print(f"row-on-chip: {len(want)} arrays match numpy")


if __name__ == "__main__":
    widths = [int(a) for a in sys.argv[2:]] or WIDTHS
    {"program": program, "check": check}[sys.argv[1]](widths)
