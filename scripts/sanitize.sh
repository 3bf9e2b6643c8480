#!/usr/bin/env bash
# Builds kfuse with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ and runs the whole lit suite with it (leak detection on).
# Ends with lit's summary. Takes about 15 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
if [ ! -f build-asan/build.ninja ]; then
  cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
fi
ninja -C build-asan -j "${KFUSE_JOBS:-2}" kfuse-opt kfuse-compile kfuse-run kfuse_fake_cuda \
  KfDialectDocGen KfusePassesDocGen
# allocator_may_return_null: a failed allocation returns NULL, as it does
# without the sanitizer, so the tests of allocation failures (a 256 TiB
# result must be refused naming its size) see what users see.
# verify_asan_link_order=0: tests link small uninstrumented C programs
# against the instrumented runtime library.
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:verify_asan_link_order=0 \
UBSAN_OPTIONS=print_stacktrace=1 \
  /usr/bin/python3 /usr/lib/llvm-22/bin/lit -sv -j "${KFUSE_JOBS:-2}" --param sanitized=1 build-asan/test
