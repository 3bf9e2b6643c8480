// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-alias-shared-kernels | FileCheck %s

// A launch that kf-share-kernel-code pointed at @relu_0 launches @relu_1
// again, and the PTX starts with the line that tells the runtime so; a
// second launch of the same name adds no second line.
// CHECK-LABEL: func.func @ptx
// CHECK: gpu.launch_func @kfuse_kernels::@relu_0 {{.*}}{{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@relu_1 {{.*}}{{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@relu_1 {{.*}}{{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@relu_2 {{.*}}{{$}}
// CHECK: gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, assembly = "// kfuse-kernel-alias relu_1 relu_0\0A// kfuse-kernel-alias relu_2 relu_0\0A.version 8.0\0A">]
module attributes {gpu.container_module} {
  func.func @ptx(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kfuse_kernels::@relu_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @kfuse_kernels::@relu_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "relu_1"}
    gpu.launch_func @kfuse_kernels::@relu_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "relu_1"}
    gpu.launch_func @kfuse_kernels::@relu_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "relu_2"}
    return
  }
  gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, assembly = ".version 8.0\0A">]
}

// -----

// The host runtime's object: the lines come before its prefix, which the
// runtime reads after them.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @kfuse_kernels::@add_3 {{.*}}{{$}}
// CHECK: gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "// kfuse-kernel-alias add_3 add_1\0AKFUSE-HOST-MODULE:__kfuse_host_kfuse_kernels_\00">]
module attributes {gpu.container_module} {
  func.func @host(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kfuse_kernels::@add_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "add_3"}
    return
  }
  gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "KFUSE-HOST-MODULE:__kfuse_host_kfuse_kernels_\00">]
}

// -----

// Refused: the kernels are still a gpu.module, whose verifier would look
// up the name given back and not find it.
module attributes {gpu.container_module} {
  func.func @early(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kf-alias-shared-kernels: the launch of a shared kernel must launch from a gpu.binary}}
    gpu.launch_func @kfuse_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "k2"}
    return
  }
  gpu.module @kfuse_kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Refused: a cubin cannot carry the lines (kfuse compiles to PTX).
module attributes {gpu.container_module} {
  func.func @cubin(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kfuse_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = "k2"}
    return
  }
  // expected-error @+1 {{kf-alias-shared-kernels: a binary object is not text (PTX or kfuse's host kernels)}}
  gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "\7FELF">]
}

// -----

// Refused: `kf.launch_name` is a kernel's name, a string.
module attributes {gpu.container_module} {
  func.func @bad_name(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'kf.launch_name' must be a string, got 3 : i64}}
    gpu.launch_func @kfuse_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) {kf.launch_name = 3}
    return
  }
  gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, assembly = "">]
}
