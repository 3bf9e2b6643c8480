#!/usr/bin/env python3
"""The GPU half of bench/gpu-check.sh (see there), and the program builder
of bench/pack.sh.

  gpu_bench.py --build --sizes full|dry --kfuse-compile PATH --programs DIR
          [--matmul-tiles SPEC,SPEC...] [--torch-python PY] [--no-models]
      writes one module a family (bench/gpu/*.mlir templates, one function a
      row) into DIR and compiles each with kfuse-compile --emit=lib; imports
      the models of bench/models.py (kfuse-import, with a Python that has
      PyTorch: skipped with a note where there is none) into
      model_NAME.so; with --matmul-tiles, the matmul sweep's rows again for
      each SPEC (kfuse-compile --matmul-tiles=SPEC, where kfuse-compile has
      the option) into matmul_tSPEC.so. DIR/build.json says what was built
      and what was not, and why.
  gpu_bench.py --bundle B --out O [--dry-run] [--budget-s S] [--sweep-s S]
          [--total-s S]
      the examples against the CPU (kfuse-run), the benchmark rows (below),
      the model rows, the tile sweep's rows, the packed random programs
      (kf_fuzz.py --prebuilt) with what is left of the time.

Each benchmark row calls kfuse's compiled function through ctypes
(runtime.h; the library's fused GPU entry point) on tensors PyTorch
allocated on the same device (the driver's primary context, shared), and
times, interleaved in rounds: kfuse with CUDA-graph replay on, kfuse with it
off, torch eager and torch.compile (not for a lone matmul, which
torch.compile hands to cuBLAS as eager does: its first call's compile is
time the run does not have). Every time is wall clock per call over a loop
synchronized at its end (host overhead included, as a user sees it).
kfuse's result is checked against torch's before any timing. Rates: GB/s
(bytes a call: what the row must read and write) against the measured
device-to-device copy bandwidth, TFLOP/s against the H200's dense peaks
(989 f16/bf16, 67 f32 without TF32; torch.matmul runs with TF32 off).

The model rows (family "model": bench/models.py's gpt2_block and
llama_mlp, f32, weights from torch.manual_seed(0)) pass the module's
parameters (named_parameters() order, kfuse-import's) and then forward()'s
inputs; the reference is the module itself in eager f32, and torch.compile
compiles the module. The sweep rows (`matmul_f16_4096x4096
tiles=128x128x32/2x2/3`) run kfuse graph-on against torch eager (cuBLAS)
only, after every other row; the table's end says each size's best tiles.
A sweep row that fails is recorded and does not fail the run.

The rows run in worker processes (this script, --worker): the runtime
stops the process on a failed driver call (runtime.h), and a CUDA error can
poison the context, so a row that kills its worker is recorded as failed
and a fresh worker takes the rows after it; the sweep's rows get a worker
of their own. Without PyTorch (or with --no-torch), inputs come from numpy
(checked against numpy where that is cheap) and only kfuse is timed.
--dry-run (CI, the fake driver of test/fake-cuda): tiny sizes, nothing is
computed, no timing claims; where PyTorch is installed its rows still run
torch eager and torch.compile (backend 'eager': nothing is compiled)
through the same code as on the GPU, on CPU tensors: the fake driver's
device memory is host memory, and a CPU-only CI thus runs the torch code a
GPU machine runs. --device cpu --sizes dry (on a dry --build): a rehearsal
of the GPU run that computes, on kfuse's host code and CPU tensors, every
row checked against torch (the model rows' arguments included).
"""

import argparse
import json
import os
import sys
import time

from gpubench.build import build, read_build
from gpubench.catalogue import rows, sweep_rows
from gpubench.checks import check_examples, fuzz
from gpubench.report import check_text, markdown
from gpubench.workers import Workers, worker


