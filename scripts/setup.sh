#!/usr/bin/env bash
# Installs what kfuse needs to build and test, and nothing when it is all present.
# Works as root or through sudo. Idempotent: a second run only checks.
set -euo pipefail

# gcc: kfuse-compile --emit=lib links the libraries it writes with `cc`.
# nlohmann-json3-dev: kfuse-run's JSON (header-only; kfuse-run links no LLVM).
# python3-jsonschema: the tests validate every JSON output against its schema.
# graphviz: `dot` draws the kernel graph as SVG (optional for kfuse itself).
# python3-venv: the PyTorch environment of kfuse-import (below).
PKGS=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
      cmake ninja-build gcc g++ python3 python3-numpy python3-venv zlib1g-dev libzstd-dev
      nlohmann-json3-dev python3-jsonschema graphviz)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

# lit is Debian's python3-lit only for the default LLVM; llvm-22-tools ships
# /usr/lib/llvm-22/build/utils/lit/lit.py, which test/ uses directly.
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# PyTorch for kfuse-import and its tests, in a virtual environment of its own
# outside the work tree, so that every clone (CI's included) shares one
# install. Debian has no PyTorch; PyPI's wheel is the only source here. The
# environment sees Debian's numpy (--system-site-packages), so kfuse's tests
# and the importer use the same numpy. KFUSE_VENV moves it; KFUSE_NO_TORCH=1
# skips it (the importer's tests are then reported as unsupported, and fail
# under CI=true).
TORCH_VERSION=2.15.0
venv="${KFUSE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kfuse/venv}"
if [ "${KFUSE_NO_TORCH:-0}" = 1 ]; then
  echo "setup: KFUSE_NO_TORCH=1: not installing PyTorch"
elif "$venv/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  echo "setup: PyTorch $TORCH_VERSION present in $venv"
else
  echo "setup: installing PyTorch $TORCH_VERSION into $venv (a few minutes, about 3 GB)"
  mkdir -p "$(dirname "$venv")"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -q "torch==$TORCH_VERSION"
  "$venv/bin/python" -c "import torch; print('setup: PyTorch', torch.__version__)"
fi
# The model libraries of the real-architecture zoo (importer/kfuse_import/
# zoo_real.py: transformers, timm, torchvision; random weights, no
# downloads), pinned so that every machine imports the same models.
ZOO_PINS=(transformers==5.25.0 timm==1.0.31 torchvision==0.29.2)
if [ "${KFUSE_NO_TORCH:-0}" != 1 ]; then
  if "$venv/bin/python" - "${ZOO_PINS[@]}" <<'PY' 2>/dev/null
import importlib.metadata as md, sys
sys.exit(any(md.version(p.split("==")[0]).split("+")[0] != p.split("==")[1] for p in sys.argv[1:]))
PY
  then
    echo "setup: ${ZOO_PINS[*]} present in $venv"
  else
    echo "setup: installing ${ZOO_PINS[*]} into $venv (the real-model zoo)"
    "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -q \
      "torch==$TORCH_VERSION" "${ZOO_PINS[@]}"
  fi
fi
# kfuse's Python package (importer/kfuse_import) in that environment: a .pth
# line puts this checkout's importer/ on its path, and a dist-info with an
# entry point in torch's group makes torch.compile(model, backend="kfuse")
# find the backend without an import.
if [ "${KFUSE_NO_TORCH:-0}" != 1 ]; then
  site="$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")"
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  echo "$here/importer" > "$site/kfuse.pth"
  mkdir -p "$site/kfuse_import-0.0.dist-info"
  printf 'Metadata-Version: 2.1\nName: kfuse-import\nVersion: 0.0\n' \
    > "$site/kfuse_import-0.0.dist-info/METADATA"
  printf '[torch_dynamo_backends]\nkfuse = kfuse_import.backend:kfuse_backend\n' \
    > "$site/kfuse_import-0.0.dist-info/entry_points.txt"
  echo "setup: kfuse_import (and torch.compile's backend \"kfuse\") in $venv, from $here/importer"
fi
