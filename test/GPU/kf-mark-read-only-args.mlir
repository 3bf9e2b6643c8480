// kf-mark-read-only-args: a kernel's memref argument is marked llvm.readonly
// (for ld.global.nc) when the kernel never writes it and, at every launch,
// every buffer the kernel writes is a fresh allocation other than the
// argument's own; `lowered` adds llvm.noalias to the marked kernels'
// readonly pointers once convert-gpu-to-nvvm has expanded the descriptors.
// RUN: kfuse-opt %s -split-input-file --kf-mark-read-only-args | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-mark-read-only-args \
// RUN:   --convert-gpu-to-nvvm=index-bitwidth=64 "--kf-mark-read-only-args=lowered=true" \
// RUN:   | FileCheck %s --check-prefix=LOWERED

// Two inputs read, one output allocated for the kernel: both inputs marked,
// the output not.
// CHECK-LABEL: gpu.func @add(
// CHECK-SAME: %{{.*}}: memref<?xf32> {llvm.readonly}, %{{.*}}: memref<?xf32> {llvm.readonly}, %{{[a-z0-9]+}}: memref<?xf32>)
// CHECK-SAME: kfuse.read_only_args
// Lowered: each input's allocated and aligned pointers are readonly and
// noalias; the output's are neither.
// LOWERED-LABEL: llvm.func @add(
// LOWERED-SAME: %arg0: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg1: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg2: i64, %arg3: i64, %arg4: i64,
// LOWERED-SAME: %arg5: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg6: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg7: i64, %arg8: i64, %arg9: i64,
// LOWERED-SAME: %arg10: !llvm.ptr, %arg11: !llvm.ptr, %arg12: i64, %arg13: i64, %arg14: i64)
// The marker is gone once used.
// LOWERED-NOT: kfuse.read_only_args
// LOWERED-LABEL: llvm.func @in_place(
// Only the last memref (%arg17, %arg18: its two pointers) is noalias.
// LOWERED-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr,
// LOWERED-SAME: %arg5: !llvm.ptr, %arg6: !llvm.ptr,
// LOWERED-SAME: %arg12: !llvm.ptr, %arg13: !llvm.ptr,
// LOWERED-SAME: %arg17: !llvm.ptr {llvm.noalias, llvm.readonly}, %arg18: !llvm.ptr {llvm.noalias, llvm.readonly},
// LOWERED-NOT: kfuse.read_only_args
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) -> memref<?xf32> {
    %c1 = arith.constant 1 : index
    %c = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>)
    return %c : memref<?xf32>
  }
  gpu.module @kernels {
    gpu.func @add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A buffer the kernel reads and writes (an intermediate read back) is not
// read-only; a view of a buffer it writes (the 1-D view of the 2-D output)
// is the same memory, so it is not marked either, though the kernel only
// reads the view. The other input is.
// CHECK-LABEL: gpu.func @in_place(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: memref<?x4xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {llvm.readonly})
// CHECK-SAME: kfuse.read_only_args
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>, %n: index) -> memref<?x4xf32> {
    %c1 = arith.constant 1 : index
    %u = gpu.alloc (%n) : memref<?xf32>
    %t = gpu.alloc (%n) : memref<?x4xf32>
    %flat = memref.collapse_shape %t [[0, 1]] : memref<?x4xf32> into memref<?xf32>
    gpu.launch_func @kernels::@in_place blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%u : memref<?xf32>, %t : memref<?x4xf32>, %flat : memref<?xf32>, %x : memref<?xf32>)
    return %t : memref<?x4xf32>
  }
  gpu.module @kernels {
    gpu.func @in_place(%u: memref<?xf32>, %t: memref<?x4xf32>, %flat: memref<?xf32>, %x: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %cast = memref.cast %u : memref<?xf32> to memref<?xf32>
      memref.store %v, %cast[%i] : memref<?xf32>
      %w = memref.load %u[%i] : memref<?xf32>
      %f = memref.load %flat[%i] : memref<?xf32>
      %s = arith.addf %w, %f : f32
      memref.store %s, %t[%i, %c0] : memref<?x4xf32>
      gpu.return
    }
  }
}

// -----

// The kernel writes a function argument (not a buffer allocated for it):
// any input may share its memory, so nothing is marked.
// CHECK-LABEL: gpu.func @writes_argument(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>)
// CHECK-NOT: llvm.readonly
// CHECK-NOT: kfuse.read_only_args
// CHECK: gpu.return
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xf32>, %out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@writes_argument blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @writes_argument(%a: memref<?xf32>, %out: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      memref.store %x, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Two launches of one kernel: the second passes the output's own buffer
// (a subview of it) as the input, so the input is not marked at all.
// CHECK-LABEL: gpu.func @copy(
// CHECK-SAME: %{{.*}}: memref<?xf32, strided<[1], offset: ?>>, %{{.*}}: memref<?xf32>)
// CHECK-NOT: kfuse.read_only_args
// CHECK: gpu.return
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xf32>, %n: index) -> memref<?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c = gpu.alloc (%n) : memref<?xf32>
    %va = memref.subview %a[%c0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%va : memref<?xf32, strided<[1], offset: ?>>, %c : memref<?xf32>)
    %vc = memref.subview %c[%c0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%vc : memref<?xf32, strided<[1], offset: ?>>, %c : memref<?xf32>)
    return %c : memref<?xf32>
  }
  gpu.module @kernels {
    gpu.func @copy(%a: memref<?xf32, strided<[1], offset: ?>>, %c: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32, strided<[1], offset: ?>>
      memref.store %x, %c[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A kernel no launch in the module names: nothing is known of its buffers.
// CHECK-LABEL: gpu.func @unlaunched(
// CHECK-NOT: llvm.readonly
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unlaunched(%a: memref<?xf32>, %c: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xf32>
      memref.store %x, %c[%i] : memref<?xf32>
      gpu.return
    }
  }
}
