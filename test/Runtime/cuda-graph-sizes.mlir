// CUDA graphs through the runtime's C API (runtime.h), as a program that
// embeds kfuse calls them: kfuse_rt_graph_begin(KEY) / kfuse_rt_graph_end()
// around each call of the compiled add_relu, KEY the size (the helper,
// cuda-graph-sizes.mlir.py, calls it through ctypes; the fake driver logs).
// One graph a size set, captured on its second call; a size set seen
// before replays its own graph; new buffers under a known key are captured
// again and the executable graph updated in place (cuGraphExecUpdate).
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: rm -f %t.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.log %python %s.py %t.so \
// RUN:   5000,5000,5000,6000,6000,6000,5000,5000:new,5000 | FileCheck %s --check-prefix=STATS
// RUN: FileCheck %s < %t.log
// Hand count: 3 captures (5000, 6000, 5000 with new inputs), of which 1
// updated exec0; replays: the third 5000 and 6000 calls, 5000 again, the
// last call; launch by launch: the first call of each size.
// STATS: captures 3 updates 1 replays 4 uncaptured 2
//
// n = 5000, first call: issued (ceil(5000 / 1024) = 5 blocks).
// CHECK:      cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1
// Second call: captured, then launched.
// CHECK-NEXT: cuStreamBeginCapture
// CHECK-NEXT: cuLaunchKernel (captured) pointwise_add_relu_0 grid=(5,1,1)
// CHECK-NEXT: cuStreamEndCapture -> graph0 (1 nodes)
// CHECK-NEXT: cuGraphInstantiateWithFlags graph0 -> exec0
// CHECK-NEXT: cuGraphDestroy graph0
// CHECK-NEXT: cuGraphLaunch exec0 (1 nodes)
// CHECK-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1
// Third call: replayed.
// CHECK-NEXT: cuGraphLaunch exec0 (1 nodes)
// n = 6000: a new size set, its own first call and capture (6 blocks).
// CHECK:      cuLaunchKernel pointwise_add_relu_0 grid=(6,1,1) block=(256,1,1) smem=0 args: 6000 buf3 buf3 0 6000 1 buf4 buf4 0 6000 1 buf5 buf5 0 6000 1
// CHECK:      cuStreamBeginCapture
// CHECK-NEXT: cuLaunchKernel (captured) pointwise_add_relu_0 grid=(6,1,1)
// CHECK-NEXT: cuStreamEndCapture -> graph1 (1 nodes)
// CHECK-NEXT: cuGraphInstantiateWithFlags graph1 -> exec1
// CHECK-NEXT: cuGraphDestroy graph1
// CHECK-NEXT: cuGraphLaunch exec1 (1 nodes)
// CHECK-NEXT: graph exec1: cuLaunchKernel pointwise_add_relu_0 grid=(6,1,1)
// CHECK-NEXT: cuGraphLaunch exec1 (1 nodes)
// CHECK-NEXT: graph exec1: cuLaunchKernel pointwise_add_relu_0 grid=(6,1,1)
// n = 5000 again: its graph, no capture.
// CHECK-NEXT: cuGraphLaunch exec0 (1 nodes)
// CHECK-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1
// New inputs (buf2, the free result buffer, and buf6; the result in
// buf7): captured again, exec0 updated, launched; then replayed.
// CHECK:      cuStreamBeginCapture
// CHECK-NEXT: cuLaunchKernel (captured) pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf2 buf2 0 5000 1 buf6 buf6 0 5000 1 buf7 buf7 0 5000 1
// CHECK-NEXT: cuStreamEndCapture -> graph2 (1 nodes)
// CHECK-NEXT: cuGraphExecUpdate exec0 <- graph2
// CHECK-NEXT: cuGraphDestroy graph2
// CHECK-NEXT: cuGraphLaunch exec0 (1 nodes)
// CHECK-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf2 buf2 0 5000 1 buf6 buf6 0 5000 1 buf7 buf7 0 5000 1
// CHECK-NEXT: cuGraphLaunch exec0 (1 nodes)
// CHECK-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) {{.*}} buf7 buf7 0 5000 1
// CHECK-NOT:  cuStreamBeginCapture
// CHECK-NOT:  cuGraphInstantiate

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
