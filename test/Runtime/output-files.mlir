// kfuse-run's output files (--output, --trace) are written together at the
// end, or none is: a device node (/dev/null, /dev/full) is written
// through, never replaced by a regular file; a symbolic link is followed
// and stays a link; an existing file keeps its permissions; nothing the
// user gave (the program, an input) is overwritten, however it is spelled;
// a failure leaves every output as it was and no temporary file behind.
//
// RUN: rm -rf %t && mkdir -p %t/tmp && cd %t
// RUN: kfuse-compile %s --emit=lib -o %t/two.so
// RUN: %python -c "import numpy as np; np.save('x.npy', np.array([1, 2, 3, 4], np.float32))"
//
// Device nodes are written through: they are still device nodes after.
// RUN: kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=/dev/null --output result1=/dev/null --trace /dev/null
// RUN: test -c /dev/null
// A device that cannot take the data: one error, the device stays, and
// the regular output beside it is not written.
// RUN: echo old > r0.npy
// RUN: not kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=r0.npy --trace /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: kfuse-run: error: cannot write /dev/full: No space left on device
// RUN: test -c /dev/full
// RUN: cat r0.npy | FileCheck %s --check-prefix=OLD
// OLD: old
//
// A symbolic link is written through; the link stays. Results by hand:
// x + x = [2, 4, 6, 8], x * x = [1, 4, 9, 16].
// RUN: echo old > target.npy && ln -s target.npy link.npy
// RUN: kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet --output result0=link.npy
// RUN: test -L link.npy
// RUN: %python -c "import numpy as np; print(np.load('target.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=LINK
// LINK: [2.0, 4.0, 6.0, 8.0]
// A link to a file not made yet makes it.
// RUN: mkdir sub && ln -s sub/new.npy dangling.npy
// RUN: kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet --output result1=dangling.npy
// RUN: test -L dangling.npy
// RUN: %python -c "import numpy as np; print(np.load('sub/new.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=DANGLING
// DANGLING: [1.0, 4.0, 9.0, 16.0]
//
// A replaced file keeps its permissions.
// RUN: chmod 640 target.npy
// RUN: kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet --output result0=target.npy
// RUN: stat -c %%a target.npy | FileCheck %s --check-prefix=MODE
// MODE: 640
//
// The second of two outputs cannot be written (no such directory; said
// before the run): the first is left as it was (it was replaced before),
// and no temporary file stays beside it. /dev/full above is the failure
// at the commit itself.
// RUN: echo old > first.npy
// RUN: not kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=first.npy --output result1=nodir/second.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SECOND
// SECOND: kfuse-run: error: cannot write nodir/second.npy: No such file or directory
// RUN: cat first.npy | FileCheck %s --check-prefix=OLD
// The same when --trace is the one that fails.
// RUN: not kfuse-run two.so --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=first.npy --trace nodir/trace.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRACE
// TRACE: kfuse-run: error: cannot write nodir/trace.json: No such file or directory
// RUN: cat first.npy | FileCheck %s --check-prefix=OLD
// RUN: %python -c "import glob; print(glob.glob('%t/.*') + glob.glob('%t/*kfuse*'))" \
// RUN:   | FileCheck %s --check-prefix=NOTEMP
// NOTEMP: []
//
// What the user gave is compared as a file (device and inode), not as a
// spelling: ./v.mlir is v.mlir; a hard link or a symbolic link to an input
// is that input.
// RUN: cp %s v.mlir && cp two.so v.so
// RUN: not kfuse-run v.mlir --output ./v.mlir 2>&1 | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: kfuse-run: error: --output ./v.mlir is the program; refusing to overwrite it
// RUN: cmp v.mlir %s
// RUN: not kfuse-run ./v.so --output v.so 2>&1 | FileCheck %s --check-prefix=LIBRARY
// LIBRARY: kfuse-run: error: --output v.so is the program; refusing to overwrite it
// RUN: cmp v.so two.so
// RUN: not kfuse-run v.so --trace %t/v.so 2>&1 | FileCheck %s --check-prefix=TRACELIB
// TRACELIB: kfuse-run: error: --trace {{.*}}v.so is the program; refusing to overwrite it
// RUN: ln x.npy hard.npy && ln -s x.npy soft.npy
// RUN: not kfuse-run two.so --input arg0=./x.npy --output result0=hard.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HARD
// HARD: kfuse-run: error: --output hard.npy is also --input arg0; refusing to overwrite it
// RUN: not kfuse-run two.so --input arg0=soft.npy --output result1=x.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SOFT
// SOFT: kfuse-run: error: --output x.npy is also --input arg0; refusing to overwrite it
// RUN: %python -c "import numpy as np; print(np.load('x.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=INPUT
// INPUT: [1.0, 2.0, 3.0, 4.0]
//
// Two outputs that are one file; an output that is a directory.
// RUN: not kfuse-run two.so --output result0=same.npy --output result1=./same.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// SAME: kfuse-run: error: --output ./same.npy and --output same.npy are the same file; one would overwrite the other
// RUN: not kfuse-run two.so --output result0=sub 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: kfuse-run: error: --output sub is a directory
// RUN: test ! -e same.npy
//
// A crash inside the run (here the CUDA driver's, raised by the fake
// driver) still removes the temporary directory (the compiled program);
// so does SIGTERM. The signal is reported, then kfuse-run dies of it.
// RUN: env TMPDIR=%t/tmp KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_CRASH=cuLaunchKernel:11 \
// RUN:   not --crash kfuse-run %s --device=cuda --output=%t/crash.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SEGV
// SEGV: kfuse-run: error: the run crashed (SIGSEGV, a bad memory access); temporary files removed
// RUN: env TMPDIR=%t/tmp KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_CRASH=cuLaunchKernel:15 \
// RUN:   not --crash kfuse-run %s --device=cuda 2>&1 | FileCheck %s --check-prefix=TERM
// TERM: kfuse-run: stopped by SIGTERM; temporary files removed
// RUN: ls -A %t/tmp | count 0
// RUN: test ! -e %t/crash.npy
func.func @two(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = kf.add %x, %x : tensor<4xf32>, tensor<4xf32>
  %m = kf.mul %x, %x : tensor<4xf32>, tensor<4xf32>
  return %a, %m : tensor<4xf32>, tensor<4xf32>
}
