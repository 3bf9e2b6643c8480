// kfuse-run keeps what kfuse-compile --emit=lib builds in a cache
// (tools/kfuse-run/Cache.h): a second run of the same program loads the
// library instead of compiling it, a miss says which part of the key
// changed since the program's last compile, and a bad entry is reported,
// removed and rebuilt. Every run sets its own cache directory.
// RUN: rm -rf %t && mkdir -p %t && cp %kfuse_src/examples/softmax.mlir %t/prog.mlir
//
// A miss, then a hit; the entry is the library and a trailer with its
// SHA-256, and the index names it by the SHA-256 of its key (both checked
// with hashlib).
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=MISS
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefixes=HIT,OK
// RUN: %python %s.py verify %t/c | FileCheck %s --check-prefix=TWO-ENTRIES
// MISS: compile: cache miss (first compile of this program), compiled in {{[0-9]+}} ms
// MISS: kfuse-run: {{.*}}prog.mlir, function softmax, fusion on
// HIT: compile: cache hit ({{.*}}/c/compile/{{[0-9a-f]+}}.so), loaded in {{[0-9]+}} ms
// OK: check against the CPU, unfused: {{.*}}: ok
// The run built the fused version only; --check built the unfused one
// for the CPU, an entry of its own:
// TWO-ENTRIES: 2 whole entries, 1 programs indexed
// The report in JSON says the same (and no compile time: nothing compiled).
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   --format=json | %python -c "import json,sys; r=json.load(sys.stdin); \
// RUN:   print(r['cache']['status'], r['compile_ms'])" \
// RUN:   | FileCheck %s --check-prefix=JSON
// JSON: hit None
//
// --fusion=off on the CPU runs the unfused entry --check built: a hit.
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 --fusion=off \
// RUN:   | FileCheck %s --check-prefix=HIT
//
// Misses, explained: a fusion switch, the program text (edited with sed),
// two options at once; then each configuration seen before hits, and so
// does a copy of the program elsewhere (the key is the text, not the path).
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=SWITCH
// SWITCH: compile: cache miss (--fusion changed: default -> row-persistent=false; variants changed: host_eager -> host_fused), compiled in
// SWITCH: steady state: 1 calls, {{.*}}, 3 launches a call
// RUN: sed -i 's/dim -1/dim 0/' %t/prog.mlir
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 --check \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=TEXT
// TEXT: compile: cache miss (the program text changed), compiled in
// TEXT: check against the CPU, unfused: {{.*}}: ok
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 --gpu-chip=sm_90 \
// RUN:   | FileCheck %s --check-prefix=TWO
// TWO: compile: cache miss (--fusion changed: row-persistent=false -> default; --gpu-chip changed: default -> sm_90), compiled in
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=HIT
// RUN: cp %t/prog.mlir %t/copy.mlir
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/copy.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=HIT
// Four configurations, and the unfused entries of the two texts' --check:
// RUN: %python %s.py verify %t/c | FileCheck %s --check-prefix=SIX
// SIX: 6 whole entries, 2 programs indexed
//
// The compiler is part of the key: a kfuse-compile rebuilt (here a copy
// with a new modification time) misses; so does a change of what it
// reads from the environment (KFUSE_CC, the CUDA toolkit).
// RUN: mkdir -p %t/tools/bin %t/tools/lib
// RUN: cp %kfuse_obj/bin/kfuse-run %kfuse_obj/bin/kfuse-compile %t/tools/bin
// RUN: cp %kfuse_obj/lib/libkfuse_runtime.so %t/tools/lib
// RUN: env KFUSE_CACHE_DIR=%t/c %t/tools/bin/kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=ANY
// RUN: touch -d 2001-01-01 %t/tools/bin/kfuse-compile
// RUN: env KFUSE_CACHE_DIR=%t/c %t/tools/bin/kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=COMPILER
// COMPILER: compile: cache miss (kfuse-compile changed (rebuilt or reinstalled)), compiled in
// RUN: env -u KFUSE_CC KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=ANY
// ANY: compile: cache {{hit|miss}}
// RUN: env KFUSE_CC=cc KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=ENV
// ENV: compile: cache miss (kfuse-compile's environment changed: KFUSE_CC= -> KFUSE_CC=cc), compiled in
//
// --no-cache compiles and neither reads nor writes the cache.
// RUN: env KFUSE_CACHE_DIR=%t/none kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=1 --no-cache \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: not ls %t/none
// OFF: compile: cache off (--no-cache), compiled in {{[0-9]+}} ms
// A library needs no compile: no line, no cache.
// RUN: kfuse-compile %kfuse_src/examples/add_relu.mlir --emit=lib -o %t/lib.so
// RUN: env KFUSE_CACHE_DIR=%t/none kfuse-run %t/lib.so --device=cpu --warmup=0 --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=LIB
// RUN: not ls %t/none
// LIB-NOT: compile:
// LIB: kfuse-run: {{.*}}lib.so, function add_relu
// LIB-NOT: compile:
//
// Where the cache is: --cache-dir, $KFUSE_CACHE_DIR, $XDG_CACHE_HOME/kfuse,
// $HOME/.cache/kfuse, always in its compile/ folder.
// RUN: env KFUSE_CACHE_DIR=%t/unused kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   --cache-dir=%t/given | FileCheck %s --check-prefix=MISS-ANY
// RUN: not ls %t/unused
// RUN: env -u KFUSE_CACHE_DIR XDG_CACHE_HOME=%t/xdg kfuse-run %t/prog.mlir --device=cpu \
// RUN:   --repeat=0 | FileCheck %s --check-prefix=MISS-ANY
// RUN: env -u KFUSE_CACHE_DIR -u XDG_CACHE_HOME HOME=%t/home kfuse-run %t/prog.mlir \
// RUN:   --device=cpu --warmup=0 --repeat=0 | FileCheck %s --check-prefix=MISS-ANY
// RUN: %python %s.py verify %t/given | FileCheck %s --check-prefix=ONE
// RUN: %python %s.py verify %t/xdg/kfuse | FileCheck %s --check-prefix=ONE
// RUN: %python %s.py verify %t/home/.cache/kfuse | FileCheck %s --check-prefix=ONE
// ONE: 1 whole entries, 1 programs indexed
// MISS-ANY: compile: cache miss (first compile of this program)
//
// A cache that cannot be used is said, and the run goes on without it:
// a file, a compile/ that is a symbolic link (not followed: nothing is
// written where it points) or that others may write.
// RUN: touch %t/file
// RUN: env KFUSE_CACHE_DIR=%t/file kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=FILE
// FILE: compile: cache off (cannot use the cache: {{.*}}/file is not a directory), compiled in
// RUN: mkdir -p %t/linked %t/elsewhere && ln -s %t/elsewhere %t/linked/compile
// RUN: env KFUSE_CACHE_DIR=%t/linked kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=LINKED
// RUN: ls %t/elsewhere | count 0
// LINKED: compile: cache off (cannot use the cache: {{.*}}/linked/compile is not a directory), compiled in
// RUN: mkdir -p %t/shared/compile && chmod 777 %t/shared/compile
// RUN: env KFUSE_CACHE_DIR=%t/shared kfuse-run %t/prog.mlir --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// SHARED: compile: cache off (cannot use the cache: {{.*}}/shared/compile can be written by other users), compiled in
//
// Its size: after a store, the least recently used entries go while the
// cache holds more than KFUSE_CACHE_MAX_MB, but not those used in the
// last hour (a hit marks its entry used).
// RUN: env KFUSE_CACHE_DIR=%t/lru kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=0 | FileCheck %s --check-prefix=MISS-ANY
// RUN: touch -d 2001-01-01 %t/lru/compile/*.so
// RUN: env KFUSE_CACHE_DIR=%t/lru kfuse-run %kfuse_src/examples/add_relu.mlir --device=cpu \
// RUN:   --repeat=0 | FileCheck %s --check-prefix=HIT-LRU
// HIT-LRU: compile: cache hit
// RUN: env KFUSE_CACHE_MAX_MB=0 KFUSE_CACHE_DIR=%t/lru kfuse-run \
// RUN:   %kfuse_src/examples/add_relu.mlir --device=cpu --repeat=0 --fusion=max-ops=3 \
// RUN:   | FileCheck %s --check-prefix=KEPT
// KEPT: compile: cache miss (--fusion changed: default -> max-ops=3), compiled in
// RUN: touch -d 2001-01-01 %t/lru/compile/*.so
// RUN: env KFUSE_CACHE_MAX_MB=0 KFUSE_CACHE_DIR=%t/lru kfuse-run \
// RUN:   %kfuse_src/examples/add_relu.mlir --device=cpu --repeat=0 --fusion=max-ops=2 \
// RUN:   | FileCheck %s --check-prefix=TRIMMED
// TRIMMED: compile: cache miss (--fusion changed: max-ops=3 -> max-ops=2; removed 2 least recently used entries ({{[0-9]+}} KB) to stay under KFUSE_CACHE_MAX_MB=0), compiled in
// RUN: %python %s.py verify %t/lru | FileCheck %s --check-prefix=ONE
// RUN: not env KFUSE_CACHE_MAX_MB=1G kfuse-run %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=MAXMB
// MAXMB: kfuse-run: error: KFUSE_CACHE_MAX_MB takes a whole number of MB, got '1G'
//
// The options, refused with one line.
// RUN: not kfuse-run %t/prog.mlir --no-cache --cache-dir %t/c 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: kfuse-run: error: --no-cache and --cache-dir {{.*}}/c contradict each other
// RUN: not kfuse-run %t/prog.mlir --cache-dir %t/c --cache-dir=%t/d 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// TWICE: kfuse-run: error: --cache-dir is given twice ({{.*}}/c and {{.*}}/d)
// RUN: not kfuse-run %t/prog.mlir --cache-dir= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kfuse-run: error: --cache-dir needs a directory
// RUN: not kfuse-run %t/prog.mlir --no-cache=yes 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: kfuse-run: error: --no-cache takes no value
