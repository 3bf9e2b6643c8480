// kf.relu computes what torch.relu computes, bit for bit on the special
// values: x < 0 ? +0 : x, so NaN stays NaN and -0 stays -0 (torch.relu of
// -0.0 is -0.0 on PyTorch's CPU kernels, for every length; maximumf(x, 0),
// kfuse's lowering before, gave +0). Expected values by hand:
//   relu([-0, +0, nan, -inf, inf, -1.5, 1.5, -1e-45]) = [-0, +0, nan, +0, inf, +0, 1.5, +0]
// with sign bits [1, 0, -, 0, 0, 0, 0, 0]. Fused with an add of +0 too:
// -0 + +0 is +0 (round to nearest), so relu(x + 0) has no negative zero.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/relu.so
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-0.0, 0.0, np.nan, -np.inf, np.inf, -1.5, 1.5, -1e-45], np.float32))"
// RUN: kfuse-run %t/relu.so --entry relu --device=cpu --repeat=0 --input arg0=%t/x.npy --output result0=%t/relu.npy > /dev/null
// RUN: kfuse-run %t/relu.so --entry add_zero_relu --device=cpu --repeat=0 --input arg0=%t/x.npy --output result0=%t/add.npy > /dev/null
// RUN: %python -c "import numpy as np; \
// RUN:   r = np.load('%t/relu.npy'); a = np.load('%t/add.npy'); \
// RUN:   print('relu', [str(v) for v in r], np.signbit(r).astype(int).tolist()); \
// RUN:   print('add', [str(v) for v in a], np.signbit(a).astype(int).tolist())" | FileCheck %s

// CHECK: relu ['-0.0', '0.0', 'nan', '0.0', 'inf', '0.0', '1.5', '0.0'] [1, 0, 0, 0, 0, 0, 0, 0]
// CHECK: add ['0.0', '0.0', 'nan', '0.0', 'inf', '0.0', '1.5', '0.0'] [0, 0, 0, 0, 0, 0, 0, 0]

func.func @relu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = kf.relu %x : tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @add_zero_relu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %z = kf.constant dense<0.0> : tensor<8xf32>
  %s = kf.add %x, %z : tensor<8xf32>, tensor<8xf32>
  %r = kf.relu %s : tensor<8xf32>
  return %r : tensor<8xf32>
}
