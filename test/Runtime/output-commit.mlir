// kfuse-run's outputs are all replaced or none (OutputFiles.h), also when
// what fails is the replacing itself, and nothing is left behind:
//  - an output that could be staged but not renamed over (an immutable
//    file; another user's file in a sticky folder) used to be found at
//    its rename, after the outputs before it were replaced: it is refused
//    before the run;
//  - a write past the file-size limit (ulimit -f, a full disk's stand-in)
//    used to kill kfuse-run and kfuse-compile with SIGXFSZ, no message,
//    leaving .kfuse-XXXXXX staging files and kfuse-lib-*.o objects: it
//    fails with EFBIG, named, and the temporaries are removed;
//  - --output may not replace a file --input-dir reads.
// Root ignores permissions: the tests use chattr +i, and drop CAP_FOWNER
// with setpriv to be a user the sticky folder's rule applies to.
// REQUIRES: immutable-files
// RUN: chattr -R -ia %t 2>/dev/null; rm -rf %t && mkdir -p %t/tmp && cd %t
// RUN: kfuse-compile %s --emit=lib -o %t/two.so
// RUN: %python -c "import numpy as np; np.save('x.npy', np.array([1, 2, 3, 4], np.float32))"
//
// The second output is immutable: refused before the run, the first is
// left as it was, no staging file stays.
// RUN: echo old > first.npy && echo old > second.npy && chattr +i second.npy
// RUN: not kfuse-run two.so --entry two --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=first.npy --output result1=second.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IMMUTABLE
// IMMUTABLE: kfuse-run: error: cannot replace second.npy: it is immutable (chattr +i)
// RUN: chattr -i second.npy
// RUN: cat first.npy second.npy | FileCheck %s --check-prefix=OLD
// OLD: old
// OLD-NEXT: old
// The same for --trace, and for an append-only folder.
// RUN: mkdir append && echo old > append/trace.json && chattr +a append
// RUN: not kfuse-run two.so --entry two --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=first.npy --trace append/trace.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=APPEND
// APPEND: kfuse-run: error: cannot replace append/trace.json: its directory append is append-only (chattr +a)
// RUN: chattr -a append
// RUN: cat first.npy append/trace.json | FileCheck %s --check-prefix=OLD
//
// Another user's file in a sticky folder (as /tmp), for a user without
// CAP_FOWNER: refused before the run; the first output is left as it was.
// RUN: mkdir sticky && chmod 1777 sticky && echo old > sticky/theirs.npy
// RUN: chown 65534 sticky sticky/theirs.npy
// RUN: not setpriv --inh-caps=-fowner --bounding-set=-fowner kfuse-run two.so --entry two \
// RUN:   --input arg0=x.npy --repeat=1 --quiet --output result0=first.npy \
// RUN:   --output result1=sticky/theirs.npy 2>&1 | FileCheck %s --check-prefix=STICKY
// STICKY: kfuse-run: error: cannot replace sticky/theirs.npy: it belongs to another user (uid 65534) in the sticky directory sticky
// RUN: cat first.npy sticky/theirs.npy | FileCheck %s --check-prefix=OLD
// With CAP_FOWNER (root's), the file is replaced, as rename(2) allows.
// RUN: kfuse-run two.so --entry two --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=first.npy --output result1=sticky/theirs.npy
// RUN: %python -c "import numpy as np; print(np.load('first.npy').tolist(), np.load('sticky/theirs.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=BOTH
// BOTH: [2.0, 4.0, 6.0, 8.0] [1.0, 4.0, 9.0, 16.0]
//
// A 4 KiB result past a 1 KiB file-size limit: an error naming the file,
// the old file kept, no staging file left.
// RUN: echo old > big.npy
// RUN: not bash -c 'ulimit -f 1 && exec kfuse-run two.so --entry big --repeat=1 --quiet \
// RUN:   --output big.npy' 2>&1 | FileCheck %s --check-prefix=FSIZE
// FSIZE: kfuse-run: error: cannot write big.npy: File too large
// RUN: cat big.npy | FileCheck %s --check-prefix=OLD1
// OLD1: old
// kfuse-compile: its first object is more than 1 KiB; the library and a
// text output past 8 KiB (the LLVM IR).
// RUN: not bash -c 'ulimit -f 1 && TMPDIR=%t/tmp exec kfuse-compile %s --emit=lib -o %t/lib.so' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT
// OBJECT: kfuse-compile: error: cannot write {{.*}}kfuse-lib-{{.*}}.o: File too large
// RUN: test ! -e lib.so
// RUN: not bash -c 'ulimit -f 8 && TMPDIR=%t/tmp exec kfuse-compile %s --emit=llvm -o %t/host.ll' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TEXTOUT
// TEXTOUT: kfuse-compile: error: cannot write {{.*}}host.ll: File too large
// RUN: test ! -e host.ll
// RUN: %python -c "import glob; print(glob.glob('%t/.*') + glob.glob('%t/*kfuse*') + glob.glob('%t/tmp/*'))" \
// RUN:   | FileCheck %s --check-prefix=NOTEMP
// NOTEMP: []
//
// SIGTERM while an output is being committed (here kfuse-run waits for a
// reader of the FIFO given as --trace, the regular output already
// staged): the staging file is removed, the old file kept.
// RUN: mkfifo fifo && echo old > staged.npy
// RUN: %python %s.py staged staged.npy -- kfuse-run two.so --entry two --input arg0=x.npy \
// RUN:   --repeat=1 --quiet --output result0=staged.npy --trace fifo | FileCheck %s --check-prefix=SIGTERM
// SIGTERM: staged
// SIGTERM-NEXT: kfuse-run: stopped by SIGTERM; temporary files removed
// SIGTERM-NEXT: killed by SIGTERM
// RUN: cat staged.npy | FileCheck %s --check-prefix=OLD1
// RUN: %python -c "import glob; print(glob.glob('%t/.*'))" | FileCheck %s --check-prefix=NOTEMP
// SIGTERM right after the first of three renames (strace holds its return
// 2 s): it is acted on after the last, so the outputs are all new; it
// used to leave the first new and the others old.
// RUN: echo old > r0.npy && echo old > r1.npy && echo old > trace.json
// RUN: %python %s.py renamed r0.npy -- kfuse-run two.so --entry two --input arg0=x.npy \
// RUN:   --repeat=1 --quiet --output result0=r0.npy --output result1=r1.npy --trace trace.json \
// RUN:   | FileCheck %s --check-prefix=BETWEEN
// BETWEEN: renamed
// BETWEEN-NEXT: kfuse-run: stopped by SIGTERM; temporary files removed
// BETWEEN-NEXT: killed by SIGTERM
// RUN: %python -c "import numpy as np, json; print(np.load('r0.npy').tolist(), np.load('r1.npy').tolist(), sorted(json.load(open('trace.json'))))" \
// RUN:   | FileCheck %s --check-prefix=ALLNEW
// ALLNEW: [2.0, 4.0, 6.0, 8.0] [1.0, 4.0, 9.0, 16.0] [
// RUN: %python -c "import glob; print(glob.glob('%t/.*'))" | FileCheck %s --check-prefix=NOTEMP
//
// --input-dir's argN.npy is an input: --output may not replace it (as it
// may not replace --input's), unless --input gives argN instead.
// RUN: mkdir in && cp x.npy in/arg0.npy
// RUN: not kfuse-run two.so --entry two --input-dir in --output result0=in/arg0.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INPUTDIR
// INPUTDIR: kfuse-run: error: --output in/arg0.npy is also --input-dir's arg0.npy; refusing to overwrite it
// RUN: cmp x.npy in/arg0.npy
// RUN: kfuse-run two.so --entry two --input-dir in --input arg0=x.npy --repeat=1 --quiet \
// RUN:   --output result0=in/arg0.npy
func.func @two(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = kf.add %x, %x : tensor<4xf32>, tensor<4xf32>
  %m = kf.mul %x, %x : tensor<4xf32>, tensor<4xf32>
  return %a, %m : tensor<4xf32>, tensor<4xf32>
}

func.func @big(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = kf.add %x, %x : tensor<1024xf32>, tensor<1024xf32>
  return %a : tensor<1024xf32>
}
