// kfuse-run keys its compile cache on the program text it read, and
// kfuse-compile compiles that same text (a private copy), not the file
// read again: a save that lands between the two used to store the new
// program's library under the old text's key, and every later run of the
// old text ran the new program ("compile: cache hit", exit 0, wrong
// numbers). KFUSE_RUN_TEST_AFTER_READ makes that save deterministic: it
// runs right after kfuse-run read the program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/prog.mlir && sed 's/kf.add %x, %x/kf.mul %x, %x/' %s > %t/saved.mlir
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, 2, 3, 4], np.float32))"
//
// The run that read x + x compiles x + x, though x * x was saved meanwhile.
// RUN: env KFUSE_CACHE_DIR=%t/c "KFUSE_RUN_TEST_AFTER_READ=cp %t/saved.mlir %t/prog.mlir" \
// RUN:   kfuse-run %t/prog.mlir --device=cpu --repeat=1 --input arg0=%t/x.npy --output %t/first.npy \
// RUN:   | FileCheck %s --check-prefix=MISS
// MISS: compile: cache miss (first compile of this program)
// RUN: cmp %t/prog.mlir %t/saved.mlir
// The same text again hits, and runs x + x; the saved text is a miss of
// its own, and runs x * x.
// RUN: cp %s %t/prog.mlir
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --device=cpu --repeat=1 \
// RUN:   --input arg0=%t/x.npy --output %t/again.npy | FileCheck %s --check-prefix=HIT
// HIT: compile: cache hit
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/saved.mlir --device=cpu --repeat=1 \
// RUN:   --input arg0=%t/x.npy --output %t/saved.npy | FileCheck %s --check-prefix=TEXT
// TEXT: compile: cache miss (first compile of this program)
// By hand: x + x = [2, 4, 6, 8], x * x = [1, 4, 9, 16].
// RUN: %python -c "import numpy as np; print([np.load('%t/' + n + '.npy').tolist() for n in ('first', 'again', 'saved')])" \
// RUN:   | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[}}[2.0, 4.0, 6.0, 8.0], [2.0, 4.0, 6.0, 8.0], [1.0, 4.0, 9.0, 16.0]]
//
// kfuse-compile's diagnostics still name the program file, not the copy.
// RUN: sed 's/kf.add %x, %x/kf.add %x, %y/' %s > %t/bad.mlir
// RUN: not env KFUSE_CACHE_DIR=%t/c kfuse-run %t/bad.mlir --device=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// DIAG: {{.*}}/bad.mlir:[[@LINE+3]]:{{[0-9]+}}: error: use of undeclared SSA value name
// DIAG-NOT: source.mlir
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.add %x, %x : tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}
