// kfuse-run's JSON documents (--format=json, --trace) and the kernel
// report's (format=json) have a schema version and match their schemas
// (docs/reference/schemas); numbers are checked against values computed
// here (numpy, hand-computed FLOPs).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/prog.so
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); \
// RUN:   np.save('%t/a.npy', r.standard_normal((8, 32), np.float32)); \
// RUN:   np.save('%t/b.npy', r.standard_normal((32, 24), np.float32)); \
// RUN:   np.save('%t/bias.npy', r.standard_normal(24, np.float32))"
// RUN: kfuse-run %t/prog.so --device=cpu --warmup=1 --repeat=5 --check --format=json \
// RUN:   --input arg0=%t/a.npy --input arg1=%t/b.npy \
// RUN:   --input arg2=%t/bias.npy --output result0=%t/c.npy \
// RUN:   --trace=%t/trace.json > %t/report.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t/report.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-trace.schema.json %t/trace.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// VALID: valid:
//
// The profiler row: one matmul kernel, 5 calls; its FLOPs 2*M*N*K for
// 8x32 @ 32x24 plus the add's M*N; min <= median <= max; the rates are
// its bytes and FLOPs over its time. The result is numpy's.
// RUN: %python -c "import json, numpy as np; d = json.load(open('%t/report.json')); \
// RUN:   (k,) = d['kernels']; t = k['total_us']; \
// RUN:   print(d['schema_version'], k['calls'], k['flops'] == 2 * 8 * 24 * 32 + 8 * 24, k['share']); \
// RUN:   print(k['min_us'] <= k['median_us'] <= k['max_us'], abs(k['avg_us'] * 5 - t) < 1e-6 * t); \
// RUN:   print(abs(k['gflops'] - k['flops'] * 5 / (t * 1e3)) < 1e-9 * k['gflops'], \
// RUN:         abs(k['gbps'] - k['bytes'] * 5 / (t * 1e3)) < 1e-9 * k['gbps']); \
// RUN:   a, b = np.load('%t/a.npy'), np.load('%t/b.npy'); \
// RUN:   print(np.allclose(np.load('%t/c.npy'), a @ b + np.load('%t/bias.npy'), rtol=1e-5, atol=1e-5))" \
// RUN:   | FileCheck %s --check-prefix=ROW
// ROW: 1 5 True 1.0
// ROW-NEXT: True True
// ROW-NEXT: True True
// ROW-NEXT: True
//
// The text table: calls, total, min/median/max, bytes, GB/s, GFLOP/s, share.
// RUN: kfuse-run %t/prog.so --device=cpu --repeat=3 | FileCheck %s --check-prefix=TABLE
// Bytes a call by hand: reads (8*32 + 32*24 + 24) f32, writes 8*24 f32:
// 4960 bytes.
// TABLE: kernel calls total ms min median max bytes/call GB/s GFLOP/s share
// TABLE-NEXT: matmul_add_0 3 {{[0-9.]+}} {{[0-9.]+ [mu]s}} {{[0-9.]+ [mu]s}} {{[0-9.]+ [mu]s}} 4.96 kB {{[0-9.]+}} {{[0-9.]+}} 100.0%
//
// A relative error that is not finite (a nonzero result where the
// reference is 0) is null in the JSON, and the check fails.
// RUN: cc -shared -fPIC %S/Inputs/differ.c -o %t/differ.so
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, -2, 3, -4], np.float32))"
// RUN: not kfuse-run %t/differ.so --input arg0=%t/x.npy --check --format=json --repeat=1 \
// RUN:   > %t/differ.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t/differ.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// RUN: %python -c "import json; c = json.load(open('%t/differ.json'))['check']; \
// RUN:   print(c['passed'], c['max_abs'], c['max_rel'])" | FileCheck %s --check-prefix=INF
// INF: False 4.0 None
// RUN: not grep -wE "inf|nan|NaN|Infinity" %t/differ.json
//
// The validator refuses what is not JSON: the `inf` the report once wrote.
// RUN: %python -c "print('{\"schema_version\": 1, \"x\": inf}')" > %t/inf.json
// RUN: not %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t/inf.json \
// RUN:   | FileCheck %s --check-prefix=BADINF
// BADINF: invalid: {{.*}}inf.json: {{.*}}
//
// On the CUDA path (the fake driver of test/fake-cuda, whose clock moves
// 0.5 ms at each cuEventRecord, the first being the runtime's origin):
// each start is timed from the one before; by hand, the first call's
// launch starts at 1.0 ms (500 us from the origin) and its result's copy
// at 2.0 ms, the two steady launches at 3.0 and 4.0 ms, each 0.5 ms long.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %t/prog.so --device=cuda --warmup=0 \
// RUN:   --repeat=2 --format=json --trace=%t/cuda-trace.json > %t/cuda-report.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-trace.schema.json %t/cuda-trace.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t/cuda-report.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// RUN: %python -c "import json; t = json.load(open('%t/cuda-trace.json'))['traceEvents']; \
// RUN:   print([(e['cat'], e['ts'], e['dur']) for e in t if e['name'][:3] != 'PTX'])" \
// RUN:   | FileCheck %s --check-prefix=CUDA
// CUDA: [('kernel', 500.0, 500.0), ('memory', 1500.0, 500.0), ('kernel', 2500.0, 500.0), ('kernel', 3500.0, 500.0)]
//
// The kernel report's JSON.
// RUN: kfuse-opt %s "--kf-kernel-report=format=json" -o /dev/null > %t/kernel-report.json
// RUN: kfuse-opt %kfuse_src/examples/mlp.mlir "--kf-kernel-report=format=json" -o /dev/null \
// RUN:   > %t/mlp-report.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kernel-report.schema.json %t/kernel-report.json \
// RUN:   %t/mlp-report.json | FileCheck %s --check-prefix=REPORT
// REPORT: valid: {{.*}}kernel-report.json
// REPORT-NEXT: valid: {{.*}}mlp-report.json
//
// A trace of a run longer than a second keeps sub-µs digits.
// RUN: %python %S/long-trace.mlir.py --kfuse-run %kfuse_obj/bin/kfuse-run \
// RUN:   --library %t/prog.so --trace %t/long.json | FileCheck %s --check-prefix=LONG
// LONG: events after 1 s, fewer than 1% without sub-us digits
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-trace.schema.json %t/long.json \
// RUN:   | FileCheck %s --check-prefix=VALID
func.func @mm_bias(%a: tensor<8x32xf32>, %b: tensor<32x24xf32>, %bias: tensor<24xf32>) -> tensor<8x24xf32> {
  %c = kf.matmul %a, %b : tensor<8x32xf32>, tensor<32x24xf32>
  %y = kf.add %c, %bias : tensor<8x24xf32>, tensor<24xf32>
  return %y : tensor<8x24xf32>
}
