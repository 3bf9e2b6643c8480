#!/usr/bin/env bash
# Installs what bench/cpu-compare.sh needs beyond scripts/setup.sh: IREE's
# compiler and runtime (PyPI wheels iree-base-compiler, iree-base-runtime)
# into kfuse's PyTorch venv, so that one Python process has numpy, PyTorch,
# torch.compile and IREE side by side. Only the benchmark needs IREE (the
# tests and CI do not), so scripts/setup.sh does not install it.
# Idempotent: when the pinned versions are present it only checks (~0.1 s).
set -euo pipefail

IREE_VERSION=3.13.0
venv="${KFUSE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kfuse/venv}"
py="$venv/bin/python"
if [ ! -x "$py" ]; then
  echo "setup-cpu-bench: no venv at $venv: run scripts/setup.sh first (it installs PyTorch)" >&2
  exit 1
fi
# importlib.metadata reads the installed versions without importing IREE.
if "$py" - "$IREE_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
want = sys.argv[1]
sys.exit(not all(version(p) == want for p in ("iree-base-compiler", "iree-base-runtime")))
PY
then
  echo "setup-cpu-bench: IREE $IREE_VERSION present in $venv"
else
  echo "setup-cpu-bench: installing IREE $IREE_VERSION (iree-base-compiler, iree-base-runtime) into $venv"
  "$py" -m pip install --disable-pip-version-check --progress-bar off -q \
    "iree-base-compiler==$IREE_VERSION" "iree-base-runtime==$IREE_VERSION"
fi