def check(args):
    """The GPU run: examples, the rows in workers, the random programs."""
    start = time.time()
    args.programs = args.programs or os.path.join(args.bundle, "bench")
    args.runtime = args.runtime or os.path.join(args.bundle, "lib", "libkfuse_runtime.so")
    os.makedirs(args.out, exist_ok=True)
    examples = []
    if args.bundle and not args.dry_run:
        examples = check_examples(args.bundle, args.out)
    sizes = "dry" if args.dry_run else args.sizes
    built = read_build(args.programs) or {}
    notes = []
    selected = []
    for row in rows(sizes):
        if row["family"] == "model" and not os.path.exists(
                os.path.join(args.programs, row["library"])):
            why = built.get("models", {}).get(row["function"], "not built")
            notes.append(f"model row {row['name']}: {why}")
            continue
        selected.append(row)
    sweep = sweep_rows(sizes, built.get("sweep", []))
    if built.get("sweep_note"):
        notes.append(built["sweep_note"])
    for s in built.get("sweep", []):
        for name, why in s.get("refused", {}).items():
            notes.append(f"matmul tiles {s['spec']}: kfuse-compile refused "
                         f"{'them' if name == '*' else name}: {why}")
    if args.only:
        keep = set(args.only.split(","))
        pick = lambda r: (r["name"] in keep or r["family"] in keep
                          or ("sweep" in keep and r.get("tiles")))
        selected = [r for r in selected if pick(r)]
        sweep = [r for r in sweep if pick(r)]
    # The time: standard and model rows are started until budget_s (their
    # torch.compile until 60% and 90% of it); the sweep gets sweep_s from
    # its start; the random programs what is left of total_s.
    tasks = []
    standard = [r for r in selected if r["family"] != "model"]
    models = [r for r in selected if r["family"] == "model"]
    for row in standard:
        tasks.append({"index": len(tasks), "kind": "row", "row": row, "timeout_s": 150,
                      "deadline": start + args.budget_s,
                      "compile_deadline": start + 0.6 * args.budget_s})
    tasks.append({"index": len(tasks), "kind": "launch_overhead", "timeout_s": 60})
    for row in models:
        tasks.append({"index": len(tasks), "kind": "row", "row": row, "timeout_s": 300,
                      "deadline": start + args.budget_s,
                      "compile_deadline": start + 0.9 * args.budget_s})
    result = {"dry_run": args.dry_run, "build": built}
    out_rows = {}

    def done(task, r):
        if task["kind"] == "launch_overhead":
            result["launch_overhead"] = r
        else:
            out_rows[task["index"]] = r
            print("row", json.dumps(r), flush=True)
    workers = Workers(args)
    workers.run(tasks, done)
    if sweep:
        sweep_start = time.time()
        deadline = min(sweep_start + args.sweep_s, start + args.total_s - 30)
        base = len(tasks)
        sweep_tasks = [{"index": base + i, "kind": "row", "row": row, "deadline": deadline,
                        "compile_deadline": 0, "timeout_s": 90} for i, row in enumerate(sweep)]
        workers.run(sweep_tasks, done, skip_after_crash=lambda crashed, other: (
            other["row"]["tiles"] == crashed["row"]["tiles"]))
    hello = workers.hello or {}
    result["device"] = hello.get("device", "unknown: no worker started")
    result["torch"] = hello.get("torch", "unknown: no worker started")
    result["copy_gbps"] = hello.get("copy_gbps")
    result["rows"] = [out_rows[i] for i in sorted(out_rows)]
    result.setdefault("launch_overhead", {})
    result["examples"] = examples
    if args.bundle and not args.dry_run:
        result["fuzz"] = fuzz(args.bundle, args.out, start + args.total_s)
    result["notes"] = notes
    result["seconds"] = time.time() - start
    with open(os.path.join(args.out, "gpu-check.json"), "w") as f:
        json.dump(result, f, indent=2)
    table = markdown(result)
    if result.get("fuzz"):
        table += "\nrandom programs: " + result["fuzz"]["summary"] + "\n"
    with open(os.path.join(args.out, "gpu-check.md"), "w") as f:
        f.write(table)
    print(table)
    print(f"gpu-check: {time.time() - start:.0f} s")
    # The run fails on a wrong example, a wrong or crashed standard or model
    # row, failed random programs, or no worker at all; never on a sweep row.
    failed = [e for e in examples if e["ran"] and not e.get("matches_cpu")]
    standard = [r for r in result["rows"] if not r.get("tiles")]
    failed += [r for r in standard if r.get("crashed") or check_text(r)[1] is False]
    return 1 if failed or (result.get("fuzz") or {}).get("failed") or not workers.hello else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--sizes", choices=["full", "dry"], default="full")
    parser.add_argument("--kfuse-compile")
    parser.add_argument("--compile-arg", action="append", default=[])
    parser.add_argument("--matmul-tiles", metavar="SPEC,SPEC...",
                        help="--build: the matmul sweep's tiles (kfuse-compile --matmul-tiles), "
                        "a library each")
    parser.add_argument("--torch-python", help="--build: the Python that runs kfuse-import "
                        "(default: one with PyTorch, as kfuse-import finds it)")
    parser.add_argument("--no-models", action="store_true", help="--build: no model rows")
    parser.add_argument("--programs", help="the families' libraries (default BUNDLE/bench)")
    parser.add_argument("--runtime", help="libkfuse_runtime.so (default BUNDLE/lib/)")
    parser.add_argument("--bundle")
    parser.add_argument("--out")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--no-torch", action="store_true",
                        help="time kfuse alone, as where PyTorch is missing")
    parser.add_argument("--only", help="comma-separated row names or families ('model', "
                        "'sweep')")
    parser.add_argument("--budget-s", type=float, default=200,
                        help="standard and model rows stop being started past this")
    parser.add_argument("--sweep-s", type=float, default=80,
                        help="the tile sweep's rows stop being started this long after "
                        "its first")
    parser.add_argument("--total-s", type=float, default=340,
                        help="the random programs get what is left of this")
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                        help="cpu: a rehearsal of the GPU run on kfuse's host code and CPU "
                        "tensors, results checked (with --sizes dry and a dry --build)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        return build(args)
    if args.worker:
        return worker(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
