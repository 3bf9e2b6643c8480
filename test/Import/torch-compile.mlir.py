"""torch.compile(model, backend="kfuse") against PyTorch: an MLP, a zoo
model against float64, an op kfuse lacks (the graph falls back to PyTorch
with a warning), results that alias an input, and new shapes with
dynamic=False (one library per shape in the cache)."""
import os
import shutil
import sys
import warnings

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "importer"))
import kfuse_import.backend  # noqa: E402,F401 (registers "kfuse")
from kfuse_import import zoo  # noqa: E402


def compiled(model, **kw):
    torch._dynamo.reset()
    return torch.compile(model, backend="kfuse", **kw)


def kfuse_warnings(caught):
    return [str(w.message) for w in caught if "kfuse" in str(w.message)]


def libraries():
    return len([f for f in os.listdir(os.environ["KFUSE_CACHE"]) if f.endswith(".so")])


torch.manual_seed(0)
with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    mlp = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 16)).eval()
    x = torch.randn(8, 32)
    got, want = compiled(mlp)(x), mlp(x)
    print(f"mlp: {'ok' if torch.allclose(got, want, rtol=1e-5, atol=1e-5) else 'FAIL'}, "
          f"{len(kfuse_warnings(caught))} warnings, {libraries()} library")

    factory, example, _ = zoo.MODELS["tiny_gpt2"]
    model, inputs = factory(), example()
    got, want = compiled(model)(*inputs), model(*inputs)
    truth = zoo.MODELS["tiny_gpt2"][0]().double()(*inputs)
    ours, theirs = (got.double() - truth).abs().max(), (want.double() - truth).abs().max()
    print(f"tiny_gpt2: {'ok' if ours <= 10 * theirs else 'FAIL'} against float64 "
          f"(error {ours:.1e}, PyTorch's {theirs:.1e}), {len(kfuse_warnings(caught))} warnings")

    # The argument arrays are kept between calls (backend.py _pointers):
    # a new input tensor, and new values in the same tensor, are seen.
    x2 = torch.randn(8, 32)
    f = compiled(mlp)
    first, second = f(x), f(x2)
    x2.mul_(-1)
    third = f(x2)
    ok = all(torch.allclose(a, mlp(b), rtol=1e-5, atol=1e-5)
             for a, b in ((first, x), (second, -x2), (third, x2)))
    print(f"new inputs: {'ok' if ok else 'FAIL'}")

    class TokenTypes(nn.Module):
        """BERT's embeddings: token types gathered from a buffer of zeros
        at position ids (integer buffers, which Dynamo passes as inputs)."""

        def __init__(self):
            super().__init__()
            self.types = nn.Embedding(2, 32)
            self.register_buffer("position_ids", torch.arange(8).expand(1, -1), persistent=False)
            self.register_buffer("token_type_ids", torch.zeros(1, 8, dtype=torch.long),
                                 persistent=False)

        def forward(self, x):
            ids = self.token_type_ids.expand(x.shape[0], -1)
            ids = torch.gather(ids, 1, self.position_ids.expand(x.shape[0], -1))
            return x + self.types(ids)

    model, before, warned = TokenTypes().eval(), libraries(), len(kfuse_warnings(caught))
    xs = torch.randn(4, 8, 32)
    f = compiled(model)
    ok = torch.allclose(f(xs), model(xs), rtol=1e-6, atol=1e-6)
    print(f"token types: {'ok' if ok else 'FAIL'}, {libraries() - before} library, "
          f"{len(kfuse_warnings(caught)) - warned} warnings")
    # A frozen buffer changed: that call runs in PyTorch, with a warning.
    model.token_type_ids.fill_(1)
    ok = torch.allclose(f(xs), model(xs), rtol=1e-6, atol=1e-6)
    print(f"changed buffer: {'ok' if ok else 'FAIL'}; " + kfuse_warnings(caught)[-1])

    class Cumprod(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(32, 8)

        def forward(self, x):
            y = self.fc(x).relu()
            return torch.cumprod(y, 0) * 2 + y.sum(), y

    model, before = Cumprod().eval(), libraries()
    (a, b), (ra, rb) = compiled(model)(x), model(x)
    ok = torch.allclose(a, ra, rtol=1e-5, atol=1e-5) and torch.allclose(b, rb, rtol=1e-5,
                                                                         atol=1e-6)
    why = kfuse_warnings(caught)[-1]
    print(f"cumprod: {'ok' if ok else 'FAIL'}, {libraries() - before} parts compiled by kfuse; "
          + why[:why.index(":", 7)] + ": " + why[why.index("aten."):why.index(" (see")])

    class Alias(nn.Module):
        def forward(self, x):
            return x, x.t(), x * 2

    a, t, b = compiled(Alias())(x)
    ok = torch.equal(a, x) and torch.equal(t, x.t()) and torch.equal(b, x * 2)
    print(f"alias: {'ok' if ok else 'FAIL'}, the returned input is x's memory: "
          f"{a.data_ptr() == x.data_ptr()}")

    before = libraries()
    linear = nn.Linear(4, 2).eval()
    f = compiled(linear, dynamic=False)
    for n in (3, 5, 3):
        y = torch.randn(n, 4)
        ok = torch.allclose(f(y), linear(y), rtol=1e-5, atol=1e-6)
        print(f"batch {n}: {'ok' if ok else 'FAIL'}")
    print(f"new libraries: {libraries() - before}; kfuse warnings in all: "
          f"{len(kfuse_warnings(caught))}")

    # A rebuilt compiler (here: a copy with a new modification time, beside
    # the build's lib/ where it finds the runtime) is a new key: the library
    # is compiled again, never the stale one reused.
    original = kfuse_import.backend._tool("kfuse-compile", "KFUSE_COMPILE")
    rebuilt = os.path.join(os.environ["KFUSE_CACHE"], "rebuilt")
    copy = os.path.join(rebuilt, "bin", "kfuse-compile")
    os.makedirs(os.path.dirname(copy))
    os.symlink(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(original))), "lib"),
               os.path.join(rebuilt, "lib"))
    shutil.copy2(original, copy)
    os.utime(copy, ns=(1, 1))
    os.environ["KFUSE_COMPILE"] = copy
    before = libraries()
    torch._dynamo.reset()
    y = torch.randn(3, 4)
    ok = torch.allclose(compiled(linear, dynamic=False)(y), linear(y), rtol=1e-5, atol=1e-6)
    print(f"rebuilt compiler: {'ok' if ok else 'FAIL'}, new libraries: {libraries() - before}, "
          f"kfuse warnings in all: {len(kfuse_warnings(caught))}")
