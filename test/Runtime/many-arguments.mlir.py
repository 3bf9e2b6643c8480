"""Writes a program summing N arguments (as many as a model's weights) and
runs it through run_check.py (the command after `--`), each argument an
input of its own and the sum expected from numpy.

usage: many-arguments.mlir.py N DIR -- RUN_CHECK... [-- KFUSE_RUN_ARGS...]
"""
import subprocess
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rest = sys.argv[4:]
run_check, kfuse_run_args = rest, []
if "--" in rest:
    cut = rest.index("--")
    run_check, kfuse_run_args = rest[:cut], rest[cut + 1:]
args = ", ".join(f"%a{i}: tensor<5xf32>" for i in range(n))
body = "".join(f"  %s{i} = kf.add %{'a0' if i == 1 else f's{i - 1}'}, %a{i} : "
               "tensor<5xf32>, tensor<5xf32>\n" for i in range(1, n))
path = f"{out}/sum{n}.mlir"
with open(path, "w") as f:
    f.write(f"func.func @sum{n}({args}) -> tensor<5xf32> {{\n{body}"
            f"  return %s{n - 1} : tensor<5xf32>\n}}\n")
command = list(run_check) + [path]
for i in range(n):
    command += ["--input", f"arg{i}=f32[5]"]
command += ["--expect", "sum([" + ", ".join(f"arg{i}" for i in range(n)) + "])"]
command += ["--"] + kfuse_run_args
sys.exit(subprocess.run(command).returncode)
