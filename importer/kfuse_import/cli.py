"""The command line: kfuse-import MODEL.py [options].

MODEL.py defines either
  model()            -> the torch.nn.Module (put in eval mode by kfuse-import)
  example_inputs()   -> a tuple of tensors, forward()'s arguments
  dynamic_shapes()   -> (optional) torch.export's dynamic_shapes for them
or a dict MODELS = {NAME: (factory, example_inputs, dynamic_shapes or None)}
(the form of kfuse_import/zoo.py), from which --model NAME picks one.
"""
import argparse
import importlib.util
import os
import shlex
import sys

from .errors import ImportFailure, OutputRefused, UnsupportedOp


def _load(path):
    spec = importlib.util.spec_from_file_location("kfuse_import_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    sys.dont_write_bytecode = True  # no __pycache__/ left beside the user's files
    spec.loader.exec_module(module)
    return module


def _pick(module, path, name):
    """(factory, example_inputs, dynamic_shapes (a value or a function giving
    it), name) from MODEL.py; calls none of the model's functions."""
    models = getattr(module, "MODELS", None)
    if name is not None or (models and not hasattr(module, "model")):
        if not models:
            raise SystemExit(f"{path} has no MODELS dict to pick --model {name} from")
        if name is None:
            if len(models) != 1:
                raise SystemExit(f"{path} defines {len(models)} models: pick one with "
                                 f"--model ({', '.join(models)})")
            name = next(iter(models))
        if name not in models:
            raise SystemExit(f"{path} has no model {name!r} (it has {', '.join(models)})")
        factory, inputs, dynamic = models[name]
        return factory, inputs, dynamic, name
    for fn in ("model", "example_inputs"):
        if not callable(getattr(module, fn, None)):
            raise SystemExit(f"{path} must define {fn}() (or a MODELS dict); see "
                             "kfuse-import --help")
    stem = os.path.splitext(os.path.basename(path))[0]
    return module.model, module.example_inputs, getattr(module, "dynamic_shapes", None), stem


def _kfuse_run():
    """The kfuse-run of this checkout's build, if there is one."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    built = os.path.join(os.path.dirname(here), "build", "bin", "kfuse-run")
    if not os.path.exists(built):
        return "kfuse-run"
    rel = os.path.relpath(built)
    return built if rel.startswith("..") else rel


def main(argv, prog="kfuse-import"):
    p = argparse.ArgumentParser(
        prog=prog, description="Writes a PyTorch model as a kf MLIR program (torch.export).",
        epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model_file", metavar="MODEL.py")
    p.add_argument("--model", metavar="NAME", help="the model to pick from MODEL.py's MODELS")
    p.add_argument("-o", "--output", metavar="OUT.mlir",
                   help="write the program here (default: print it)")
    p.add_argument("--save-inputs", action="store_true",
                   help="also write OUT.inputs/argN.npy: the weights and example inputs")
    p.add_argument("--weights", choices=("args", "constants"), default="args",
                   help="weights as function arguments (default) or kf.constant values")
    p.add_argument("--entry", metavar="NAME", help="the function's name (default: the model's)")
    p.add_argument("--force", action="store_true",
                   help="overwrite an output that kfuse-import did not write (never the "
                   "model's source or a file the model read)")
    a = p.parse_args(argv)
    if a.save_inputs and not a.output:
        p.error("--save-inputs needs -o OUT.mlir")
    if not os.path.isfile(a.model_file):
        p.error(f"{a.model_file}: no such file")
    try:
        from .program import check_output, dir_is_ours, inputs_dir_for, mlir_is_ours
        if a.output:  # refuse before importing torch and exporting (seconds)
            check_output(a.output, [a.model_file], a.force, is_ours=mlir_is_ours)
            if a.save_inputs:
                check_output(inputs_dir_for(a.output), [a.model_file], a.force,
                             is_ours=dir_is_ours)
        import torch
        from .guard import ModelRun
        from .importer import import_module
        watch = ModelRun(a.model_file)  # the model's code: what it reads, a sys.exit()
        with watch.step("loading it"):
            module = _load(a.model_file)
        factory, example, dynamic, name = _pick(module, a.model_file, a.model)
        with watch.step("calling its model(), example_inputs() or dynamic_shapes()"):
            dynamic = dynamic() if callable(dynamic) else dynamic
            model = factory()
            if isinstance(model, torch.nn.Module):
                model = model.eval()
            inputs = tuple(example())
        origin = os.path.basename(a.model_file) + (f" --model {a.model}" if a.model else "")
        with watch.step("exporting it (torch.export runs its forward())"):
            program = import_module(model, inputs, dynamic_shapes=dynamic,
                                    weights=a.weights, entry=a.entry or name, origin=origin)
        if not a.output:
            sys.stdout.write(program.text)
            return 0
        inputs_dir = program.save(a.output, save_inputs=a.save_inputs, force=a.force,
                                  protect=watch.files())
    except (UnsupportedOp, OutputRefused, ImportFailure) as e:
        print(f"kfuse-import: error: {e}", file=sys.stderr)
        return 1
    n = len(program.args)
    print(f"wrote {a.output}: @{program.entry}, {n} argument{'s' * (n != 1)}"
          + (f", inputs in {inputs_dir}/" if inputs_dir else ""))
    run = [_kfuse_run(), a.output] + (["--input-dir", inputs_dir] if inputs_dir else [])
    print("run it: " + " ".join(shlex.quote(x) for x in run))
    return 0
