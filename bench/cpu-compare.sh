#!/usr/bin/env bash
# kfuse on the CPU against numpy, PyTorch eager, torch.compile (Inductor's
# C++ backend) and IREE's CPU backend: installs IREE into kfuse's venv when
# missing (bench/setup-cpu-bench.sh), then runs bench/cpu_compare.py there
# with the arguments given (--out FILE.json, --only REGEX, --dry-run, ...;
# --help lists them). Needs scripts/setup.sh's venv and a built kfuse
# (build/bin/kfuse-compile, or --kfuse-compile PATH). A full run takes 5 to
# 10 minutes on 2 cores; it reads best on a quiet machine (the load average
# is printed first and kept in the JSON).
#
#   bash bench/cpu-compare.sh --out /tmp/cpu-compare.json
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/setup-cpu-bench.sh"
venv="${KFUSE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kfuse/venv}"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores;" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
exec "$venv/bin/python" "$here/cpu_compare.py" "$@"
