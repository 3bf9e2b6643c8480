#!/usr/bin/env bash
# Builds the libFuzzer target (clang, ASan, coverage on kfuse's own code) in
# build-fuzz/ and runs it on a corpus made of the test suite's programs.
#   bash scripts/fuzz.sh [SECONDS]        (default 150)
# Findings (crash-*, timeout-*) land in build-fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
command -v clang++ >/dev/null || { echo "fuzz.sh: needs clang (apt-get install clang libclang-rt-dev)" >&2; exit 1; }
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DKFUSE_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer"
fi
ninja -C build-fuzz -j "${KFUSE_JOBS:-2}" kfuse-fuzz
corpus=build-fuzz/corpus
mkdir -p "$corpus" build-fuzz/findings
i=0
for f in test/Dialect/Kf/*.mlir test/Fusion/*.mlir test/Transforms/*.mlir examples/*.mlir test/Invalid/Inputs/*.mlir; do
  awk -v out="$corpus/$i" 'BEGIN{RS="// -----"} {print > (out "_" NR ".mlir")}' "$f"
  i=$((i + 1))
done
cd build-fuzz/findings
../bin/kfuse-fuzz -dict=../../tools/kfuse-fuzz/kf.dict -max_len=4096 -timeout=20 \
  -rss_limit_mb=6000 -max_total_time="${1:-150}" -print_final_stats=1 ../corpus
