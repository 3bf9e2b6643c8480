"""The checks that go through kfuse-run: the examples, the packed random programs."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

FUZZ_SUMMARY = re.compile(r"kf-fuzz: (\d+) passed \((\d+) on the GPU, (\d+) on the CPU\), "
                          r"(\d+) failed")


def kfuse_run(args, bundle, timeout=240):
    cmd = [os.path.join(bundle, "bin", "kfuse-run")] + args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"kfuse-run timed out after {timeout} s"
    return p.returncode, p.stdout, p.stderr


def check_examples(bundle, out):
    results = []
    for lib in sorted(glob.glob(os.path.join(bundle, "programs", "*.so"))):
        name = os.path.basename(lib)[:-3]
        ref = os.path.join(bundle, "ref", name + ".npy")
        if not os.path.exists(ref):
            continue
        got = os.path.join(out, name + ".npy")
        args = [lib, "--device=cuda", "--seed=1", "--warmup=2", "--repeat=10",
                "--format=json", "--output", "result0=" + got, "--cuda-graph=on",
                "--trace", os.path.join(out, name + ".trace.json")]
        if name == "mlp":
            args += ["--dim", "d0=64"]
        rc, stdout, stderr = kfuse_run(args, bundle, timeout=60)
        row = {"example": name, "ran": rc == 0}
        if rc != 0:
            row["error"] = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {rc}"
        else:
            try:
                report = json.loads(stdout)
                a, b = np.load(got).astype(np.float64), np.load(ref).astype(np.float64)
                row["max_abs_error"] = float(np.max(np.abs(a - b))) if a.size else 0.0
                row["matches_cpu"] = bool(np.allclose(a, b, rtol=1e-4, atol=1e-5,
                                                      equal_nan=True))
                row["launches_per_call"] = report["steady"]["launches_per_call"]
                row["graph_replays"] = report.get("cuda_graph", {}).get("replays")
                row["device"] = report["device"]
            except (ValueError, KeyError, OSError) as e:
                row["error"] = f"{type(e).__name__}: {e}"[:300]
                row["matches_cpu"] = False
        results.append(row)
        print("example", json.dumps(row), flush=True)
    return results


def fuzz(bundle, out, deadline, chunk=10):
    """kf_fuzz.py --prebuilt over the packed programs, CHUNK at a time (a
    directory of links to theirs), until the deadline: what ran is counted,
    what did not is said; a chunk that runs past 30 s a program (a hang)
    fails."""
    src = os.path.join(bundle, "fuzz")
    if not os.path.exists(os.path.join(src, "programs.txt")):
        return None
    with open(os.path.join(src, "programs.txt")) as f:
        lines = f.read().split("\n")
    head, programs = lines[0], [x for x in lines[1:] if x.strip()]
    counts = {"passed": 0, "gpu": 0, "cpu": 0, "failures": 0}
    ran, failed, notes = 0, False, []
    log = open(os.path.join(out, "fuzz.log"), "w")
    work = os.path.join(out, "fuzz-chunk")
    for first in range(0, len(programs), chunk):
        left = deadline - time.time()
        if left < 20:
            break
        part = programs[first:first + chunk]
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for line in part:
            name = line.split()[0]
            for suffix in (".so", ".reference.so", ".mlir"):
                path = os.path.abspath(os.path.join(src, name + suffix))
                if os.path.exists(path):
                    os.symlink(path, os.path.join(work, name + suffix))
        with open(os.path.join(work, "programs.txt"), "w") as f:
            f.write(head + "\n" + "\n".join(part) + "\n")
        cmd = [sys.executable, os.path.join(bundle, "kf_fuzz.py"), "--prebuilt", work,
               "--kfuse-run", os.path.join(bundle, "bin", "kfuse-run"), "--device", "auto"]
        limit = min(left, 30 * len(part))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired as e:
            log.write(f"--- programs {first}..{first + len(part) - 1}: timed out after "
                      f"{limit:.0f} s\n{e.stdout or ''}{e.stderr or ''}\n")
            if limit < left:  # its own limit, not the run's end: a hang
                failed = True
                notes.append(f"programs {first}..{first + len(part) - 1} ran past "
                             f"{limit:.0f} s (a hang?)")
            break
        log.write(f"--- programs {first}..{first + len(part) - 1}\n{p.stdout}{p.stderr}\n")
        log.flush()
        m = FUZZ_SUMMARY.search(p.stdout)
        ran += len(part)
        if m:
            for k, v in zip(("passed", "gpu", "cpu", "failures"), m.groups()):
                counts[k] += int(v)
        else:
            failed = True
            counts["failures"] += len(part)
            notes.append(f"programs {first}..{first + len(part) - 1}: kf_fuzz.py exited "
                         f"{p.returncode} without its summary")
    log.close()
    shutil.rmtree(work, ignore_errors=True)
    summary = (f"kf-fuzz: {counts['passed']} passed ({counts['gpu']} on the GPU, "
               f"{counts['cpu']} on the CPU), {counts['failures']} failed, of {ran} run"
               + (f"; {len(programs) - ran} of {len(programs)} not run: out of time"
                  if ran < len(programs) else "") + "".join("; " + n for n in notes))
    print(summary)
    return {"summary": summary, "failed": failed or counts["failures"] > 0, "ran": ran,
            "programs": len(programs), **counts}
