// REQUIRES: torch
// What kfuse-import refuses, through its API: UnsupportedOp names the aten op
// and the user's source line (and quotes it). The command line prints the
// same message and exits 1 (cli.mlir).
// RUN: %torch-python %s.py 2>&1 | FileCheck %s

// CHECK:      cumprod: UnsupportedOp op=aten.cumprod.default where=refuse.mlir.py:17 reason=kf has no op for it
// CHECK-NEXT:   message: {{.*}}refuse.mlir.py:17: aten.cumprod.default: kf has no op for it (see importer/README.md for what kfuse-import maps)
// CHECK-NEXT:     return torch.cumprod(x, 0)
// kf gathers floats only (an index out of range shows as NaN).
// CHECK:      int_gather: UnsupportedOp op=aten.index_select.default where=refuse.mlir.py:26 reason=index_select of i64 values: kf gathers floats only (an index out of range shows as NaN)
// CHECK:      batch_norm_training: UnsupportedOp op=aten._native_batch_norm_legit_functional.default where=refuse.mlir.py:35 reason=batch_norm in training mode updates its running statistics, which a kf function cannot (call model.eval() before importing)
// CHECK:      label_smoothing: UnsupportedOp op=aten.cross_entropy_loss.default where=refuse.mlir.py:40 reason=cross_entropy with label_smoothing
// kf.argmax needs the size of the dim it reduces (its index constant).
// CHECK:      argmax_dynamic: UnsupportedOp op=aten.argmax.default where=refuse.mlir.py:45 reason=argmax over a dynamic dim (kf needs its size)
// CHECK:      int_trunc: UnsupportedOp op=aten.div.Tensor_mode where=refuse.mlir.py:50 reason=integer division with rounding_mode='trunc' (kf has no trunc)
// CHECK:      uint8: UnsupportedOp op=None where=None reason=input x has dtype torch.uint8, which kf lacks
// CHECK:      size_as_value: UnsupportedOp op=aten.mul.Tensor where=refuse.mlir.py:60 reason=a tensor size (sym_size_int_1) used as a value
// An op in a helper function: its own line, and forward()'s as the caller
// (torch.export records only forward()'s frames; the importer keeps them all).
// CHECK:      in_helper: UnsupportedOp op=aten.cumprod.default where=refuse.mlir.py:64 reason=kf has no op for it
// CHECK-NEXT:   message: {{.*}}refuse.mlir.py:64: aten.cumprod.default: kf has no op for it
// CHECK-NEXT:     return torch.cumprod(x, 0)
// CHECK-NEXT:   called from {{.*}}refuse.mlir.py:69 in forward: return running_total(x * 2)
// CHECK-NEXT:   callers: refuse.mlir.py:69 in forward
// Advanced indexing that kf.index_select cannot express: a boolean mask,
// several index tensors.
// CHECK:      mask_index: UnsupportedOp op=aten.index.Tensor where=refuse.mlir.py:92 reason=indexing with a boolean mask (the result's size depends on the data)
// CHECK:      two_index_tensors: UnsupportedOp op=aten.index.Tensor where=refuse.mlir.py:93 reason=indexing with 2 index tensors (kf takes one: x[i] or x[:, i])
// Every op kf lacks, at once: the first as the error, the others after it.
// CHECK:      several: UnsupportedOp op=aten.cumprod.default where=refuse.mlir.py:95
// CHECK:      also refused: {{.*}}refuse.mlir.py:95: aten.sort.default
// CHECK-NEXT: also refused: {{.*}}refuse.mlir.py:95: aten.cummax.default
// CHECK-NEXT:   others: aten.sort.default, aten.cummax.default
// CHECK-NOT:  imported (expected a refusal)
