// CUDA graphs in kfuse-run (--cuda-graph), through the fake driver of
// test/fake-cuda: it records what is issued while the stream captures
// (logged "(captured)", not run), instantiates, and on cuGraphLaunch logs
// each recorded launch with the arguments it captured ("graph execN: ").
// The design (runtime/GraphCache.h): the first call of a size set runs
// launch by launch, the second records its launches and captures them
// once, later ones replay the graph while their launches are the same.
//
// On: warmup 1 and repeat 3 make 5 calls: call 1 uncaptured (the PTX JIT,
// the allocations), call 2 captured and launched, calls 3 to 5 replayed
// with no launch of their own. No allocation, free, synchronize or module
// load happens while the stream captures (the fake driver refuses those
// there, as the real one does, and says so).
// RUN: rm -f %t.on.log %t.off.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.on.log kfuse-run %s \
// RUN:   --entry add_relu --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 \
// RUN:   --cuda-graph=on 2>&1 | FileCheck %s --check-prefix=ON-OUT
// RUN: FileCheck %s --check-prefix=ON < %t.on.log
// ON-OUT: steady state: 3 calls, {{.*}}, 1 launch a call
// ON-OUT: pointwise_add_relu_0 3 0.000 - - -
// ON-OUT: cuda graph: on; 1 captured (0 updated in place), 3 calls replayed, 1 calls launch by launch
// ON-OUT-NEXT: steady state: graph launch {{.*}} a call (median; mean {{.*}}) over 3 calls; kernels inside a graph are not timed one by one
// ON-OUT-NOT: warning
// ON:      cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) {{.*}} buf2 buf2 0 5000 1{{$}}
// ON-NEXT: cuMemcpyAsync host <- buf2, 20000 bytes
// ON-NEXT: cuStreamBeginCapture mode=1
// ON-NEXT: cuLaunchKernel (captured) pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1{{$}}
// ON-NEXT: cuStreamEndCapture -> graph0 (1 nodes)
// ON-NEXT: cuGraphInstantiateWithFlags graph0 -> exec0
// ON-NEXT: cuGraphDestroy graph0
// ON-NEXT: cuGraphLaunch exec0 (1 nodes)
// ON-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1{{$}}
// ON-NEXT: cuGraphLaunch exec0 (1 nodes)
// ON-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0
// ON-NEXT: cuGraphLaunch exec0 (1 nodes)
// ON-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0
// The last call's result is copied back after its replay.
// ON-NEXT: cuGraphLaunch exec0 (1 nodes)
// ON-NEXT: graph exec0: cuLaunchKernel pointwise_add_relu_0
// ON-NOT: cuStreamBeginCapture
// ON-NOT: during capture
// ON-NOT: cuLaunchKernel pointwise
//
// The same work as without graphs: every launch the GPU would run (issued,
// or run from a graph), in order, with the same arguments.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.off.log kfuse-run %s \
// RUN:   --entry add_relu --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 \
// RUN:   --cuda-graph=off > /dev/null
// RUN: grep '^cuLaunchKernel [a-z]' %t.off.log > %t.off.launches
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.on.log > %t.on.launches
// RUN: diff %t.off.launches %t.on.launches
// RUN: wc -l < %t.on.launches | FileCheck %s --check-prefix=FIVE
// FIVE: 5
// Off: not one graph call.
// RUN: FileCheck %s --check-prefix=OFF < %t.off.log
// OFF-NOT: Capture
// OFF-NOT: cuGraph
//
// Several kernels (softmax unfused: max, subtract-exp, sum, divide), with
// intermediates freed and reused inside the call: one graph of all of
// them, the same launches as without graphs.
// RUN: rm -f %t.soft-on.log %t.soft-off.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.soft-on.log kfuse-run %s \
// RUN:   --entry softmax --fusion=off --device=cuda --warmup=1 --repeat=2 \
// RUN:   --cuda-graph=on | FileCheck %s --check-prefix=SOFT-OUT
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.soft-off.log kfuse-run %s \
// RUN:   --entry softmax --fusion=off --device=cuda --warmup=1 --repeat=2 > /dev/null
// RUN: grep '^cuLaunchKernel [a-z]' %t.soft-off.log > %t.soft-off.launches
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.soft-on.log > %t.soft-on.launches
// RUN: diff %t.soft-off.launches %t.soft-on.launches
// RUN: FileCheck %s --check-prefix=SOFT < %t.soft-on.log
// SOFT-OUT: cuda graph: on; 1 captured (0 updated in place), 2 calls replayed, 1 calls launch by launch
// SOFT: cuStreamEndCapture -> graph0 ([[N:[0-9]+]] nodes)
// SOFT: cuGraphLaunch exec0 ([[N]] nodes)
// SOFT-NOT: during capture
//
// auto: graphs where the driver has them, as on.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --entry add_relu --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=auto 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUTO
// AUTO: cuda graph: auto; 1 captured (0 updated in place), 3 calls replayed, 1 calls launch by launch
// KFUSE_CUDA_GRAPHS gives the default, --cuda-graph wins over it.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_CUDA_GRAPHS=on kfuse-run %s --entry add_relu \
// RUN:   --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENV-ON
// ENV-ON: cuda graph: on; 1 captured
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_CUDA_GRAPHS=on kfuse-run %s --entry add_relu \
// RUN:   --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=off \
// RUN:   2>&1 | FileCheck %s --check-prefix=ENV-OFF
// ENV-OFF-NOT: cuda graph:
// ENV-OFF: allocator:
//
// A word that is no mode is refused (kfuse-run, and the variable).
// RUN: not kfuse-run %s --entry add_relu --cuda-graph=yes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --cuda-graph must be on, off or auto, got 'yes'
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_CUDA_GRAPHS=1 not kfuse-run %s --entry add_relu \
// RUN:   --device=cuda --dim d0=8 --dim d1=8 2>&1 | FileCheck %s --check-prefix=BAD-ENV
// BAD-ENV: KFUSE_CUDA_GRAPHS must be on, off or auto, got '1'
//
// The JSON report carries the counts and the replay time.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %s --entry add_relu --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=on --format=json \
// RUN:   | FileCheck %s --check-prefix=JSON
// JSON:      "cuda_graph": {
// JSON-NEXT:   "mode": "on",
// JSON-NEXT:   "captures": 1,
// JSON-NEXT:   "updates": 0,
// JSON-NEXT:   "replays": 3,
// JSON-NEXT:   "uncaptured_calls": 1,
// JSON-NEXT:   "steady_graph_launches": 3,
// JSON-NEXT:   "replay_median_us": {{[0-9.]+}},
// JSON-NEXT:   "replay_mean_us": {{[0-9.]+}},
// JSON-NEXT:   "note": ""

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = kf.softmax %x dim -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
