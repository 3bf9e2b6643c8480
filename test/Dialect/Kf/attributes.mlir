// The kf dialect's discardable attributes and #kf.boundary: each is declared
// on the dialect with its type (KfDialect.td) and checked by its verifier.
// RUN: kfuse-opt %s -split-input-file | FileCheck %s
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s

// Every attribute of the contract, of its type, round-trips.
// CHECK-LABEL: func.func @contract
// CHECK-SAME: kf.boundaries = [#kf.boundary<producer = "reduction_max_0", producer_op = "max", consumer = "pointwise_sub_1", consumer_op = "sub", reason = rule_disabled, detail = "row-persistent=false">]
// CHECK: kf.kernel "pointwise_exp_0" kind pointwise -> tensor<4xf32> attributes {ops = ["exp"]}
// CHECK: linalg.generic
// CHECK-SAME: kf.op = "exp"
// CHECK: arith.constant {kf.finishes, kf.stable_shift}
// CHECK-LABEL: func.func @host
// CHECK-SAME: kf.host_kernel = "pointwise_exp_0"
#map = affine_map<(d0) -> (d0)>
func.func @contract(%x: tensor<4xf32>) -> tensor<4xf32> attributes {
    kf.boundaries = [#kf.boundary<producer = "reduction_max_0", producer_op = "max",
                                  consumer = "pointwise_sub_1", consumer_op = "sub",
                                  reason = rule_disabled,
                                  detail = "row-persistent=false">]} {
  %0 = kf.kernel "pointwise_exp_0" kind pointwise -> tensor<4xf32> attributes {ops = ["exp"]} {
    %e = tensor.empty() : tensor<4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {kf.op = "exp"} {
    ^bb0(%in: f32, %out: f32):
      %2 = math.exp %in : f32
      linalg.yield %2 : f32
    } -> tensor<4xf32>
    kf.yield %1 : tensor<4xf32>
  }
  %c = arith.constant {kf.finishes, kf.stable_shift} 1.0 : f32
  return %0 : tensor<4xf32>
}

func.func @host() attributes {kf.host_kernel = "pointwise_exp_0"} {
  return
}
