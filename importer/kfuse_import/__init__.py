"""kfuse-import: PyTorch programs as kf MLIR, through torch.export.

    import kfuse_import
    prog = kfuse_import.import_module(model, (x,))
    print(prog.text)                 # the kf function
    prog.save("model.mlir")          # and model.inputs/argN.npy for kfuse-run
"""
from .errors import ImportFailure, OutputRefused, UnsupportedOp
from .program import Program


def __getattr__(name):
    # torch is imported with the importer, on first use: the command line
    # refuses a bad output path without waiting for it.
    if name in ("import_module", "import_exported", "decomposition_table"):
        from . import importer
        return getattr(importer, name)
    raise AttributeError(f"module 'kfuse_import' has no attribute {name!r}")

__all__ = ["import_module", "import_exported", "decomposition_table", "Program",
           "ImportFailure", "UnsupportedOp", "OutputRefused"]
