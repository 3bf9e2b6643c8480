"""CPU time of issue 28's model layers: PyTorch eager, torch.compile
(Inductor) and torch.compile(backend="kfuse"), side by side in one process
on the same inputs, same threads.

    ~/.cache/kfuse/venv/bin/python bench/zoo_cpu.py [--threads 2] [--repeat 20]
        [--catalogue layers|real]

Models (layers, the default): the zoo's tiny_gpt2 and tiny_resnet layers at
bench sizes (GPT-2: vocabulary 2048, width 256, 4 heads, 2 blocks, 8 x 128
tokens; ResNet: width 32 on 8 x 3 x 64 x 64). With --catalogue real: the 11
transformers/timm/torchvision models of kfuse_import/zoo_real.py at their
configurations, on larger inputs than the test's (8 x 64 tokens, 16 images
of 32 x 32, 8 x 64 x 64 hidden states). Prints the median time of each and
the ratios; kfuse's libraries are compiled before timing (the first call)."""
import argparse
import os
import statistics
import sys
import time
import warnings

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "importer"))
import kfuse_import.backend  # noqa: E402,F401 (registers "kfuse")
from kfuse_import import zoo, zoo_real  # noqa: E402


def real_models(names=()):
    g = torch.Generator().manual_seed(1)
    tokens = (torch.randint(0, 100, (8, 64), generator=g),)
    inputs = {"_tokens": tokens, "_image": (torch.randn(16, 3, 32, 32, generator=g),),
              "_hidden": (torch.randn(8, 64, 64, generator=g),)}
    for name, (factory, example, _) in zoo_real.MODELS.items():
        if not names or name in names:
            yield name, factory(), inputs[example.__name__]


def models():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    yield ("gpt2 (2048 vocab, d256, 2 blocks, 8x128 tokens)",
           zoo.TinyGPT2(vocab=2048, d=256, heads=4, layers=2, ctx=128).eval(),
           (torch.randint(0, 2048, (8, 128), generator=g),))
    torch.manual_seed(0)
    yield ("resnet (width 32, 8x3x64x64)", zoo.TinyResNet(width=32).eval(),
           (torch.randn(8, 3, 64, 64, generator=g),))


def median_ms(fn, args, repeat):
    fn(*args)  # compiles (torch.compile) and warms up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--catalogue", choices=("layers", "real"), default="layers")
    p.add_argument("names", nargs="*", help="real models to time (default: all)")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    print(f"torch {torch.__version__}, {a.threads} threads, median of {a.repeat}")
    print(f"{'model':48} {'eager ms':>9} {'inductor':>9} {'kfuse':>9} {'kfuse/inductor':>15}")
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, model, args in (models() if a.catalogue == "layers" else real_models(a.names)):
            eager = median_ms(model, args, a.repeat)
            torch._dynamo.reset()
            inductor = median_ms(torch.compile(model), args, a.repeat)
            torch._dynamo.reset()
            kfuse = median_ms(torch.compile(model, backend="kfuse", dynamic=False), args, a.repeat)
            print(f"{name:48} {eager:9.2f} {inductor:9.2f} {kfuse:9.2f} {kfuse / inductor:15.2f}")


if __name__ == "__main__":
    main()
