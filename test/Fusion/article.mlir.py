# The JSON report of examples/add_relu.mlir is one document with the
# documented fields and the article's numbers.
import json
import sys

doc = json.load(sys.stdin)  # fails on anything but exactly one document
(f,) = doc["functions"]
assert f["name"] == "add_relu", f
assert f["eager"] == {"kernels": 2, "transfers": 5, "elements": 5000000,
                      "bytes": 20000000}, f["eager"]
fused = f["fused"]
assert (fused["kernels"], fused["transfers"]) == (1, 3), fused
assert (fused["elements"], fused["bytes"]) == (3000000, 12000000), fused
(k,) = fused["kernel_list"]
assert k["name"] == "pointwise_add_relu_0" and k["ops"] == ["add", "relu"], k
assert k["reads"] == ["arg0", "arg1"] and k["writes"] == ["pointwise_add_relu_0#0"], k
assert f["boundaries"] == [], f["boundaries"]
print("json ok")
