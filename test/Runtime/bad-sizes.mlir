// Sizes that do not fit, and input that made kfuse-run throw: one error
// naming the file, option or size, exit status 1, no output. Before, a
// .npy shape whose element count wrapped (or was negative, or not an
// integer) or a format version numpy does not write was accepted, and
// the uncaught exceptions were reported as a failed run-time check.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %S/Inputs/row-sum-dynamic.mlir --emit=lib -o %t/rows.so
// RUN: %python %s.py %t
//
// .npy headers numpy itself refuses to load.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/wraps.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRAPS
// WRAPS: kfuse-run: error: {{.*}}wraps.npy: shape [4294967296, 4294967296] of f32 is more than 2^63 - 1 bytes
// RUN: not kfuse-run %t/rows.so --input arg0=%t/negative.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: kfuse-run: error: {{.*}}negative.npy: bad shape in the header: dim '-2' is not a non-negative integer
// RUN: not kfuse-run %t/rows.so --input arg0=%t/fraction.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FRACTION
// FRACTION: kfuse-run: error: {{.*}}fraction.npy: bad shape in the header: dim '2.9' is not a non-negative integer
// RUN: not kfuse-run %t/rows.so --input arg0=%t/letter.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LETTER
// LETTER: kfuse-run: error: {{.*}}letter.npy: bad shape in the header: dim ''a'' is not a non-negative integer
// RUN: not kfuse-run %t/rows.so --input arg0=%t/huge-dim.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HUGEDIM
// HUGEDIM: kfuse-run: error: {{.*}}huge-dim.npy: bad shape in the header: dim 99999999999999999999 is more than 2^63 - 1
// RUN: not kfuse-run %t/rows.so --input arg0=%t/version0.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERSION0
// VERSION0: kfuse-run: error: {{.*}}version0.npy: .npy format version 0.0 is not one numpy writes (1.0, 2.0, 3.0)
// RUN: not kfuse-run %t/rows.so --input arg0=%t/version9.npy --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERSION9
// VERSION9: kfuse-run: error: {{.*}}version9.npy: .npy format version 9.0 is not one numpy writes (1.0, 2.0, 3.0)
// The same header as version 2.0 and 3.0 (what numpy writes for big
// headers) is read: row sums of [[0, 1, 2], [3, 4, 5]] are [3, 12].
// RUN: kfuse-run %t/rows.so --input arg0=%t/version2.npy --output=%t/v2.npy --repeat=1 --quiet
// RUN: kfuse-run %t/rows.so --input arg0=%t/version3.npy --output=%t/v3.npy --repeat=1 --quiet
// RUN: %python -c "import numpy as np; print(np.load('%t/v2.npy').tolist(), np.load('%t/v3.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=VERSION23
// VERSION23: [3.0, 12.0] [3.0, 12.0]
//
// --dim sizes whose product wraps (2^32 * 2^32 elements was 0, and the
// run "succeeded"); one that fits 64 bits but no memory.
// RUN: not kfuse-run %t/rows.so --dim d0=4294967296 --dim d1=4294967296 --output=%t/o.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIMS
// DIMS: kfuse-run: error: arg0 of row_sum: shape [4294967296, 4294967296] of f32 is more than 2^63 - 1 bytes (see --dim)
// RUN: not kfuse-run %t/rows.so --dim d0=288230376151711744 --dim d1=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOMEM
// NOMEM: kfuse-run: error: arg0 of row_sum: cannot allocate 1152921504606846976 bytes of host memory for shape [288230376151711744, 1]
// Inputs that fit, with a result that does not: 4 * 2^22 * 2^22 * 2^22
// bytes (2^68) would wrap in the program's own size arithmetic.
// RUN: not kfuse-run %S/Inputs/outer-sum-3d.mlir --dim d0=4194304 --dim d1=4194304 --dim d2=4194304 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RESULT: kfuse-run: error: with these sizes kernel '{{.*}}' of outer moves more than 2^63 - 1 bytes (4*d0*d1*d2)
//
// A --dim, --output or --trace given twice (the last one won silently).
// RUN: not kfuse-run %t/rows.so --dim d0=2 --dim d0=3 2>&1 | FileCheck %s --check-prefix=DIMTWICE
// DIMTWICE: kfuse-run: error: --dim d0 is given twice (2 and 3)
// RUN: not kfuse-run %t/rows.so --dim d0=2 --dim d1=3 --output %t/a.npy --output %t/b.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTTWICE
// OUTTWICE: kfuse-run: error: --output result0 is given twice ({{.*}}a.npy and {{.*}}b.npy)
// RUN: not kfuse-run %t/rows.so --trace %t/a.json --trace=%t/b.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRACETWICE
// TRACETWICE: kfuse-run: error: --trace is given twice ({{.*}}a.json and {{.*}}b.json)
//
// What threw: an input that is a directory, a bad KFUSE_NUM_THREADS or
// KFUSE_POOL_SPIN_US.
// RUN: not kfuse-run %t/rows.so --input arg0=%t 2>&1 | FileCheck %s --check-prefix=ISDIR
// ISDIR: kfuse-run: error: cannot read {{.*}}: Is a directory
// RUN: not env KFUSE_NUM_THREADS=-1 kfuse-run %t/rows.so --dim d0=2 --dim d1=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// THREADS: kfuse-run: error: cannot use the device: KFUSE_NUM_THREADS must be an integer from 1 to 4096, got '-1'
// RUN: not env KFUSE_NUM_THREADS=many kfuse-run %t/rows.so --dim d0=2 --dim d1=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS2
// THREADS2: kfuse-run: error: cannot use the device: KFUSE_NUM_THREADS must be an integer from 1 to 4096, got 'many'
// A spin past a second, or not a number of microseconds, is refused.
// RUN: not env KFUSE_POOL_SPIN_US=2000000 kfuse-run %t/rows.so --dim d0=2 --dim d1=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPIN
// SPIN: kfuse-run: error: cannot use the device: KFUSE_POOL_SPIN_US must be an integer from 0 to 1000000, got '2000000'
// RUN: not env KFUSE_POOL_SPIN_US=1ms kfuse-run %t/rows.so --dim d0=2 --dim d1=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPIN2
// SPIN2: kfuse-run: error: cannot use the device: KFUSE_POOL_SPIN_US must be an integer from 0 to 1000000, got '1ms'
// RUN: env KFUSE_NUM_THREADS=3 kfuse-run %t/rows.so --dim d0=2 --dim d1=3 --repeat=1 | FileCheck %s --check-prefix=THREE
// THREE: device: cpu: 3 threads
//
// None of the failed runs wrote an output.
// RUN: test ! -e %t/o.npy && test ! -e %t/a.npy && test ! -e %t/a.json
