# Counts, in the PTX of one kernel (.entry NAME), the f32 FMAs and the
# shared-memory loads (vector and scalar), and prints their ratio: the
# register tiling's figure of merit (FMAs per shared-memory load).
import re
import sys

text = open(sys.argv[1]).read()
name = sys.argv[2]
start = text.index(f".entry {name}(")
end = text.find(".entry ", start + 1)
body = text[start:end if end != -1 else len(text)]
lines = [l.strip() for l in body.splitlines()]
fma = sum(1 for l in lines if l.startswith("fma.rn.f32"))
vec = sum(1 for l in lines if re.match(r"ld\.shared\.v4\.", l))
scalar = sum(1 for l in lines if re.match(r"ld\.shared\.(b|f|u|s)\d+", l))
loads = vec + scalar
ratio = fma / loads if loads else float("inf")
print(f"{name}: {fma} fma.rn.f32, {vec} ld.shared.v4, {scalar} scalar ld.shared, "
      f"{ratio:.1f} FMAs a shared-memory load")
