// A huge file where a cache entry goes (5 GiB here, sparse) is checked by
// its trailer, read by the size the file has, not read whole: it used to
// take 27 s for a few GiB, and under a memory limit end the run with "out
// of host memory" instead of rebuilding the entry. %limit-vm (4 GB of
// address space) would fail a whole read.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=MISS
// MISS: compile: cache miss (first compile of this program)
// RUN: truncate -s 5G %t/c/compile/*.so
// RUN: %limit-vm env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=HUGE
// HUGE: compile: cache miss (a corrupt entry was removed and rebuilt: {{.*}}/c/compile/{{[0-9a-f]+}}.so: it has no checksum (truncated or overwritten)), compiled in
// RUN: %python %S/compile-cache.mlir.py verify %t/c | FileCheck %s --check-prefix=ONE
// ONE: 1 whole entries, 1 programs indexed
//
// A whole entry with bytes cut from the middle: its trailer still names
// the size it had.
// RUN: %python -c "p = __import__('glob').glob('%t/c/compile/*.so')[0]; b = open(p, 'rb').read(); open(p, 'wb').write(b[:100] + b[200:])"
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=CUT
// CUT: compile: cache miss (a corrupt entry was removed and rebuilt: {{.*}}.so: its size is not the one its checksum was taken of (truncated or overwritten)), compiled in
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=HIT
// HIT: compile: cache hit
