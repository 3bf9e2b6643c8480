// RUN: kfuse-opt %s -split-input-file --kf-share-kernel-code | FileCheck %s

// Three launches of two bodies: @relu_1 is @relu_0 up to its name and
// locations, so it goes and its launch launches @relu_0 under its old
// name; @relu_2 keeps its own code (another constant). The device
// function @helper is not a kernel and stays.
// CHECK-LABEL: func.func @eager
// CHECK: gpu.launch_func @kfuse_kernels::@relu_0 {{.*}} args(%{{.*}} : memref<4xf32>, %{{.*}} : memref<4xf32>){{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@relu_0 {{.*}} args(%{{.*}} : memref<4xf32>, %{{.*}} : memref<4xf32>) {kf.launch_name = "relu_1"}
// CHECK: gpu.launch_func @kfuse_kernels::@relu_2 {{.*}}{{$}}
// CHECK: gpu.module @kfuse_kernels
// CHECK: gpu.func @relu_0(
// CHECK-NOT: gpu.func @relu_1(
// CHECK: gpu.func @relu_2(
// CHECK: gpu.func @helper(
module attributes {gpu.container_module} {
  func.func @eager(%x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kfuse_kernels::@relu_0 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>, %y : memref<4xf32>)
    gpu.launch_func @kfuse_kernels::@relu_1 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%y : memref<4xf32>, %z : memref<4xf32>)
    gpu.launch_func @kfuse_kernels::@relu_2 blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%z : memref<4xf32>, %x : memref<4xf32>)
    return
  }
  gpu.module @kfuse_kernels {
    gpu.func @relu_0(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %v = memref.load %a[%t] : memref<4xf32>
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %b[%t] : memref<4xf32>
      gpu.return
    }
    gpu.func @relu_1(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      %t = gpu.thread_id x loc("other.py":3:1)
      %zero = arith.constant 0.0 : f32
      %v = memref.load %a[%t] : memref<4xf32>
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %b[%t] : memref<4xf32>
      gpu.return
    }
    gpu.func @relu_2(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %v = memref.load %a[%t] : memref<4xf32>
      %r = arith.maximumf %v, %one : f32
      memref.store %r, %b[%t] : memref<4xf32>
      gpu.return
    }
    gpu.func @helper(%a: memref<4xf32>, %b: memref<4xf32>) {
      gpu.return
    }
  }
}

// -----

// Kernels that differ in a signature or an attribute (the launch bounds
// PTX gets from known_block_size) keep their own code.
// CHECK-LABEL: func.func @different
// CHECK: gpu.launch_func @kfuse_kernels::@a {{.*}}{{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@b {{.*}}{{$}}
// CHECK: gpu.launch_func @kfuse_kernels::@c {{.*}}{{$}}
// CHECK: gpu.func @a(
// CHECK: gpu.func @b(
// CHECK: gpu.func @c(
module attributes {gpu.container_module} {
  func.func @different(%x: memref<4xf32>, %y: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kfuse_kernels::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @kfuse_kernels::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<8xf32>)
    gpu.launch_func @kfuse_kernels::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @kfuse_kernels {
    gpu.func @a(%m: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @b(%m: memref<8xf32>) kernel {
      gpu.return
    }
    gpu.func @c(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// The same code in two gpu.modules: each module keeps its own kernel (a
// launch names its module, and a module is compiled on its own).
// CHECK-LABEL: func.func @two_modules
// CHECK: gpu.launch_func @m1::@k {{.*}}{{$}}
// CHECK: gpu.launch_func @m2::@k {{.*}}{{$}}
// CHECK: gpu.launch_func @m2::@k {{.*}} {kf.launch_name = "k2"}
module attributes {gpu.container_module} {
  func.func @two_modules(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @m2::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @m2::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @m1 {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @k2(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
