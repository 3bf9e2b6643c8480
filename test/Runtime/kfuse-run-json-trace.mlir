// --format=json prints one JSON document; --trace writes a Chrome trace
// whose launches are the kernel's; --output writes a .npy numpy reads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-run %s --device=cpu --warmup=1 --repeat=4 --format=json --check \
// RUN:   --trace=%t/trace.json --output=%t/out.npy > %t/run.json
// RUN: %python -c "import json; d = json.load(open('%t/run.json')); \
// RUN:   print('fusion', d['fusion'], 'eager', d['eager']['kernels'], 'fused', d['fused']['kernels']); \
// RUN:   print('bytes', d['eager']['bytes'], d['fused']['bytes']); \
// RUN:   print('launches', d['first_call']['launches'], d['steady']['launches_per_call']); \
// RUN:   print('rows', [(k['name'], k['calls']) for k in d['kernels']]); \
// RUN:   print('check', d['check']['passed'])" | FileCheck %s --check-prefix=JSON
// Bytes by hand (a kernel reads each distinct input once): eager add reads
// x and writes t, mul reads t and writes u: 4 transfers of 64 f32 = 1024
// bytes; fused reads x and writes u: 2 x 256 = 512 bytes.
// JSON: fusion on eager 2 fused 1
// JSON: bytes 1024 512
// JSON: launches 1 1
// JSON: rows [('pointwise_add_mul_0', 4)]
// JSON: check True
// RUN: %python -c "import json; t = json.load(open('%t/trace.json'))['traceEvents']; \
// RUN:   k = [e for e in t if e['cat'] == 'kernel']; \
// RUN:   print(len(k), sorted(set(e['name'] for e in k)), all(e['dur'] >= 0 and e['ph'] == 'X' for e in t))" \
// RUN:   | FileCheck %s --check-prefix=TRACE
// One launch in the first call, one in the warm-up (not traced), four steady.
// TRACE: 5 ['pointwise_add_mul_0'] True
// RUN: %python -c "import numpy as np; y = np.load('%t/out.npy'); print(y.dtype, y.shape)" \
// RUN:   | FileCheck %s --check-prefix=NPY
// NPY: float32 (64,)
func.func @double_square(%x: tensor<64xf32>) -> tensor<64xf32> {
  %t = kf.add %x, %x : tensor<64xf32>, tensor<64xf32>
  %u = kf.mul %t, %t : tensor<64xf32>, tensor<64xf32>
  return %u : tensor<64xf32>
}
