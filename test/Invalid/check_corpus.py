#!/usr/bin/env python3
"""Every invalid input makes kfuse-opt, kfuse-compile and kfuse-run fail properly.

For each file in Inputs/ (syntax errors, truncated and binary files, every
verifier error, unsupported dtypes, shapes that do not broadcast, huge
dims), and for each bad option of every kfuse pass and tool: the tool must
exit with status 1 (not 0, not a signal), print an `error:` naming the file
and line where the input is at fault, print no crash report, and leave no
output file. The empty file is a valid (empty) MLIR module for kfuse-opt;
kfuse-compile refuses it as defining nothing to compile.

usage: check_corpus.py BIN_DIR
Prints "N passed, N failed" for the corpus.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CRASH = ("Stack dump", "LLVM ERROR", "PLEASE submit", "Assertion", "Segmentation")


def run(cmd, out_path=None, must_say="error:"):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    problems = []
    if p.returncode != 1:
        problems.append(f"exit status {p.returncode}, expected 1")
    if must_say not in p.stderr:
        problems.append(f"the message does not say '{must_say}'")
    if any(c in p.stderr for c in CRASH):
        problems.append("crash report")
    if out_path and os.path.exists(out_path):
        problems.append("left an output file")
    return problems, p.stderr


def main():
    bindir = sys.argv[1]
    opt = os.path.join(bindir, "kfuse-opt")
    compile_ = os.path.join(bindir, "kfuse-compile")
    run_ = os.path.join(bindir, "kfuse-run")
    inputs = sorted(os.listdir(os.path.join(HERE, "Inputs")))
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "out.ptx")
    checks = []
    for name in inputs:
        path = os.path.join(HERE, "Inputs", name)
        located = name != "empty.mlir"
        if located:
            checks.append((name + " (kfuse-opt)", [opt, path, "--kf-to-linalg", "-o", out], path, "error:"))
        checks.append((name + " (kfuse-compile)", [compile_, path, "-o", out],
                       path if located else None, "error:"))
        # kfuse-run compiles with kfuse-compile: its located error comes
        # through, then kfuse-run's own.
        checks.append((name + " (kfuse-run)", [run_, path, "--device=cpu", "--output", out],
                       path if located else None, "error:"))
    valid = os.path.join(HERE, "..", "..", "examples", "add_relu.mlir")
    bad_options = [
        [opt, valid, "--kf-form-kernels=fusion=sometimes"],
        [opt, valid, "--kf-form-kernels=max-ops=-1"],
        [opt, valid, "--kf-form-kernels=pointwise=maybe"],
        [opt, valid, "--kf-kernel-report=format=yaml"],
        [opt, valid, "--kf-kernel-report=dims=x=3"],
        [opt, valid, "--kf-kernel-report=dims=d0=-4"],
        [opt, valid, "--kf-map-kernels-to-gpu=block-size=7"],
        [opt, valid, "--kf-gpu-emulation-pipeline=block-size=7"],
        [opt, valid, "--kf-gpu-pipeline=chip=sm_100"],
        [opt, valid, "--kf-cpu-pipeline=fusion=sometimes"],
        [opt, valid, "--kf-no-such-pass"],
        [compile_, valid, "--gpu-chip=sm_52", "-o", out],
        [compile_, valid, "--fusion=both", "-o", out],
        [compile_, valid, "--block-size=0", "-o", out],
        [compile_, valid, "--emit=cubin", "-o", out],
        [compile_, valid, "--emit=lib"],
        [run_, valid, "--device=tpu", "--output", out],
        [run_, valid, "--fusion=sometimes", "--output", out],
        [run_, valid, "--repeat=many", "--output", out],
        [run_, valid, "--format=yaml", "--output", out],
        [run_, valid, "--entry=nope", "--output", out],
        [compile_, os.path.join(tmp, "missing.mlir"), "-o", out],
        [compile_, valid, "--dump-dir=/proc/kfuse-cannot-write-here", "-o", out],
    ]
    # Option errors come from the pass options or LLVM's command line parser;
    # the message must name the value at fault.
    for cmd in bad_options:
        bad = cmd[2].split("=")[-1] if "=" in cmd[2] else cmd[2]
        if cmd[1].endswith("missing.mlir"):
            bad = "missing.mlir"
        checks.append((os.path.basename(cmd[0]) + " " + " ".join(cmd[2:]), cmd, None,
                       bad.lstrip("-")))
    passed = failed = 0
    for label, cmd, must_name, must_say in checks:
        problems, stderr = run(cmd, out, must_say)
        if must_name and os.path.basename(must_name) + ":" not in stderr:
            problems.append("the error does not name the file and line")
        if problems:
            failed += 1
            print(f"FAIL {label}: {'; '.join(problems)}\n{stderr[:2000]}")
        else:
            passed += 1
        if os.path.exists(out):
            os.unlink(out)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
