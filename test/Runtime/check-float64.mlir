// kfuse-run --check judges a run against the program in float64 (the
// reference of kfuse-compile --float64-reference: float64 values and the
// scale of the program's error in its working precision). The programs
// (Inputs/check-float64.mlir) are ones on which the old check, allclose
// against the unfused run, cried wolf: large activations (on the H200;
// here the CPU's fused and unfused runs happen to agree), a result cast to
// f64 from f32 work (compared with f64's 1e-10), 1/x near a pole. Each
// passes; each of the bugs kf-plant-mutation plants in the fused version
// (an off-by-one index, a dropped term, an f16 accumulator) fails it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %S/Inputs/check-float64.mlir --emit=lib -o %t/lib.so
// RUN: kfuse-compile %S/Inputs/check-float64.mlir --emit=lib --float64-reference -o %t/ref.so
// RUN: kfuse-compile %S/Inputs/check-float64.mlir --emit=lib --plant-mutation=off-by-one -o %t/obo.so
// RUN: kfuse-compile %S/Inputs/check-float64.mlir --emit=lib --plant-mutation=drop-term -o %t/drop.so
// RUN: kfuse-compile %S/Inputs/check-float64.mlir --emit=lib --plant-mutation=f16-accumulator -o %t/f16.so
//
// @pole's inputs: t is the float64 value of the softmax-weighted mean,
// rounded to f32, so that mean - t is a few ulps (numpy computes it).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); \
// RUN:   x = r.uniform(-2, 2, (8, 512)).astype(np.float32); y = r.uniform(-2, 2, (8, 512)).astype(np.float32); \
// RUN:   s = 30 * x.astype(np.float64); p = np.exp(s - s.max(1, keepdims=True)); p /= p.sum(1, keepdims=True); \
// RUN:   np.save('%t/x.npy', x); np.save('%t/y.npy', y); np.save('%t/t.npy', (p * y).sum(1).astype(np.float32))"
//
// The programs pass:
// RUN: kfuse-run %t/lib.so --entry big --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=OK
// RUN: kfuse-run %t/lib.so --entry widen --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=OK
// RUN: kfuse-run %t/lib.so --entry pole --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   --input arg0=%t/x.npy --input arg1=%t/y.npy --input arg2=%t/t.npy | FileCheck %s --check-prefix=OK
// OK: check against the CPU, unfused: in float64, max abs error {{.*}}% of the error allowed (8x the error scale of the working precision, or 4x the unfused run's error + 4 ulps; the unfused run: {{.*}}): ok
//
// The old check (a library without --reference) cried wolf on both until
// issue 29: the fused softmax's exp (the row kernel's polynomial) differed
// from the unfused exp kernel's (libm's) in the last bit here and there,
// which f64's tolerance and the pole magnified. Now every host kernel
// computes exp one way (kf-host-math), the CPU's fused and unfused runs
// agree bit for bit, and the old check has nothing to cry about on the CPU
// (on the H200 the large activations still differ).
// RUN: kfuse-run %t/lib.so --entry widen --check --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=OLD
// RUN: kfuse-run %t/lib.so --entry pole --check --device=cpu --warmup=0 --repeat=0 \
// RUN:   --input arg0=%t/x.npy --input arg1=%t/y.npy --input arg2=%t/t.npy | FileCheck %s --check-prefix=OLD
// OLD: check against the CPU, unfused: max abs error 0, max rel error 0 (no float64 reference (a library without --reference): against the unfused run, {{.*}}): ok
//
// Every planted bug is caught, on every program:
// RUN: not kfuse-run %t/obo.so --entry big --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/obo.so --entry widen --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/obo.so --entry pole --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   --input arg0=%t/x.npy --input arg1=%t/y.npy --input arg2=%t/t.npy | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/drop.so --entry big --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/drop.so --entry widen --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/drop.so --entry pole --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   --input arg0=%t/x.npy --input arg1=%t/y.npy --input arg2=%t/t.npy | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/f16.so --entry big --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/f16.so --entry widen --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=CAUGHT
// RUN: not kfuse-run %t/f16.so --entry pole --check --reference %t/ref.so --device=cpu --warmup=0 --repeat=0 \
// RUN:   --input arg0=%t/x.npy --input arg1=%t/y.npy --input arg2=%t/t.npy | FileCheck %s --check-prefix=CAUGHT
// CAUGHT: check against the CPU, unfused: in float64, {{.*}}: FAILED: result{{[0-9]}}[{{.*}}] = {{.*}}, float64 {{.*}} (error {{.*}}; allowed: 8 x the error scale {{.*}}, or the unfused run's error widened, {{.*}})
//
// A .mlir program's reference is compiled beside it, through the cache
// (its own folder, float64/compile), and so is the host eager version the
// unfused run needs (an entry of compile/): the second run compiles none.
// RUN: kfuse-run %S/Inputs/check-float64.mlir --entry widen --check --device=cpu --warmup=0 \
// RUN:   --repeat=0 --cache-dir %t/cache | FileCheck %s --check-prefix=OK
// RUN: kfuse-run %S/Inputs/check-float64.mlir --entry widen --check --device=cpu --warmup=0 \
// RUN:   --repeat=0 --cache-dir %t/cache | FileCheck %s --check-prefix=HIT
// HIT: compile: cache hit
// HIT: check against the CPU, unfused: in float64, {{.*}}: ok
// RUN: ls %t/cache/compile %t/cache/float64/compile | grep -c "\.so$" \
// RUN:   | FileCheck %s --check-prefix=ENTRIES
// ENTRIES: 3
//
// The JSON report has the float64 fields (its schema says which).
// RUN: kfuse-run %t/lib.so --entry widen --check --reference %t/ref.so --device=cpu --warmup=0 \
// RUN:   --repeat=0 --format=json > %t/report.json
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kfuse-run-report.schema.json %t/report.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// VALID: valid:
// RUN: %python -c "import json; c = json.load(open('%t/report.json'))['check']; \
// RUN:   print(c['reference'], c['passed'], 0 < c['bound_use'] <= 1, c['unfused_bound_use'] <= 1, \
// RUN:         c['unchecked_elements'], c['max_abs'] > 0)" | FileCheck %s --check-prefix=JSON
// JSON: float64 True True True 0 True
//
// A reference that is not one (the program's own library: f32 arguments,
// half the results) is said to be the problem; --reference without
// --check is refused.
// RUN: not kfuse-run %t/lib.so --entry widen --check --reference %t/lib.so --device=cpu \
// RUN:   --warmup=0 --repeat=0 2>&1 | FileCheck %s --check-prefix=NOTREF
// NOTREF: FAILED: the float64 reference run failed (is {{.*}}lib.so from kfuse-compile --emit=lib --float64-reference of this program?)
// RUN: not kfuse-run %t/lib.so --entry widen --reference %t/ref.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: kfuse-run: error: --reference {{.*}}ref.so is for --check, which is not given

// A program that has no float64 reference (a hand-written kernel):
// kfuse-compile --float64-reference refuses it with status 3, and
// kfuse-run --check compares with the unfused run instead, saying why.
// RUN: not kfuse-compile %S/Inputs/hand-written-kernel.mlir --emit=lib --float64-reference -o %t/none.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOREF
// RUN: kfuse-compile %S/Inputs/hand-written-kernel.mlir --emit=lib --float64-reference -o %t/none.so \
// RUN:   2>/dev/null || test $? -eq 3
// NOREF: error: kf-float64-reference: 'kf.kernel' has no float64 reference
// RUN: env KFUSE_CACHE_DIR=%t/cache kfuse-run %S/Inputs/hand-written-kernel.mlir --check --device=cpu \
// RUN:   --warmup=0 --repeat=0 --format=json > %t/none.json
// RUN: %python -c "import json; c = json.load(open('%t/none.json'))['check']; \
// RUN:   assert c['passed'] and c['reference'] == 'unfused', c; print(c['no_reference'])" \
// RUN:   | FileCheck %s --check-prefix=NOREF-JSON
// NOREF-JSON: kf-float64-reference: 'kf.kernel' has no float64 reference
