// What kfuse-compile does with what stands at its output path, and with
// its temporaries. A regular file is replaced whole (a temporary beside it,
// renamed over it once complete); anything else is written through: a
// device (as root, `-o /dev/null` used to replace the device node with a
// regular file), a FIFO, a symlink (which used to be replaced by a regular
// file). A directory is refused (it used to leave DIR.tmp, a complete
// library). On any failure, and on a crash, what stood there stays and no
// temporary is left (crashes used to leave /tmp/kfuse-lib-* directories).
// RUN: rm -rf %t && mkdir -p %t/tmp %t/dir

// A device is written into, not replaced. The device is a null device of
// the test's own (as root; a symlink to /dev/null otherwise), so that a
// regression replaces that node and not the system's /dev/null.
// RUN: mknod %t/null c 1 3 2>/dev/null || ln -s /dev/null %t/null
// RUN: env TMPDIR=%t/tmp kfuse-compile %s --emit=lib -o %t/null
// RUN: kfuse-compile %s -o %t/null
// RUN: test -c %t/null

// A symlink to a regular file stays a symlink; the file it names is the
// library, and it runs.
// RUN: echo old > %t/target.so && ln -s target.so %t/link.so
// RUN: env TMPDIR=%t/tmp kfuse-compile %s --emit=lib -o %t/link.so
// RUN: test -L %t/link.so
// RUN: kfuse-run %t/link.so --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=LOADS
// RUN: kfuse-run %t/target.so --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=LOADS
// LOADS: check against the CPU, unfused: {{.*}}: ok
// RUN: bash -c 'echo count: $(ls -A %t/tmp | wc -l)' | FileCheck %s --check-prefix=EMPTY
// A dangling symlink (text output): written through, creating its target.
// RUN: ln -s made.ptx %t/dangling.ptx
// RUN: kfuse-compile %s -o %t/dangling.ptx
// RUN: test -L %t/dangling.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/made.ptx
// PTX: .entry pointwise_add_0
// A FIFO: written through to its reader.
// RUN: rm -f %t/fifo && mkfifo %t/fifo
// RUN: bash -c 'cat %t/fifo > %t/from-fifo.ptx & kfuse-compile %s -o %t/fifo; wait'
// RUN: test -p %t/fifo
// RUN: FileCheck %s --check-prefix=PTX < %t/from-fifo.ptx

// A directory is refused, and nothing is written beside it.
// RUN: not kfuse-compile %s --emit=lib -o %t/dir 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not kfuse-compile %s -o %t/dir 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not test -e %t/dir.tmp
// DIR: kfuse-compile: error: -o {{.*}}dir is a directory; give the path of a file

// A regular file is replaced only by a complete library: a failed link
// leaves it as it was, and no temporary.
// RUN: echo keep > %t/keep.so
// RUN: env TMPDIR=%t/tmp KFUSE_CC=false not kfuse-compile %s --emit=lib -o %t/keep.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINK
// LINK: kfuse-compile: error: linking the library failed
// RUN: FileCheck %s --check-prefix=KEEP < %t/keep.so
// KEEP: keep
// RUN: bash -c 'echo count: $(ls -A %t/tmp | wc -l) $(ls -A %t | grep -c kfuse-tmp)' \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// EMPTY: count: 0{{( 0)?$}}

// A crash (the linker kills kfuse-compile with SIGSEGV) leaves no
// temporary and no output either.
// RUN: printf '#!/bin/sh\nkill -SEGV $PPID\nsleep 2\nexit 1\n' > %t/crash-cc && chmod +x %t/crash-cc
// (handle_segv=0: under AddressSanitizer the tool's own handler must see the signal.)
// RUN: env TMPDIR=%t/tmp KFUSE_CC=%t/crash-cc ASAN_OPTIONS=handle_segv=0 not --crash kfuse-compile %s --emit=lib -o %t/crashed.so
// RUN: not test -e %t/crashed.so
// RUN: bash -c 'echo count: $(ls -A %t/tmp | wc -l) $(ls -A %t | grep -c kfuse-tmp)' \
// RUN:   | FileCheck %s --check-prefix=EMPTY

// The input is never the output, however either is spelled: ./p.mlir and
// p.mlir, a hard link, a symlink, a dump file of --dump-dir.
// RUN: mkdir -p %t/cwd && cp %s %t/cwd/p.mlir && ln %t/cwd/p.mlir %t/cwd/hard.mlir
// RUN: ln -s p.mlir %t/cwd/soft.mlir
// RUN: cd %t/cwd && not kfuse-compile ./p.mlir -o p.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cd %t/cwd && not kfuse-compile p.mlir --emit=lib -o ./hard.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cd %t/cwd && not kfuse-compile p.mlir -o soft.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: kfuse-compile: error: -o {{.*}}.mlir is the input file; refusing to overwrite it
// RUN: cp %s %t/cwd/01-kf.mlir
// RUN: cd %t/cwd && not kfuse-compile 01-kf.mlir --dump-dir=. -o out.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP
// DUMP: kfuse-compile: error: --dump-dir file ./01-kf.mlir is the input file; refusing to overwrite it
// RUN: not test -e %t/cwd/out.ptx
// RUN: not test -e %t/cwd/kernels.json
// RUN: cmp %s %t/cwd/p.mlir
// RUN: cmp %s %t/cwd/01-kf.mlir

func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}
