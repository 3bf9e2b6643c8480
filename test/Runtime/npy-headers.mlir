// .npy headers are read as numpy reads them (ast.literal_eval of a dict,
// then its checks), and one numpy refuses or reads otherwise is refused,
// naming the file: before, a lax parser took 'fortran_order' from inside a
// string, the first of two repeated keys (numpy keeps the last, so the
// arrays differed), fortran_order 1 and shape (6). Bool inputs are 0 or 1
// as numpy and torch read them: a byte 2 or 255 was passed through raw.
// What numpy makes of each file is printed by the script (NUMPY lines).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %S/Inputs/row-sum-dynamic.mlir --emit=lib -o %t/rows.so
// RUN: kfuse-compile %s --emit=lib -o %t/bool.so
// RUN: %python %s.py %t | FileCheck %s --check-prefix=NUMPY
// NUMPY: numpy instring.npy: refused
// NUMPY: numpy strvalue.npy: refused
// NUMPY: numpy one.npy: refused
// NUMPY: numpy intshape.npy: refused
// NUMPY: numpy nokey.npy: refused
// NUMPY: numpy listshape.npy: refused
// NUMPY: numpy twoshapes.npy: shape (2, 3) fortran False sums [3.0, 12.0]
// NUMPY: numpy twoorders.npy: shape (2, 3) fortran True sums [6.0, 9.0]
// NUMPY: numpy spelled.npy: shape (2, 3) fortran False sums [3.0, 12.0]
// NUMPY: numpy bool.npy: shape (4,) fortran False sums 3
//
// fortran_order appears only inside a string, under a key numpy does not know.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/instring.npy 2>&1 | FileCheck %s --check-prefix=INSTRING
// INSTRING: kfuse-run: error: {{.*}}instring.npy: the .npy header has the key 'note' (numpy's have descr, fortran_order and shape)
// fortran_order the string 'False' (it was read as False), and 1.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/strvalue.npy 2>&1 | FileCheck %s --check-prefix=STRVALUE
// STRVALUE: kfuse-run: error: {{.*}}strvalue.npy: fortran_order in the .npy header is 'False', not True or False
// RUN: not kfuse-run %t/rows.so --input arg0=%t/one.npy 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: kfuse-run: error: {{.*}}one.npy: fortran_order in the .npy header is 1, not True or False
// shape (6) is the int 6, and [2, 3] a list: neither is a tuple.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/intshape.npy 2>&1 | FileCheck %s --check-prefix=INTSHAPE
// INTSHAPE: kfuse-run: error: {{.*}}intshape.npy: shape in the .npy header is (6), not a tuple (one dim N is written (N,))
// RUN: not kfuse-run %t/rows.so --input arg0=%t/listshape.npy 2>&1 | FileCheck %s --check-prefix=LISTSHAPE
// LISTSHAPE: kfuse-run: error: {{.*}}listshape.npy: shape in the .npy header is [2, 3], not a tuple (one dim N is written (N,))
// A key missing.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/nokey.npy 2>&1 | FileCheck %s --check-prefix=NOKEY
// NOKEY: kfuse-run: error: {{.*}}nokey.npy: the .npy header has no shape
//
// A repeated key: numpy reads shape (2, 3) where the first said (3, 2)
// (the row sums would have been [1, 5, 9]), and a Fortran-order array
// where the first said C order.
// RUN: not kfuse-run %t/rows.so --input arg0=%t/twoshapes.npy 2>&1 | FileCheck %s --check-prefix=TWOSHAPES
// TWOSHAPES: kfuse-run: error: {{.*}}twoshapes.npy: the .npy header has the key 'shape' twice
// RUN: not kfuse-run %t/rows.so --input arg0=%t/twoorders.npy 2>&1 | FileCheck %s --check-prefix=TWOORDERS
// TWOORDERS: kfuse-run: error: {{.*}}twoorders.npy: the .npy header has the key 'fortran_order' twice
//
// What numpy reads, kfuse-run reads: double quotes, no trailing comma,
// newlines and tabs, another order of keys. Row sums as numpy's: [3, 12].
// RUN: kfuse-run %t/rows.so --input arg0=%t/spelled.npy --output %t/spelled-sums.npy --repeat=1 --quiet
// RUN: %python -c "import numpy as np; print(np.load('%t/spelled-sums.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=SPELLED
// SPELLED: [3.0, 12.0]
//
// Bool bytes 2, 1, 0, 255: three True, as numpy's sum says (was 258).
// RUN: kfuse-run %t/bool.so --input arg0=%t/bool.npy --output %t/count.npy --repeat=1 --quiet
// RUN: %python -c "import numpy as np; print(np.load('%t/count.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=BOOL
// BOOL: {{^}}3{{$}}
func.func @count_true(%x: tensor<4xi1>) -> tensor<i64> {
  %i = kf.cast %x : tensor<4xi1> to i32
  %s = kf.sum %i : tensor<4xi32>
  return %s : tensor<i64>
}
