// Bad input to kfuse-run: one clear error, exit status 1, no signal, and
// no output file left behind (each case writes --output to a fresh path).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/f32x8.npy', np.arange(8, dtype=np.float32)); np.save('%t/f32x7.npy', np.zeros(7, np.float32)); np.save('%t/f64x8.npy', np.zeros(8)); np.save('%t/f32x2x4.npy', np.zeros((2, 4), np.float32)); open('%t/junk.npy', 'w').write('not an array')"
//
// The program file does not exist.
// RUN: not kfuse-run %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kfuse-run: error: cannot read {{.*}}missing.mlir
//
// A .mlir that does not parse: kfuse-compile's located error, then why.
// RUN: not kfuse-run %S/Inputs/syntax-error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: syntax-error.mlir:2:{{[0-9]+}}: error:
// SYNTAX: kfuse-run: error: compiling {{.*}}syntax-error.mlir failed
//
// A shared library that kfuse-compile did not write.
// RUN: not kfuse-run %fake-cuda 2>&1 | FileCheck %s --check-prefix=NOTLIB
// NOTLIB: kfuse-run: error: {{.*}}libkfuse_fake_cuda.so is not a library from kfuse-compile --emit=lib (no kfuse_manifest)
//
// Two functions and no --entry; an unknown --entry.
// RUN: not kfuse-run %S/Inputs/two-functions.mlir 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: kfuse-run: error: {{.*}}two-functions.mlir has 2 functions: choose one with --entry
// RUN: not kfuse-run %S/Inputs/two-functions.mlir --entry=nope 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: kfuse-run: error: no function 'nope' in {{.*}} (it has scale, negate)
//
// Inputs whose shape or dtype do not match, a file that is not .npy, one
// that does not exist, an argument the function does not have, an input
// given twice.
// RUN: not kfuse-run %s --input arg0=%t/f32x7.npy --output=%t/o1.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: kfuse-run: error: --input arg0={{.*}}f32x7.npy has shape [7]; scale takes [8]
// RUN: not kfuse-run %s --input arg0=%t/f32x2x4.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: kfuse-run: error: --input arg0={{.*}}f32x2x4.npy has shape [2, 4]; scale takes [8]
// RUN: not kfuse-run %s --input arg0=%t/f64x8.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: kfuse-run: error: --input arg0={{.*}}f64x8.npy holds f64; scale takes f32
// RUN: not kfuse-run %s --input arg0=%t/junk.npy 2>&1 | FileCheck %s --check-prefix=JUNK
// JUNK: kfuse-run: error: {{.*}}junk.npy is not a .npy file
// RUN: not kfuse-run %s --input arg0=%t/none.npy 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: kfuse-run: error: cannot open {{.*}}none.npy
// RUN: not kfuse-run %s --input arg1=%t/f32x8.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: kfuse-run: error: --input arg1: scale takes arg0 .. arg0
// RUN: not kfuse-run %s --input arg0=%t/f32x8.npy --input arg0=%t/f32x8.npy 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: kfuse-run: error: --input arg0 is given twice
//
// Outputs: a result the function does not have; the input file itself.
// RUN: not kfuse-run %s --output result1=%t/o2.npy 2>&1 | FileCheck %s --check-prefix=NORESULT
// NORESULT: kfuse-run: error: --output result1: scale has 1 result(s), result0 ..
// RUN: not kfuse-run %s --input arg0=%t/f32x8.npy --output %t/f32x8.npy 2>&1 | FileCheck %s --check-prefix=CLOBBER
// CLOBBER: kfuse-run: error: --output {{.*}}f32x8.npy is also --input arg0; refusing to overwrite it
//
// Options with values that are not allowed.
// RUN: not kfuse-run %s --device=tpu 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: kfuse-run: error: --device must be auto, cuda or cpu, got 'tpu'
// RUN: not kfuse-run %s --repeat=-1 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: kfuse-run: error: --repeat takes an integer from 0 to 1000000, got '-1'
// --fusion's words are kfuse-compile's: it refuses one it does not know.
// RUN: not kfuse-run %s --fusion=maybe 2>&1 | FileCheck %s --check-prefix=FUSION
// FUSION: kfuse-compile: error: --fusion=maybe: unknown fusion option 'maybe'
// FUSION: kfuse-run: error: compiling {{.*}} failed (kfuse-compile said why above)
// The words of an older spelling are refused with the right one.
// RUN: not kfuse-run %s --fusion=eager 2>&1 | FileCheck %s --check-prefix=EAGER
// EAGER: kfuse-run: error: --fusion=eager: say off (fused kernels: on; one kernel per op: off)
// RUN: not kfuse-run %s --fusion= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kfuse-run: error: --fusion needs on, off or fusion switches such as row-persistent=false
// RUN: not kfuse-run %s --frobnicate 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kfuse-run: error: unknown option --frobnicate (see --help)
// RUN: not kfuse-run %s --dim d0=8 2>&1 | FileCheck %s --check-prefix=NODIM
// NODIM: kfuse-run: error: --dim d0: scale has no size symbol d0 (its sizes are all static)
// RUN: not kfuse-run %s --dim d0 2>&1 | FileCheck %s --check-prefix=BADDIM
// BADDIM: kfuse-run: error: --dim takes dK=N with N >= 0, got 'd0'
//
// Dynamic sizes that do not match at run time: the program's own check
// stops it; kfuse-run turns the abort into exit status 1.
// RUN: not kfuse-run %S/Inputs/dynamic-add.mlir --dim d0=5 --dim d1=4 --output=%t/o3.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RUNTIME
// RUN: test ! -e %t/o3.npy
// RUNTIME: kf.add: dynamic dim 0 of operand #1 does not match the broadcast size
// RUNTIME: kfuse-run: error: a run-time check of the program failed (its message is above); no output was written
//
// A dynamic size with no value.
// RUN: not kfuse-run %S/Inputs/dynamic-add.mlir 2>&1 | FileCheck %s --check-prefix=NEEDDIM
// NEEDDIM: kfuse-run: error: arg0 of add has a dynamic dim 0 (d0): give --dim d0=N or --input arg0=FILE
//
// None of the failed runs wrote an output.
// RUN: test ! -e %t/o1.npy && test ! -e %t/o2.npy
func.func @scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %x, %x : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}
