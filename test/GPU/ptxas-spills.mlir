// Every kernel of the examples and of the GPU mappings' tests (flat,
// transposes through shared-memory tiles, rows, matmul tiles, the f16 and
// bf16 tensor-core matmuls (sm_80 and sm_90 take them), single-launch
// reductions) assembles for sm_80 and sm_90 with no register spills:
// `ptxas -v` reports "0 bytes spill stores, 0 bytes spill loads" for each
// function, fused and unfused (skipped where the CUDA toolkit is not
// installed).
// REQUIRES: ptxas
// RUN: rm -f %t.report
// RUN: for chip in sm_80 sm_90; do \
// RUN:   for f in %kfuse_src/examples/add.mlir %kfuse_src/examples/add_relu.mlir \
// RUN:            %kfuse_src/examples/softmax.mlir %kfuse_src/examples/mlp.mlir \
// RUN:            %S/transpose-tiles.mlir %S/row-kernels.mlir %S/matmul-kernels.mlir \
// RUN:            %S/single-launch-reduction.mlir %S/matmul-tensor-core.mlir \
// RUN:            %S/matmul-tensor-core-emulated.mlir; do \
// RUN:     for fusion in on off; do \
// RUN:       kfuse-compile $f --emit=ptx --fusion=$fusion --gpu-chip=$chip -o %t.ptx || exit 1; \
// RUN:       %ptxas -v -arch=$chip %t.ptx -o %t.cubin 2>> %t.report || exit 1; \
// RUN:     done; \
// RUN:   done; \
// RUN: done
// No function spills:
// RUN: grep "spill" %t.report | not grep -v " 0 bytes spill stores, 0 bytes spill loads"
// and every function was reported (one line per function):
// RUN: grep -c "Compiling entry function" %t.report | FileCheck %s --check-prefix=FUNCTIONS
// RUN: grep -c " 0 bytes spill stores, 0 bytes spill loads" %t.report | FileCheck %s --check-prefix=FUNCTIONS
// FUNCTIONS: {{^[1-9][0-9]+$}}
func.func private @none()
