#!/usr/bin/env python3
"""The GPU half of bench/gpu-check.sh (see there). Needs numpy; PyTorch is
optional (copy, eager and torch.compile baselines)."""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

import numpy as np

SIZES = [10**6, 10**7, 10**8]


def kfuse_run(args, bundle, timeout=240):
    cmd = [os.path.join(bundle, "bin", "kfuse-run")] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check_examples(bundle, out):
    rows = []
    for lib in sorted(glob.glob(os.path.join(bundle, "programs", "*.so"))):
        name = os.path.basename(lib)[:-3]
        ref = os.path.join(bundle, "ref", name + ".npy")
        if not os.path.exists(ref):
            continue
        got = os.path.join(out, name + ".npy")
        args = [lib, "--device=cuda", "--seed=1", "--warmup=2", "--repeat=10",
                "--format=json", "--output", "result0=" + got,
                "--trace", os.path.join(out, name + ".trace.json")]
        if name == "mlp":
            args += ["--dim", "d0=64"]
        rc, stdout, stderr = kfuse_run(args, bundle)
        row = {"example": name, "ran": rc == 0}
        if rc != 0:
            row["error"] = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {rc}"
        else:
            report = json.loads(stdout)
            a, b = np.load(got).astype(np.float64), np.load(ref).astype(np.float64)
            row["max_abs_error"] = float(np.max(np.abs(a - b))) if a.size else 0.0
            row["matches_cpu"] = bool(np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True))
            row["launches_per_call"] = report["steady"]["launches_per_call"]
            row["device"] = report["device"]
        rows.append(row)
        print("example", json.dumps(row))
    return rows


def torch_baselines(n):
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    a = torch.rand(n, device="cuda") * 4 - 2
    b = torch.rand(n, device="cuda") * 4 - 2
    c = torch.empty_like(a)

    def timed(fn, reps=20):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) / reps * 1e3  # us per call

    result = {"copy_us": timed(lambda: c.copy_(a)),
              "eager_us": timed(lambda: torch.relu(a + b))}
    try:
        f = torch.compile(lambda x, y: torch.relu(x + y))
        t0 = time.time()
        f(a, b)
        torch.cuda.synchronize()
        result["compile_first_call_s"] = time.time() - t0
        result["compiled_us"] = timed(lambda: f(a, b))
    except Exception as e:  # no compiler toolchain, etc.
        result["compile_error"] = str(e).splitlines()[0][:200]
    return result


def time_add_relu(bundle, out):
    lib = os.path.join(bundle, "programs", "add_relu_dynamic.so")
    rows = []
    for n in SIZES:
        row = {"n": n}
        for fusion in ("on", "off"):
            rc, stdout, stderr = kfuse_run(
                [lib, "--device=cuda", f"--dim=d0={n}", f"--dim=d1={n}", "--warmup=3",
                 "--repeat=20", "--format=json", "--fusion=" + fusion], bundle)
            if rc != 0:
                row[fusion] = {"error": stderr.strip()[-300:]}
                continue
            r = json.loads(stdout)
            kernel_us = sum(k["avg_us"] for k in r["kernels"])
            moved = (r["fused"] if fusion == "on" else r["eager"])["bytes"]
            row[fusion] = {"kernel_us": kernel_us, "call_ms": r["steady"]["ms_per_call"],
                           "bytes": moved, "gbps": moved / (kernel_us * 1e3),
                           "launches": r["steady"]["launches_per_call"],
                           "first_call_ms": r["first_call"]["ms"],
                           "jit_ms": r["first_call"]["jit_ms"],
                           "above_peak": any(k["above_peak"] for k in r["kernels"])}
        base = torch_baselines(n)
        if base:
            row["torch"] = base
            # A copy reads and writes n floats: 8n bytes.
            base["copy_gbps"] = 8 * n / (base["copy_us"] * 1e3)
        rows.append(row)
        print("add_relu", json.dumps(row))
    return rows


def fuzz(bundle, out):
    """The packed random programs (kf_fuzz.py --prebuilt): kfuse-run --check
    runs each fused on the GPU (or on the CPU where it has no GPU code)
    against the unfused program on the CPU."""
    if not os.path.exists(os.path.join(bundle, "fuzz", "programs.txt")):
        return None
    cmd = [sys.executable, os.path.join(bundle, "kf_fuzz.py"), "--prebuilt",
           os.path.join(bundle, "fuzz"), "--kfuse-run", os.path.join(bundle, "bin", "kfuse-run"),
           "--device", "auto"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=150)
    except subprocess.TimeoutExpired:
        return {"summary": "timed out after 150 s", "failed": True}
    with open(os.path.join(out, "fuzz.log"), "w") as f:
        f.write(p.stdout + p.stderr)
    lines = p.stdout.strip().splitlines()
    summary = lines[-1] if lines else p.stderr.strip()[-200:]
    print(summary)
    return {"summary": summary, "failed": p.returncode != 0}


def markdown(examples, timings):
    lines = ["| example | ran on GPU | matches CPU | max abs error | launches/call |",
             "|---|---|---|---|---|"]
    for e in examples:
        lines.append(f"| {e['example']} | {'yes' if e['ran'] else 'no: ' + e.get('error', '')} | "
                     f"{e.get('matches_cpu', '-')} | {e.get('max_abs_error', '-')} | "
                     f"{e.get('launches_per_call', '-')} |")
    lines += ["", "| n | fused us | fused GB/s | unfused us | unfused GB/s | fused speedup | "
              "copy GB/s | fused/copy | torch eager us | torch.compile us |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for t in timings:
        on, off, tb = t.get("on", {}), t.get("off", {}), t.get("torch", {})
        def f(d, k, fmt="{:.1f}"):
            return fmt.format(d[k]) if k in d else "-"
        speed = (f"{off['kernel_us'] / on['kernel_us']:.2f}x"
                 if "kernel_us" in on and "kernel_us" in off else "-")
        ratio = (f"{on['gbps'] / tb['copy_gbps']:.2f}"
                 if "gbps" in on and "copy_gbps" in tb else "-")
        lines.append(f"| {t['n']:.0e} | {f(on, 'kernel_us')} | {f(on, 'gbps')} | "
                     f"{f(off, 'kernel_us')} | {f(off, 'gbps')} | {speed} | "
                     f"{f(tb, 'copy_gbps')} | {ratio} | {f(tb, 'eager_us')} | "
                     f"{f(tb, 'compiled_us')} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    start = time.time()
    examples = check_examples(args.bundle, args.out)
    fuzzed = fuzz(args.bundle, args.out)
    timings = time_add_relu(args.bundle, args.out)
    result = {"examples": examples, "fuzz": fuzzed, "add_relu": timings,
              "seconds": time.time() - start}
    with open(os.path.join(args.out, "gpu-check.json"), "w") as f:
        json.dump(result, f, indent=2)
    table = markdown(examples, timings)
    if fuzzed:
        table += "\nrandom programs: " + fuzzed["summary"] + "\n"
    with open(os.path.join(args.out, "gpu-check.md"), "w") as f:
        f.write(table)
    print(table)
    print(f"gpu-check: {time.time() - start:.0f} s")
    failed = [e for e in examples if e["ran"] and not e.get("matches_cpu")]
    return 1 if failed or (fuzzed and fuzzed["failed"]) else 0


if __name__ == "__main__":
    sys.exit(main())
