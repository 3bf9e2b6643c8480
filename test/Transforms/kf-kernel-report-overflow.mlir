// Issue 13, item 16: sizes in the kernel report are computed with checked
// arithmetic. A size that does not fit in int64 prints "overflow" (and is
// "overflow" in JSON), never a wrapped number: before, d0 = 2^63 - 1 gave
// wrapped element and byte counts in which fused looked bigger than eager.
// RUN: kfuse-opt %s "--kf-kernel-report=dims=d0=9223372036854775807,d1=9223372036854775807" -o /dev/null | FileCheck %s --check-prefix=MAX
// RUN: kfuse-opt %s "--kf-kernel-report=dims=d0=1152921504606846976,d1=1152921504606846976" -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: kfuse-opt %s "--kf-kernel-report=format=json dims=d0=9223372036854775807,d1=9223372036854775807" -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: kfuse-opt %s "--kf-kernel-report=dims=d0=1000,d1=1000" -o /dev/null | FileCheck %s --check-prefix=SMALL

// add+relu over d0 = d1 elements: eager moves 5*d0 elements (20*d0
// bytes), fused 3*d0 (12*d0 bytes).
// MAX-LABEL: function @add_relu
// MAX: elements overflow overflow
// MAX-NEXT: bytes overflow overflow
// MAX: d0 = dim 0 of arg 0 = 9223372036854775807

// d0 = 2^60: 5 * 2^60 = 5764607523034234880 and 3 * 2^60 =
// 3458764513820540928 elements fit; 20 * 2^60 and 12 * 2^60 bytes do not.
// BYTES-LABEL: function @add_relu
// BYTES: elements 5764607523034234880 3458764513820540928
// BYTES-NEXT: bytes overflow overflow

// JSON: "bytes": "overflow"
// JSON: "elements": "overflow"

// SMALL: elements 5000 3000
// SMALL-NEXT: bytes 20000 12000
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
