// A damaged compile cache costs a compile, never a wrong or failed run
// (tools/kfuse-run/Cache.h): an entry cut short, overwritten in the
// middle, or whole-looking but not a library is reported, removed and
// rebuilt, and the run still passes --check; a symbolic link planted
// where an entry goes is not followed; runs racing on an empty cache
// all succeed and leave one whole entry. Entries are checked with hashlib
// (compile-cache.mlir.py), not with kfuse's own SHA-256. The runs are
// unfused on the CPU: their library is the one --check's unfused run
// uses, so that the cache holds one entry (a fused run's --check adds
// the unfused one).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=MISS
// MISS: compile: cache miss (first compile of this program)
//
// Truncated.
// RUN: truncate -s 1000 %t/c/compile/*.so
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefix=CUT
// CUT: compile: cache miss (a corrupt entry was removed and rebuilt: {{.*}}/c/compile/{{[0-9a-f]+}}.so: it has no checksum (truncated or overwritten)), compiled in
// CUT: check against the CPU, unfused: {{.*}}: ok
// RUN: %python %S/compile-cache.mlir.py verify %t/c | FileCheck %s --check-prefix=ONE
// ONE: 1 whole entries, 1 programs indexed
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefixes=HIT,OK
// HIT: compile: cache hit ({{.*}}/c/compile/{{[0-9a-f]+}}.so), loaded in
// OK: check against the CPU, unfused: {{.*}}: ok
//
// Four bytes overwritten inside the library.
// RUN: printf XXXX | dd of=`ls %t/c/compile/*.so` bs=1 seek=5000 conv=notrunc
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefix=BITS
// BITS: compile: cache miss (a corrupt entry was removed and rebuilt: {{.*}}.so: its checksum does not match (corrupted)), compiled in
// BITS: check against the CPU, unfused: {{.*}}: ok
// RUN: %python %S/compile-cache.mlir.py verify %t/c | FileCheck %s --check-prefix=ONE
//
// Garbage under a valid checksum: it fails to load, and is rebuilt.
// RUN: %python %S/compile-cache.mlir.py forge `ls %t/c/compile/*.so`
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefix=LOAD
// LOAD: compile: cache miss (a corrupt entry was removed and rebuilt: cannot load {{.*}}.so: it is not an ELF file), compiled in
// LOAD: check against the CPU, unfused: {{.*}}: ok
// RUN: %python %S/compile-cache.mlir.py verify %t/c | FileCheck %s --check-prefix=ONE
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefixes=HIT,OK
//
// A symbolic link where the entry goes: neither loaded nor written
// through; it is replaced by a real entry and its target is unchanged.
// RUN: echo precious > %t/victim
// RUN: %python %S/compile-cache.mlir.py plant %t/c %t/victim
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off \
// RUN:   --repeat=1 --check | FileCheck %s --check-prefix=LINK
// LINK: compile: cache miss (a corrupt entry was removed and rebuilt: {{.*}}.so: it is a symbolic link), compiled in
// LINK: check against the CPU, unfused: {{.*}}: ok
// RUN: FileCheck %s --check-prefix=VICTIM < %t/victim
// VICTIM: {{^precious$}}
// RUN: %python %S/compile-cache.mlir.py verify %t/c | FileCheck %s --check-prefix=ONE
//
// Three runs at once on an empty cache: each compiles and passes, and the
// cache holds one whole entry (and no temporary file).
// RUN: %python %S/compile-cache.mlir.py race 3 -- env KFUSE_CACHE_DIR=%t/race kfuse-run \
// RUN:   %kfuse_src/examples/add_relu.mlir --device=cpu --fusion=off --warmup=0 --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=RACE
// RACE-COUNT-3: run {{[0-9]}}: exit 0: compile: cache {{miss|hit}} {{.*}} | check against the CPU, unfused: {{.*}}: ok
// RUN: %python %S/compile-cache.mlir.py verify %t/race | FileCheck %s --check-prefix=ONE
// RUN: ls -A %t/race/compile | FileCheck %s --check-prefix=FILES
// FILES-NOT: .tmp
// FILES: {{^[0-9a-f]+}}.so
// FILES-NEXT: {{^index$}}
// FILES-NOT: .tmp
