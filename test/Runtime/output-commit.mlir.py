"""Helper of output-commit.mlir: sends SIGTERM to a kfuse-run command (the
words after `--`, run in the current directory) at a chosen point of its
commit of the outputs, and prints its stderr and how it ended.

  staged FILE -- CMD    once FILE's staging file (.FILE.kfuse-XXXXXX) exists
  renamed FILE -- CMD   once FILE was replaced (it no longer reads "old"),
                        while the next rename waits: CMD runs under strace,
                        which holds the first rename(2)'s return 2 s
"""
import glob
import os
import signal
import subprocess
import sys
import time

mode, path, command = sys.argv[1], sys.argv[2], sys.argv[4:]


def staged():
    return bool(glob.glob("." + path + ".kfuse-*"))


def renamed():
    with open(path, "rb") as f:
        return f.read() != b"old\n"


if mode == "renamed":
    command = ["strace", "-f", "-qq", "-o", os.devnull, "-e", "trace=rename",
               "-e", "inject=rename:delay_exit=2000000:when=1"] + command
run = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
ready = staged if mode == "staged" else renamed
deadline = time.time() + 60
while not ready() and time.time() < deadline:
    time.sleep(0.02)
print(mode if ready() else "never " + mode)
pid = run.pid
if mode == "renamed":  # kfuse-run is strace's child
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        pid = int(f.read().split()[0])
os.kill(pid, signal.SIGTERM)
_, err = run.communicate()
print(err.strip())
print("killed by SIGTERM" if run.returncode == -signal.SIGTERM else f"exit {run.returncode}")
