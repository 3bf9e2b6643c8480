// Issue 13, item 8: a static shape whose element count or byte size does
// not fit in int64 is refused wherever it appears in a kf program (a kf
// op's operands and results, inferred ones included, and the signature of a
// function holding kf ops), naming which count overflows and the type.
// Before the fix these verified, and kfuse-run sized their buffers as 0.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// 2^62 f32 elements are 2^64 bytes.
func.func @operand_bytes(%a: tensor<4611686018427387904xf32>) {
  // expected-error @+1 {{'kf.relu' op operand #0 tensor<4611686018427387904xf32> has 4611686018427387904 elements of 4 bytes: more than 2^63 - 1 bytes (its byte size overflows int64)}}
  %0 = kf.relu %a : tensor<4611686018427387904xf32>
  return
}

// -----

// 2^31 x 2^31 f32: the same bytes, from two dims that each fit.
func.func @operand_bytes_2d(%a: tensor<2147483648x2147483648xf32>) {
  // expected-error @+1 {{'kf.exp' op operand #0 tensor<2147483648x2147483648xf32> has 4611686018427387904 elements of 4 bytes}}
  %0 = kf.exp %a : tensor<2147483648x2147483648xf32>
  return
}

// -----

// f16: 2^62 elements of 2 bytes are 2^63 bytes, one more than int64 holds.
func.func @operand_bytes_f16(%a: tensor<4611686018427387904xf16>) {
  // expected-error @+1 {{'kf.neg' op operand #0 tensor<4611686018427387904xf16> has 4611686018427387904 elements of 2 bytes}}
  %0 = kf.neg %a : tensor<4611686018427387904xf16>
  return
}

// -----

// The element count itself: 2^32 x 2^32 is 2^64 elements.
func.func @operand_elements(%a: tensor<4294967296x4294967296xi1>) {
  // expected-error @+1 {{'kf.cast' op operand #0 tensor<4294967296x4294967296xi1> has more than 2^63 - 1 elements (its element count overflows int64)}}
  %0 = kf.cast %a : tensor<4294967296x4294967296xi1> to f32
  return
}

// -----

// An inferred result: [2^31, 1] + [1, 2^31] broadcasts to 2^62 f32.
func.func @broadcast_result(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) {
  // expected-error @+1 {{'kf.add' op result #0 tensor<2147483648x2147483648xf32> has 4611686018427387904 elements of 4 bytes}}
  %0 = kf.add %a, %b : tensor<2147483648x1xf32>, tensor<1x2147483648xf32>
  return
}

// -----

// An inferred result: [2^31, 1] x [1, 2^31].
func.func @matmul_result(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) {
  // expected-error @+1 {{'kf.matmul' op result #0 tensor<2147483648x2147483648xf32> has 4611686018427387904 elements of 4 bytes}}
  %0 = kf.matmul %a, %b : tensor<2147483648x1xf32>, tensor<1x2147483648xf32>
  return
}

// -----

// An argument no kf op reads is still allocated by kfuse-run.
// expected-error @+1 {{function @unused_argument argument #1 tensor<4611686018427387904xf32> has 4611686018427387904 elements of 4 bytes}}
func.func @unused_argument(%a: tensor<8xf32>, %b: tensor<4611686018427387904xf32>) -> tensor<8xf32> {
  %0 = kf.relu %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// So is a result that no kf op makes.
// expected-error @+1 {{function @unmade_result result #1 tensor<2147483648x2147483648xf32> has 4611686018427387904 elements of 4 bytes}}
func.func @unmade_result(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<2147483648x2147483648xf32>) {
  %0 = kf.relu %a : tensor<8xf32>
  %1 = tensor.empty() : tensor<2147483648x2147483648xf32>
  return %0, %1 : tensor<8xf32>, tensor<2147483648x2147483648xf32>
}

// -----

// What fits is accepted: 2^62 bools are 2^62 bytes, 2^63 - 1 bools are
// 2^63 - 1 bytes, and dynamic dims are not counted.
func.func @fits(%a: tensor<4611686018427387904xi1>, %b: tensor<9223372036854775807xi1>,
                %c: tensor<?x2147483648xf32>) {
  %0 = kf.cast %a : tensor<4611686018427387904xi1> to i1
  %1 = kf.cast %b : tensor<9223372036854775807xi1> to i1
  %2 = kf.relu %c : tensor<?x2147483648xf32>
  return
}
