"""CPU time of issue 28's model layers: PyTorch eager, torch.compile
(Inductor) and torch.compile(backend="kfuse"), side by side in one process
on the same inputs, same threads.

    ~/.cache/kfuse/venv/bin/python bench/zoo_cpu.py [--threads 2] [--repeat 20]
        [--rounds 5] [--pause 0.5] [--catalogue layers|real] [MODEL ...]

Models (layers, the default): the zoo's tiny_gpt2 and tiny_resnet layers at
bench sizes (GPT-2: vocabulary 2048, width 256, 4 heads, 2 blocks, 8 x 128
tokens; ResNet: width 32 on 8 x 3 x 64 x 64). With --catalogue real: the 11
transformers/timm/torchvision models of kfuse_import/zoo_real.py at their
configurations, on larger inputs than the test's (8 x 64 tokens, 16 images
of 32 x 32, 8 x 64 x 64 hidden states). The three take turns, round after
round (paired_rounds); prints the median time of each and the median of the
rounds' kfuse/Inductor ratios with their range; kfuse's libraries are
compiled before timing (the first call)."""
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
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def paired_rounds(fns, args, rounds, repeat, pause):
    """Each of `fns` (name -> callable, compiled and warm) timed `rounds`
    times, `repeat` calls a round, the frameworks taking turns in a rotated
    order, `pause` seconds before each one's calls so that the other's
    threads are asleep when it starts (PyTorch's OpenMP threads spin on
    after an Inductor call: sharing the two cores with them, kfuse ran
    Mixer's next 20 calls at 0.93 ms a call instead of 0.53; 0.67-0.70
    after a pause of 0.05 s, 0.53 after 0.5 s; kfuse's workers spin 1 ms,
    KFUSE_POOL_SPIN_US). Returns name -> [median ms of each round]. This
    machine's speed drifts by up to 2x over minutes (a shared host: its
    second core comes and goes), which one median per framework, taken
    one after the other, turned into ratios between 0.5 and 2; rounds a
    few hundred ms apart see the same machine, so their ratios are
    steadier."""
    names = list(fns)
    out = {n: [] for n in names}
    for r in range(rounds):
        for n in names[r % len(names):] + names[:r % len(names)]:
            time.sleep(pause)
            out[n].append(median_ms(fns[n], args, repeat))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeat", type=int, default=20, help="calls a round")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--pause", type=float, default=0.5, help="seconds before each round")
    p.add_argument("--catalogue", choices=("layers", "real"), default="layers")
    p.add_argument("names", nargs="*", help="real models to time (default: all)")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    # kfuse's runtime reads it when it starts (the first kfuse call).
    os.environ["KFUSE_NUM_THREADS"] = str(a.threads)
    print(f"torch {torch.__version__}, {a.threads} threads, {a.rounds} rounds of "
          f"{a.repeat} calls, the three in turn; median of the rounds' medians; "
          f"kfuse/inductor: median (lowest-highest) of the rounds' ratios")
    print(f"{'model':48} {'eager ms':>9} {'inductor':>9} {'kfuse':>9} {'kfuse/inductor':>21}")
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, model, args in (models() if a.catalogue == "layers" else real_models(a.names)):
            # Dynamo keeps one cache entry per backend: both compiled
            # modules stay valid side by side (checked: the kfuse
            # library is not called by the Inductor module's calls).
            fns = {"eager": model, "inductor": torch.compile(model),
                   "kfuse": torch.compile(model, backend="kfuse", dynamic=False)}
            for fn in fns.values():  # compiles, then warms up
                for _ in range(3):
                    fn(*args)
            t = paired_rounds(fns, args, a.rounds, a.repeat, a.pause)
            ratios = sorted(k / i for k, i in zip(t["kfuse"], t["inductor"]))
            med = {n: statistics.median(v) for n, v in t.items()}
            spread = f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"
            print(f"{name:48} {med['eager']:9.2f} {med['inductor']:9.2f} {med['kfuse']:9.2f} "
                  f"{spread:>21}", flush=True)
            torch._dynamo.reset()


if __name__ == "__main__":
    main()
