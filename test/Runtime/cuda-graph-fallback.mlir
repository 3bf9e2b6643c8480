// When CUDA graphs cannot be had, the run goes on launch by launch: one
// warning naming the CUDA error, the same launches as without graphs,
// exit status 0 (runtime/GraphCache.h). A failed replay, though, stops the
// run as a failed launch does, naming the graph and the error.
// Each case runs 5 calls (warmup 1, repeat 3, plus the first) and compares
// the launches the GPU would run with those of a run without graphs.
// RUN: rm -f %t.*.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.off.log kfuse-run %s \
// RUN:   --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 > /dev/null
// RUN: grep '^cuLaunchKernel [a-z]' %t.off.log > %t.off.launches
//
// The capture cannot start (the first cuStreamBeginCapture fails).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.begin.log \
// RUN:   KFUSE_FAKE_CUDA_FAIL=cuStreamBeginCapture:1:801 kfuse-run %s --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=on > %t.begin.out 2> %t.begin.err
// RUN: FileCheck %s --check-prefix=BEGIN < %t.begin.err
// RUN: FileCheck %s --check-prefix=BEGIN-OUT < %t.begin.out
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.begin.log > %t.begin.launches
// RUN: diff %t.off.launches %t.begin.launches
// BEGIN: kfuse runtime: warning: CUDA graph of add_relu__gpu_fused [5000] [5000]: cuStreamBeginCapture failed: CUDA_ERROR_NOT_SUPPORTED (operation not supported); the launches run one by one from now on
// BEGIN-NOT: warning
// BEGIN-OUT: cuda graph: on; 0 captured (0 updated in place), 0 calls replayed, 2 calls launch by launch
// BEGIN-OUT-NEXT: graphs went off: cuStreamBeginCapture failed: CUDA_ERROR_NOT_SUPPORTED (operation not supported)
//
// The capture ends in an error (the driver invalidated it).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.end.log \
// RUN:   KFUSE_FAKE_CUDA_FAIL=cuStreamEndCapture:1:901 kfuse-run %s --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=on 2>&1 > /dev/null \
// RUN:   | FileCheck %s --check-prefix=END
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.end.log > %t.end.launches
// RUN: diff %t.off.launches %t.end.launches
// END: warning: CUDA graph of add_relu__gpu_fused [5000] [5000]: cuStreamEndCapture failed: CUDA_ERROR_STREAM_CAPTURE_INVALIDATED (operation failed due to a previous error during capture); the launches run one by one from now on
// END-NOT: warning
//
// A launch inside the capture fails: the capture is ended, the launch
// issued again outside it.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.inside.log \
// RUN:   KFUSE_FAKE_CUDA_FAIL=cuLaunchKernel:2:900 kfuse-run %s --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=on 2>&1 > /dev/null \
// RUN:   | FileCheck %s --check-prefix=INSIDE
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.inside.log > %t.inside.launches
// RUN: diff %t.off.launches %t.inside.launches
// INSIDE: warning: CUDA graph of add_relu__gpu_fused [5000] [5000]: cuLaunchKernel during capture failed: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
//
// Instantiation fails: the graph is destroyed, the launches issued.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.inst.log \
// RUN:   KFUSE_FAKE_CUDA_FAIL=cuGraphInstantiateWithFlags:1:2 kfuse-run %s --device=cuda \
// RUN:   --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=on 2>&1 > /dev/null \
// RUN:   | FileCheck %s --check-prefix=INST
// RUN: FileCheck %s --check-prefix=INST-LOG < %t.inst.log
// RUN: sed -n -e 's/^graph exec[0-9]*: //' -e '/^cuLaunchKernel [a-z]/p' %t.inst.log > %t.inst.launches
// RUN: diff %t.off.launches %t.inst.launches
// INST: warning: CUDA graph of add_relu__gpu_fused [5000] [5000]: cuGraphInstantiateWithFlags failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory); the launches run one by one from now on
// INST-NOT: warning
// INST-LOG: cuStreamEndCapture -> graph0 (1 nodes)
// INST-LOG-NEXT: cuGraphInstantiateWithFlags -> CUDA_ERROR_OUT_OF_MEMORY
// INST-LOG-NEXT: cuGraphDestroy graph0
// INST-LOG-NEXT: cuLaunchKernel pointwise_add_relu_0
// INST-LOG-NOT: cuStreamBeginCapture
// INST-LOG-NOT: cuGraphLaunch
//
// A driver without the graph calls (older than CUDA graphs): on says so
// once, auto says nothing; neither calls anything of graphs.
// RUN: env KFUSE_CUDA_DRIVER=%kfuse_obj/lib/libkfuse_fake_cuda_nographs.so \
// RUN:   KFUSE_FAKE_CUDA_LOG=%t.old.log kfuse-run %s --device=cuda --warmup=1 --repeat=3 \
// RUN:   --dim d0=5000 --dim d1=5000 --cuda-graph=on 2>&1 > /dev/null | FileCheck %s --check-prefix=OLD
// RUN: grep '^cuLaunchKernel [a-z]' %t.old.log | diff %t.off.launches -
// RUN: FileCheck %s --check-prefix=OLD-LOG < %t.old.log
// OLD-LOG-NOT: Capture
// OLD-LOG-NOT: cuGraph
// OLD: kfuse runtime: warning: CUDA graphs are off: the CUDA driver has no cuStreamBeginCapture_v2; the launches run one by one
// OLD-NOT: warning
// RUN: env KFUSE_CUDA_DRIVER=%kfuse_obj/lib/libkfuse_fake_cuda_nographs.so kfuse-run %s \
// RUN:   --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 --cuda-graph=auto \
// RUN:   2>&1 | FileCheck %s --check-prefix=OLD-AUTO
// OLD-AUTO-NOT: warning
// OLD-AUTO: cuda graph: auto; 0 captured (0 updated in place), 0 calls replayed, 0 calls launch by launch
//
// A replay that fails stops the run, naming the graph and the error.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuGraphLaunch:2:719 \
// RUN:   not kfuse-run %s --device=cuda --warmup=1 --repeat=3 --dim d0=5000 --dim d1=5000 \
// RUN:   --cuda-graph=on --output=%t.replay.npy 2>&1 | FileCheck %s --check-prefix=REPLAY
// RUN: test ! -e %t.replay.npy
// REPLAY: kfuse runtime: error: cuGraphLaunch failed for cuda graph (add_relu__gpu_fused [5000] [5000]): CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
