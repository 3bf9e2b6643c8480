// The report says how the GPU runs each fused kernel: its mapping and, for
// a matmul, its variant (and a tensor-core matmul's tiles), decided by kf-assign-kernel-mappings on the
// report's copy for `chip` (with `tf32` and `matmul`, the pass's options).
// The expected variants follow the rules the pass documents: sm_75 has no
// tensor cores (SIMT); from sm_80 f16 and bf16 matmuls take them, f32 only
// with tf32; matmul=reference gives every matmul the reference. A softmax
// over rows is a row kernel, a sum of everything a grid reduction. A row
// kernel's rows stay on chip where the on-chip form follows how its ops
// read each other, and go through memory where it does not: a row value
// read back through a view whose stride is dynamic (the column sums of a
// dynamic log_softmax over dim 0, kept as 1 x ?, with reshape-propagation
// off; with it on, the default, the sums are read as they are and stay on
// chip).
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_75" -o /dev/null | FileCheck %s --check-prefix=SM75
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_75 reshape-propagation=false" -o /dev/null | FileCheck %s --check-prefix=VIEW
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_80" -o /dev/null | FileCheck %s --check-prefix=SM80
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_80 tf32=true" -o /dev/null | FileCheck %s --check-prefix=TF32
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_90 matmul=reference" -o /dev/null | FileCheck %s --check-prefix=REF
// RUN: kfuse-opt %s "--kf-kernel-report=chip=sm_90 matmul-tiles=128x128x32/2x2/4/8" -o /dev/null | FileCheck %s --check-prefix=TILES

// SM75-LABEL: function @f32_matmul
// SM75: matmul_0 (matmul): ops matmul
// SM75: runs as matmul, variant simt on sm_75
// SM75-LABEL: function @f16_matmul
// SM75: runs as matmul, variant simt on sm_75
// SM75-LABEL: function @softmax_and_sum
// SM75: (reduction): ops max, sub, exp, sum, div
// SM75: runs as row, variant on_chip on sm_75
// SM75: (reduction): ops sum
// SM75: runs as grid_reduction{{$}}
// SM75-LABEL: function @sum_of_row_sums
// SM75: runs as row_chain, variant on_chip on sm_75
// SM75-LABEL: function @log_softmax_cols_dynamic
// SM75: (reduction): ops max, sub, exp, sum, log, sub
// SM75: runs as row, variant on_chip on sm_75
// VIEW-LABEL: function @log_softmax_cols_dynamic
// VIEW: (reduction): ops max, sub, exp, sum, log, sub
// VIEW: runs as row, variant through_memory on sm_75
// SM75-LABEL: function @log_softmax_cols_static
// SM75: (reduction): ops max, sub, exp, sum, log, sub
// SM75: runs as row, variant on_chip on sm_75

// SM80-LABEL: function @f32_matmul
// SM80: runs as matmul, variant simt on sm_80
// SM80-LABEL: function @f16_matmul
// SM80: runs as matmul, variant tensor_core tiles 64x64x32/2x2/2/1 on sm_80

// TF32-LABEL: function @f32_matmul
// TF32: runs as matmul, variant tensor_core tiles 64x64x32/2x2/2/1 on sm_80
// TF32-LABEL: function @f16_matmul
// TF32: runs as matmul, variant tensor_core tiles 64x64x32/2x2/2/1 on sm_80

// TILES-LABEL: function @f16_matmul
// TILES: runs as matmul, variant tensor_core tiles 128x128x32/2x2/4/8 on sm_90

// REF-LABEL: function @f32_matmul
// REF: runs as matmul, variant reference on sm_90
// REF-LABEL: function @f16_matmul
// REF: runs as matmul, variant reference on sm_90

// The JSON report carries the same, valid against its schema (with
// reshape-propagation off, so that both row variants appear).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-opt %s "--kf-kernel-report=format=json chip=sm_80 reshape-propagation=false report-file=%t/report.json" -o /dev/null
// RUN: %python %kfuse_src/test/harness/validate_json.py %kfuse_src/docs/reference/schemas/kernel-report.schema.json %t/report.json
// RUN: FileCheck %s --check-prefix=JSON < %t/report.json
// JSON: "mapping": "matmul"
// JSON: "variant": "simt"
// JSON: "gpu_chip": "sm_80"
// JSON: "mapping": "matmul"
// JSON: "tiles": "64x64x32/2x2/2/1"
// JSON: "variant": "tensor_core"
// JSON: "mapping": "row"
// JSON: "variant": "on_chip"
// JSON: "mapping": "grid_reduction"
// JSON-NOT: "variant"
// JSON-NOT: "tiles"
// JSON: "mapping": "row_chain"
// JSON: "variant": "on_chip"
// JSON: "mapping": "row"
// JSON: "variant": "through_memory"

// A chip kfuse does not emit for, and a matmul design it does not have,
// are refused before any IR is touched, naming the option.
// RUN: not kfuse-opt %s "--kf-kernel-report=chip=sm_60" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCHIP
// BADCHIP: error: kf-kernel-report: unsupported GPU chip 'sm_60'
// RUN: not kfuse-opt %s "--kf-kernel-report=matmul=best" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADMATMUL
// BADMATMUL: error: kf-kernel-report: matmul must be `fastest` or `reference`, got `best`

func.func @f32_matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %c = kf.matmul %a, %b : tensor<128x64xf32>, tensor<64x128xf32>
  return %c : tensor<128x128xf32>
}

func.func @f16_matmul(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>) -> tensor<128x128xf16> {
  %c = kf.matmul %a, %b : tensor<128x64xf16>, tensor<64x128xf16>
  return %c : tensor<128x128xf16>
}

func.func @softmax_and_sum(%x: tensor<64x100xf32>) -> (tensor<64x100xf32>, tensor<f32>) {
  %s = kf.softmax %x dim 1 : tensor<64x100xf32>
  %t = kf.sum %x dims [0, 1] : tensor<64x100xf32>
  return %s, %t : tensor<64x100xf32>, tensor<f32>
}

func.func @sum_of_row_sums(%x: tensor<64x100xf32>) -> tensor<f32> {
  %s = kf.sum %x dims [1] : tensor<64x100xf32>
  %t = kf.sum %s dims [0] : tensor<64xf32>
  return %t : tensor<f32>
}

func.func @log_softmax_cols_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %l = kf.log_softmax %x dim 0 : tensor<?x?xf32>
  return %l : tensor<?x?xf32>
}

func.func @log_softmax_cols_static(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %l = kf.log_softmax %x dim 0 : tensor<5x3xf32>
  return %l : tensor<5x3xf32>
}
