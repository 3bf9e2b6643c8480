"""The attention kernel on issue 26's GPT-2 block (bench/models.py), side by
side with the same program's attention as three kernels (--fusion=
attention=false), in one run on one machine:

    ~/.cache/kfuse/venv/bin/python bench/attention.py [--repeat N] [--fusion F ...]

(--fusion: each run's; default attention=false, on, and
attention-min-scores=0, which forms the one kernel on the host runtime
too: by default the host keeps three kernels below 1 GiB of scores.)

For each: the kernels, the bytes the report counts, the median time a call
and the attention's own kernels' time (kfuse-run's profiler: the kernel
of kind attention, or the score matmul, the softmax and the second matmul),
and the output's error against the model run in float64 (max |err| / max
|truth|, beside PyTorch's own f32 run: issue 26's bar is 2e-6). Sizes:
GPT2_B, GPT2_T, GPT2_D as in bench/models.py (default B8 T512 D768).
kfuse-run picks the GPU where one is (else the host runtime on the CPU);
--device=cpu forces the CPU.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import models  # noqa: E402



def run(kfuse_run, program, inputs, fusion, device, repeat, out):
    args = [kfuse_run, program, "--input-dir", inputs, "--format", "json", f"--fusion={fusion}",
            f"--repeat={repeat}", "--warmup=1", "--output", f"result0={out}"]
    if device:
        args.append(f"--device={device}")
    report = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    # The attention's kernels: the one of kind attention, or the three the
    # rule off leaves: the score matmul with its scale and mask, the
    # softmax, and the one matmul of the block without an epilogue.
    attention = [k for k in report["kernels"]
                 if k["name"].startswith("attention_")
                 or k["name"].startswith("matmul_div_add_")
                 or k["name"].startswith("reduction_max_sub_exp_sum_div_")
                 or (k["name"].startswith("matmul_") and k["name"].split("_")[1].isdigit())]
    return report, attention


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--device", default="")
    parser.add_argument("--kfuse-run", default=os.path.join(ROOT, "build", "bin", "kfuse-run"))
    # On the host runtime "on" leaves the attention as three kernels below
    # 1 GiB of scores (attention-min-scores): attention-min-scores=0 times
    # the one kernel there.
    parser.add_argument("--fusion", nargs="+",
                        default=["attention=false", "on", "attention-min-scores=0"],
                        help="the --fusion of each run (default: the rule off, on, and "
                             "the one kernel at any size)")
    parser.add_argument("--kfuse-import", default=os.path.join(ROOT, "importer", "kfuse-import"))
    opts = parser.parse_args()
    work = tempfile.mkdtemp(prefix="kfuse-attention-")
    try:
        measure(opts, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # its own directory only


def measure(opts, work):
    program = os.path.join(work, "gpt2.mlir")
    subprocess.run([sys.executable, opts.kfuse_import, os.path.join(ROOT, "bench", "models.py"),
                    "--model", "gpt2_block", "-o", program, "--save-inputs"],
                   check=True, stdout=subprocess.DEVNULL)
    inputs = program[:-len(".mlir")] + ".inputs"
    factory, _, _ = models.MODELS["gpt2_block"]
    x = torch.from_numpy(np.load(os.path.join(inputs, "arg12.npy")))
    mask = torch.from_numpy(np.load(os.path.join(inputs, "arg13.npy")))
    with torch.no_grad():
        truth = factory().double()(x.double(), mask.double()).numpy()
        f32 = factory()(x, mask).double().numpy()
    scale = np.abs(truth).max()
    print(f"GPT-2 block B{models.B} T{models.T} D{models.D}; PyTorch f32: "
          f"max|err|/max|truth| = {np.abs(f32 - truth).max() / scale:.3g}")
    print(f"{'fusion':<22} {'kernels':>7} {'GB/call':>8} {'ms/call':>9} {'attention ms':>13} "
          f"{'max|err|/max|truth|':>20}")
    for fusion in opts.fusion:
        out = os.path.join(work, f"out-{fusion}.npy")
        report, attention = run(opts.kfuse_run, program, inputs, fusion, opts.device,
                                   opts.repeat, out)
        err = np.abs(np.load(out).astype(np.float64) - truth).max() / scale
        attention_ms = sum(k["median_us"] for k in attention) / 1000
        print(f"{fusion:<22} {report['fused']['kernels']:>7} "
              f"{report['fused']['bytes'] / 1e9:>8.3f} {report['steady']['ms_per_call']:>9.2f} "
              f"{attention_ms:>13.2f} {err:>20.3g}   ({', '.join(k['name'] for k in attention)}; "
              f"{report['device']})")


if __name__ == "__main__":
    main()
