"""The rows: the template families, the model rows, the tile sweep's rows."""

from .common import BYTES, MODEL_SIZES, SWEEP_MATMULS


def model_rows(sizes):
    """The model rows: what they take (their forward()'s inputs; the
    weights come first, as the manifest says) and what they compute."""
    s = MODEL_SIZES[sizes]
    b, t, d = s["GPT2_B"], s["GPT2_T"], s["GPT2_D"]
    m = b * t  # tokens
    # GPT-2 block, one call: the Linear layers over M = B*T tokens,
    # c_attn D->3D, attn_proj D->D, c_fc D->4D, mlp_proj 4D->D:
    #   2*M*D*D * (3 + 1 + 4 + 4) = 24*M*D^2;
    # attention, per batch and head (hd = D/heads): q @ k^T is T x hd x T and
    # att @ v is T x T x hd: 2 * 2*T*T*hd each head, B*heads of them:
    #   4*B*T^2*D (the masked half counted as computed, as cuBLAS does).
    # Full size (B8 T512 D768): 24*4096*768^2 + 4*8*512^2*768
    #   = 57.98e9 + 6.44e9 = 64.4 GFLOP a call.
    gpt2_flops = 24 * m * d * d + 4 * b * t * t * d
    # Weights: ln_1, ln_2 (2D each), c_attn 3D^2+3D, attn_proj D^2+D, c_fc
    # 4D^2+4D, mlp_proj 4D^2+D; x and the mask in, x out.
    gpt2_bytes = 4 * (12 * d * d + 13 * d + 2 * m * d + t * t)
    r, ld, h = s["LLAMA_ROWS"], s["LLAMA_D"], s["LLAMA_HIDDEN"]
    # Llama MLP: w1 and w3 (D->H) and w2 (H->D) over ROWS rows:
    #   3 * 2*ROWS*D*H = 6*ROWS*D*H. Full size (4096 rows, 2048 -> 5632):
    #   6*4096*2048*5632 = 283.5 GFLOP a call.
    llama_flops = 6 * r * ld * h
    llama_bytes = 4 * (ld + 3 * ld * h + 2 * r * ld)
    return [
        dict(family="model", name="gpt2_block", function="gpt2_block", values={},
             shapes=[(b, t, d), (t, t)], dtype="f32", bytes=gpt2_bytes, flops=gpt2_flops,
             library="model_gpt2_block.so", env=s),
        dict(family="model", name="llama_mlp", function="llama_mlp", values={},
             shapes=[(r, ld)], dtype="f32", bytes=llama_bytes, flops=llama_flops,
             library="model_llama_mlp.so", env=s),
    ]


def rows(sizes):
    """The standard rows and the model rows, in the order they run: (family,
    template values, shapes, dtype, what it moves or computes, library)."""
    full = sizes == "full"
    out = []
    for r, c in ([(1024, 1024), (4096, 4096), (8192, 32768)] if full else [(4, 64), (8, 256)]):
        out.append(("softmax", dict(R=r, C=c, T="f32"), [(r, c)], "f32", 2 * r * c * 4, 0))
    for r, c in ([(4096, 4096), (32768, 1024)] if full else [(4, 64), (16, 32)]):
        out.append(("layer_norm", dict(R=r, C=c, T="f32"), [(r, c)], "f32", 2 * r * c * 4, 0))
    for t in ("f16", "bf16", "f32"):
        for n in ([1024, 2048, 4096, 8192] if full else [32]):
            out.append(("matmul", dict(N=n, T=t), [(n, n), (n, n)], t, 3 * n * n * BYTES[t],
                        2 * n ** 3))
    for n in ([4096, 8192] if full else [64]):
        out.append(("transpose", dict(N=n, T="f32"), [(n, n)], "f32", 2 * n * n * 4, 0))
    for r, c in ([(4096, 4096), (32768, 1024)] if full else [(16, 32)]):
        for family in ("softmax_t", "softmax_t_unfused"):
            out.append((family, dict(R=r, C=c, T="f32"), [(r, c)], "f32", 2 * r * c * 4, 0))
    for n in ([10 ** 6, 10 ** 7, 10 ** 8] if full else [1000, 10000, 100000]):
        out.append(("add_relu", dict(T="f32", n=n), [(n,), (n,)], "f32", 3 * n * 4, 0))
    result = []
    for family, values, shapes, dtype, moved, flops in out:
        if family == "add_relu":
            name, fn = f"add_relu_{values['n']:.0e}".replace("+", ""), "add_relu_f32"
        else:
            dims = "x".join(str(d) for d in shapes[0])
            name = f"{family}_{dtype}_{dims}"
            fn = name
        result.append(dict(family=family, name=name, function=fn, values=dict(values, NAME=fn),
                           shapes=shapes, dtype=dtype, bytes=moved, flops=flops,
                           library=family + ".so"))
    return result + model_rows(sizes)


def spec_library(spec):
    """The sweep library of SPEC: a file name without '/'."""
    return "matmul_t" + spec.replace("/", "_") + ".so"


def sweep_rows(sizes, built):
    """The sweep's rows, from what --build made (build.json's sweep entries
    with a library): a size's SPECs one after another."""
    specs = [s for s in built if s.get("library")]
    result = []
    for t, n in SWEEP_MATMULS[sizes]:
        base = f"matmul_{t}_{n}x{n}"
        for s in specs:
            if base not in s["functions"]:
                continue
            result.append(dict(family="matmul", name=f"{base} tiles={s['spec']}", base=base,
                               tiles=s["spec"], function=base, values=dict(N=n, T=t, NAME=base),
                               shapes=[(n, n), (n, n)], dtype=t, bytes=3 * n * n * BYTES[t],
                               flops=2 * n ** 3, library=s["library"]))
    return result
