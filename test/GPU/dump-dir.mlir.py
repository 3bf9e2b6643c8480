# kernels.json lists the one fused kernel with its launch rule, arguments
# and traffic: it reads x (16*d0 floats = 64*d0 bytes) and b (64 bytes) and
# writes 64*d0 bytes.
import json
import sys

doc = json.load(open(sys.argv[1]))
assert doc["chip"] == "sm_75", doc
(k,) = doc["kernels"]
assert k["name"] == "pointwise_mul_add_0" and k["kind"] == "pointwise", k
assert k["ops"] == ["mul", "add"], k
# The flat mapping: 256 threads a block; b is read broadcast (not in
# iteration order), so no vectors: 4 elements a thread at a stride of the
# block, ceil(16*d0 / (256*4)) blocks, at least one. FLOPs: a mul and an add an element, 2*16*d0.
assert doc["schema_version"] == 1 and doc["block_size"] == 256, doc
assert k["mapping"] == "flat", k
assert k["launch"]["block"] == [256, 1, 1], k
assert k["launch"]["grid"] == ["max(ceildiv(d0*16, 1024), 1)", 1, 1], k
assert k["flops"] == "32*d0", k
assert k["bytes_read"] == "64*d0 + 64" and k["bytes_written"] == "64*d0", k
assert k["symbols"] == ["dim 0 of arg 0"], k
assert any("memref<?x16xf32>" in a for a in k["arguments"]), k["arguments"]
print("kernels.json ok")
