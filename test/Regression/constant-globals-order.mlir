// The same program compiles to the same bytes every time. argmax and
// argmin read a constant of indices (arange of the reduced dim); upstream's
// module bufferization created their memref.globals in an order that
// changed from run to run (functions that do not call one another are
// visited in pointer order), so the LLVM IR did too: kf-order-constant-
// globals puts them in order of their names. Six compilations, one text.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for i in 1 2 3 4 5 6; do kfuse-compile %s --emit=llvm -o %t/$i.ll || exit 1; \
// RUN:   kfuse-opt %s --kf-host-runtime-pipeline -o %t/host$i.mlir || exit 1; done
// RUN: cat %t/1.ll %t/2.ll %t/3.ll %t/4.ll %t/5.ll %t/6.ll | md5sum > %t/all
// RUN: for i in 1 2 3 4 5 6; do cat %t/1.ll; done | md5sum | diff - %t/all
// RUN: cat %t/host1.mlir %t/host2.mlir %t/host3.mlir %t/host4.mlir %t/host5.mlir %t/host6.mlir | md5sum > %t/hosts
// RUN: for i in 1 2 3 4 5 6; do cat %t/host1.mlir; done | md5sum | diff - %t/hosts
// The globals themselves, in name order (1000 before 100: '0' < 'x').
// RUN: FileCheck %s < %t/host1.mlir
// CHECK: llvm.mlir.global private constant @__constant_1000xi64
// CHECK-NEXT: llvm.mlir.global private constant @__constant_100xi64
// CHECK-NEXT: llvm.mlir.global private constant @__constant_10xi64

func.func @argmax(%x: tensor<?x1000xf32>) -> tensor<?xi64> {
  %0 = kf.argmax %x dim 1 : tensor<?x1000xf32>
  return %0 : tensor<?xi64>
}
func.func @argmin(%x: tensor<?x100xi64>) -> tensor<?x1xi64> {
  %0 = kf.argmin %x dim 1 keepdim : tensor<?x100xi64>
  return %0 : tensor<?x1xi64>
}
func.func @argmax10(%x: tensor<?x10xf32>) -> tensor<?xi64> {
  %0 = kf.argmax %x dim 1 : tensor<?x10xf32>
  return %0 : tensor<?xi64>
}
