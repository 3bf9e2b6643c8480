#!/usr/bin/env bash
# Installs what kfuse needs to build and test, and nothing when it is all present.
# Works as root or through sudo. Idempotent: a second run only checks.
set -euo pipefail

# gcc: kfuse-compile --emit=lib links the libraries it writes with `cc`.
PKGS=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
      cmake ninja-build gcc g++ python3 python3-numpy zlib1g-dev libzstd-dev)

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
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
