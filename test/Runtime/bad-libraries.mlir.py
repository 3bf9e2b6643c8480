"""Cuts a shared library short at many lengths and runs kfuse-run on each
cut (as the program, or as the CUDA driver with --driver): every run must
end with exit status 1 and one `kfuse-run: error:` line, never a signal.
Prints one summary line, or the first cuts that broke the rule."""
import argparse
import os
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--kfuse-run", required=True)
parser.add_argument("--library", required=True)
parser.add_argument("--program", help="with --driver: the program to run")
parser.add_argument("--driver", action="store_true",
                    help="the cut library is KFUSE_CUDA_DRIVER, not the program")
parser.add_argument("--dir", required=True)
parser.add_argument("--step", type=int, default=97)
args = parser.parse_args()

data = open(args.library, "rb").read()
cut = os.path.join(args.dir, "cut.so")
bad = []
count = 0
for length in list(range(0, len(data), args.step)) + [len(data) - 1]:
    with open(cut, "wb") as f:
        f.write(data[:length])
    env = dict(os.environ)
    if args.driver:
        env["KFUSE_CUDA_DRIVER"] = cut
        cmd = [args.kfuse_run, args.program, "--device=cuda", "--repeat=0", "--quiet"]
    else:
        cmd = [args.kfuse_run, cut, "--device=cpu", "--repeat=0", "--quiet"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    errors = [l for l in p.stderr.splitlines() if l.startswith("kfuse-run: error:")]
    count += 1
    if p.returncode != 1 or len(errors) != 1:
        bad.append("%d bytes: exit %d, %r" % (length, p.returncode, p.stderr[-300:]))
if bad:
    print("\n".join(bad[:5]))
    sys.exit(1)
print("%d cuts of %d bytes: exit 1 and one error each" % (count, len(data)))
print("last:", errors[0])
