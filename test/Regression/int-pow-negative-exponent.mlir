// Found by kf_fuzz.py run against the GPU mapping (seed 1, program 47):
// integer pow lowered to math.ipowi, whose expansion divides by zero for
// 0 ** -n; the result was garbage, different from run to run, on the CPU
// and on the GPU. Negative exponents are now decided before ipowi: 1 ** -n
// is 1, (-1) ** -n is +-1, anything else 0 (PyTorch refuses them), and the
// GPU pipeline lowers ipowi to a function in the kernel module (it failed
// to translate before).
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s
// CHECK: .entry pointwise_pow_0(
// NUMPY: expect(np.array([0, 1, -1, 1, 0, 0, 1, 25, 0, -27]), rtol=0, atol=0)

func.func private @printMemrefI64(memref<*xi64>)
func.func @pow(%x: tensor<10xi64>, %y: tensor<10xi64>) -> tensor<10xi64> {
  %p = kf.pow %x, %y : tensor<10xi64>, tensor<10xi64>
  return %p : tensor<10xi64>
}
func.func @main() {
  %x = kf.constant dense<[0, 1, -1, -1, 2, -3, 0, 5, 0, -3]> : tensor<10xi64>
  %y = kf.constant dense<[-1, -3, -3, -2, -1, -2, 0, 2, 3, 3]> : tensor<10xi64>
  %p = func.call @pow(%x, %y) : (tensor<10xi64>, tensor<10xi64>) -> tensor<10xi64>
  %u = tensor.cast %p : tensor<10xi64> to tensor<*xi64>
  %m = bufferization.to_buffer %u : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}
