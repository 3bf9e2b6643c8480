"""Prints the kf text kfuse-import writes for each module of
Inputs/op_modules.py (and Constants with weights='constants'), for ops.mlir."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "importer"), os.path.join(HERE, "Inputs")]
import kfuse_import  # noqa: E402
from op_modules import OPS, Constants, _rand  # noqa: E402

for name, (factory, example, dynamic) in OPS.items():
    print(kfuse_import.import_module(factory().eval(), example(), dynamic, entry=name).text)
prog = kfuse_import.import_module(Constants(), (_rand(3, 2),), weights="constants",
                                  entry="weights_as_constants")
print(prog.text)
