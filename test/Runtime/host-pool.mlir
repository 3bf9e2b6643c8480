// The host pool (runtime/HostPool.h) runs a launch on the calling thread
// alone when waking the workers would cost more than they save, and
// spreads it over the threads otherwise; either way a block computes the
// same, so results are bit for bit the same for any number of threads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/p.so
//
// The same bits with 1, 2 and 3 threads (more threads than blocks for the
// small sizes, more than this machine's cores for 3), pointwise over
// 100,003 elements (several blocks, a partial last one) and rows of a
// softmax; and the values those of numpy's expression (float32).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); \
// RUN:   np.save('%t/a.npy', r.standard_normal(100003).astype(np.float32)); \
// RUN:   np.save('%t/b.npy', r.standard_normal(100003).astype(np.float32)); \
// RUN:   np.save('%t/x.npy', r.standard_normal((96, 1000)).astype(np.float32))"
// RUN: for t in 1 2 3; do \
// RUN:   env KFUSE_NUM_THREADS=$t kfuse-run %t/p.so --entry=add_relu --device=cpu --warmup=0 --repeat=3 \
// RUN:     --input arg0=%t/a.npy --input arg1=%t/b.npy --output result0=%t/ar$t.npy > /dev/null && \
// RUN:   env KFUSE_NUM_THREADS=$t kfuse-run %t/p.so --entry=softmax --device=cpu --warmup=0 --repeat=3 \
// RUN:     --input arg0=%t/x.npy --output result0=%t/sm$t.npy > /dev/null || exit 1; done
// RUN: cmp %t/ar1.npy %t/ar2.npy && cmp %t/ar1.npy %t/ar3.npy
// RUN: cmp %t/sm1.npy %t/sm2.npy && cmp %t/sm1.npy %t/sm3.npy
// Workers that never spin (KFUSE_POOL_SPIN_US=0: they sleep after each
// job, the caller waits on a condition variable) compute the same bits.
// RUN: env KFUSE_NUM_THREADS=2 KFUSE_POOL_SPIN_US=0 kfuse-run %t/p.so --entry=softmax --device=cpu \
// RUN:   --warmup=0 --repeat=20 --input arg0=%t/x.npy --output result0=%t/sm0.npy > /dev/null
// RUN: cmp %t/sm1.npy %t/sm0.npy
// RUN: %python -c "import numpy as np; a, b, x = (np.load('%t/' + n + '.npy') for n in 'abx'); \
// RUN:   ar, sm = np.load('%t/ar2.npy'), np.load('%t/sm2.npy'); \
// RUN:   e = np.exp(x - x.max(1, keepdims=True)); \
// RUN:   print('add_relu', np.array_equal(ar, np.maximum(a + b, 0))); \
// RUN:   print('softmax', np.allclose(sm, e / e.sum(1, keepdims=True), rtol=1e-4, atol=1e-6))" \
// RUN:   | FileCheck %s --check-prefix=VALUES
// VALUES: add_relu True
// VALUES: softmax True
//
// KFUSE_POOL_STATS prints how the launches ran at exit. A launch of one
// block (8 elements) runs on the calling thread: no wake-up.
// RUN: env KFUSE_NUM_THREADS=2 KFUSE_POOL_STATS=1 kfuse-run %t/p.so --entry=small --device=cpu \
// RUN:   --warmup=0 --repeat=0 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL
// SMALL: kfuse runtime: host pool: 2 threads, 1 launches on the calling thread, 0 spread; waking the workers costs {{[0-9.]+}} us (asleep), {{[0-9.]+}} us (spinning)
// A launch of 8M elements (milliseconds of work: more than any wake-up
// costs, which is bounded at 200 us) is spread.
// RUN: env KFUSE_NUM_THREADS=2 KFUSE_POOL_STATS=1 kfuse-run %t/p.so --entry=large --device=cpu \
// RUN:   --warmup=0 --repeat=0 2>&1 >/dev/null | FileCheck %s --check-prefix=LARGE
// LARGE: kfuse runtime: host pool: 2 threads, 0 launches on the calling thread, 1 spread
//
// Idle workers sleep: once the pool is started (which runs jobs to time
// the wake-up), they spin at most 1 ms (KFUSE_POOL_SPIN_US, default
// 1000), then use no CPU (the process's CPU time over 0.3 s asleep).
// RUN: env KFUSE_NUM_THREADS=2 %python -c "import ctypes, os, time; \
// RUN:   rt = ctypes.CDLL('%kfuse_obj/lib/libkfuse_runtime.so'); why = ctypes.create_string_buffer(256); \
// RUN:   assert rt.kfuse_rt_init(b'cpu', why, 256) == 0, why.value; time.sleep(0.05); \
// RUN:   t = os.times(); time.sleep(0.3); u = os.times(); \
// RUN:   used = (u.user + u.system - t.user - t.system) * 1e3; \
// RUN:   print('idle', 'ok' if used < 30 else 'burns %%.0f ms' %% used)" | FileCheck %s --check-prefix=IDLE
// IDLE: idle ok

func.func @add_relu(%a: tensor<100003xf32>, %b: tensor<100003xf32>) -> tensor<100003xf32> {
  %s = kf.add %a, %b : tensor<100003xf32>, tensor<100003xf32>
  %r = kf.relu %s : tensor<100003xf32>
  return %r : tensor<100003xf32>
}

func.func @softmax(%x: tensor<96x1000xf32>) -> tensor<96x1000xf32> {
  %y = kf.softmax %x dim -1 : tensor<96x1000xf32>
  return %y : tensor<96x1000xf32>
}

func.func @small(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %s = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %r = kf.relu %s : tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @large(%a: tensor<8000000xf32>, %b: tensor<8000000xf32>) -> tensor<8000000xf32> {
  %s = kf.add %a, %b : tensor<8000000xf32>, tensor<8000000xf32>
  %r = kf.relu %s : tensor<8000000xf32>
  return %r : tensor<8000000xf32>
}
