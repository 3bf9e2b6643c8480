#!/usr/bin/env bash
# Steady-state CPU time (the host build of the GPU kernels, through
# kfuse-run) of reductions of one tensor over its rows and over its columns
# (x.sum(0), x.sum(1), x.max(0), x.max(1)), with the multi-reduction rule
# (one kernel reading x once) and without it (a kernel per axis), side by
# side in one run, alternating each round. A benchmark, not a test.
#   bash bench/multi-reduction.sh [BIN_DIR]      # default: build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/both.mlir" <<'MLIR'
func.func @both(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %a = kf.sum %x dims [0] : tensor<?x?xf32>
  %b = kf.max %x dims [0] : tensor<?x?xf32>
  %c = kf.sum %x dims [1] : tensor<?x?xf32>
  %d = kf.max %x dims [1] : tensor<?x?xf32>
  return %a, %b, %c, %d : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
MLIR
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores;" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
ms() {
  "$bin/kfuse-run" "$tmp/both.mlir" --dim d0="$1" --dim d1="$2" --device=cpu --warmup=3 \
    --repeat=30 --fusion="$3" --format=json > "$tmp/out.json"
  /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['steady']['ms_per_call'], r['steady'].get('launches_per_call', ''))" "$tmp/out.json"
}
printf '%-12s %6s %14s %14s %8s\n' shape round "on ms" "off ms" "off/on"
for shape in 1024x1024 4096x256 256x4096 16384x64 64x16384; do
  rows=${shape%x*}; cols=${shape#*x}
  for round in 1 2 3; do
    on=$(ms "$rows" "$cols" on | cut -d' ' -f1)
    off=$(ms "$rows" "$cols" multi-reduction=false | cut -d' ' -f1)
    printf '%-12s %6s %14s %14s %8.2f\n' "$shape" "$round" "$on" "$off" \
      "$(/usr/bin/python3 -c "print($off / $on)")"
  done
done
