// What the kf dialect's verifier refuses in its attributes: each discardable
// attribute must have its declared type, and no other kf. name exists.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// kf.op names an eager op: a string.
func.func @op_not_a_string() {
  // expected-error @+1 {{'kf.op' must be a string, got 1 : i32}}
  %c = arith.constant {kf.op = 1 : i32} 1.0 : f32
  return
}

// -----

// kf.finishes is a unit attribute (present or not).
func.func @finishes_not_unit() {
  // expected-error @+1 {{'kf.finishes' must be a unit attribute, got "yes"}}
  %c = arith.constant {kf.finishes = "yes"} 1.0 : f32
  return
}

// -----

// kf.boundaries lists #kf.boundary attributes, not the old dictionaries.
// expected-error @+1 {{'kf.boundaries' must be an array of #kf.boundary}}
func.func @boundaries_of_dictionaries() attributes {
    kf.boundaries = [{producer = "a", consumer = "b", reason = "fusion-off"}]} {
  return
}

// -----

// A boundary's reason is one of the enum's.
func.func @unknown_reason() attributes {
    kf.boundaries = [#kf.boundary<producer = "a", producer_op = "add",
                                  consumer = "b", consumer_op = "relu",
    // expected-error @+2 {{expected ::kfuse::kf::BoundaryReason to be one of: fused, recomputed, fusion_off, rule_disabled}}
    // expected-error @+1 {{failed to parse Kf_BoundaryAttr parameter 'reason'}}
                                  reason = tired>]} {
  return
}

// -----

// A kernel's eager ops are its own (inherent) attribute: kf.ops is no
// attribute of the dialect.
func.func @ops_as_discardable(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.ops' is not an attribute of the kf dialect}}
  %0 = kf.kernel "k_0" kind pointwise -> tensor<4xf32> attributes {kf.ops = ["exp"]} {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A kernel's `ops` are strings.
func.func @ops_not_strings(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op attribute 'ops' failed to satisfy constraint: string array attribute}}
  %0 = kf.kernel "k_0" kind pointwise -> tensor<4xf32> attributes {ops = [1]} {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// kf.host_kernel names a kernel: a string.
// expected-error @+1 {{'kf.host_kernel' must be a string, got unit}}
func.func @host_kernel_unit() attributes {kf.host_kernel} {
  return
}
