#!/usr/bin/env python3
"""kfuse's kernels and bytes next to torch.compile's (Inductor, CPU backend).

For each model of kfuse-import's zoo (importer/kfuse_import/zoo.py, or with
--catalogue real the transformers/timm/torchvision models of zoo_real.py), the
model is imported to kf (kfuse_import) and counted by `kfuse-opt
--kf-kernel-report=format=json`, eager and fused; and compiled by
torch.compile with Inductor's C++ backend, whose scheduler is watched:

  inductor kernels  the kernels the compiled program calls: the scheduler's
                    nodes after fusion that make code (C++ kernels and extern
                    calls such as the BLAS matmul), not the no-op nodes;
  generated         torch._inductor.metrics.generated_kernel_count, which on
                    the CPU counts the loop nests inside an outer-loop-fused
                    kernel one by one;
  inductor bytes    the sum of get_read_write_buffers_sizes() over those
                    nodes: the bytes each kernel reads and writes in memory,
                    what Inductor's own num_bytes_accessed sums on the GPU
                    (it stays 0 on the CPU, so it is recomputed here).

Both sides see the same shapes (a dynamic batch at the example's size), and
neither side's numbers are timed: this is a count, not a benchmark of speed.

  KFUSE_TORCH_PYTHON=~/.cache/kfuse/venv/bin/python   # scripts/setup.sh
  $KFUSE_TORCH_PYTHON bench/inductor_compare.py [--kfuse-opt build/bin/kfuse-opt] [--json]
      [--catalogue zoo|real] [MODEL ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "importer"))

import torch  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402
import torch._inductor.metrics as inductor_metrics  # noqa: E402
from torch._inductor import scheduler as inductor_scheduler  # noqa: E402

import kfuse_import  # noqa: E402
from kfuse_import import zoo, zoo_real  # noqa: E402


class InductorCounter:
    """Records the scheduler's nodes after fusion, as each graph is compiled."""

    def __init__(self):
        self.nodes = []
        original = inductor_scheduler.Scheduler.codegen
        counter = self

        def codegen(scheduler):
            for node in scheduler.nodes:
                if isinstance(node, inductor_scheduler.NopKernelSchedulerNode):
                    continue
                counter.nodes.append((type(node).__name__, node.get_name(),
                                      int(node.get_read_write_buffers_sizes())))
            return original(scheduler)

        inductor_scheduler.Scheduler.codegen = codegen

    def count(self, module, args):
        self.nodes = []
        torch._dynamo.reset()
        inductor_metrics.reset()
        compiled = torch.compile(module, backend="inductor", dynamic=False)
        with torch.no_grad():
            compiled(*args)
        return {
            "kernels": len(self.nodes),
            "generated_kernel_count": inductor_metrics.generated_kernel_count,
            "bytes": sum(n[2] for n in self.nodes),
            "extern": sum(n[0] == "ExternKernelSchedulerNode" for n in self.nodes),
        }


def kfuse_count(kfuse_opt, program, dims):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.mlir")
        with open(path, "w") as f:
            f.write(program.text)
        option = "format=json"
        if dims:
            option += " dims=" + ",".join(f"{k}={v}" for k, v in dims.items())
        out = subprocess.run([kfuse_opt, path, f"--kf-kernel-report={option}", "-o", "/dev/null"],
                             check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    functions = report["functions"]
    if len(functions) != 1:
        raise SystemExit(f"expected one function, got {len(functions)}")
    f = functions[0]
    return {"eager_kernels": f["eager"]["kernels"], "eager_bytes": f["eager"]["bytes"],
            "kernels": f["fused"]["kernels"], "bytes": f["fused"]["bytes"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kfuse-opt", default=os.path.join(ROOT, "build", "bin", "kfuse-opt"))
    parser.add_argument("--json", action="store_true", help="print JSON rows, not a table")
    parser.add_argument("--catalogue", choices=("zoo", "real"), default="zoo")
    parser.add_argument("models", nargs="*", help="model names (default: all)")
    args = parser.parse_args()

    torch.manual_seed(0)
    torch.set_num_threads(2)
    inductor_config.fx_graph_cache = False  # a cache hit would skip the scheduler
    counter = InductorCounter()
    rows = []
    catalogue = {"zoo": zoo, "real": zoo_real}[args.catalogue].MODELS
    for name in args.models or list(catalogue):
        factory, example_inputs, dynamic = catalogue[name]
        module, inputs = factory(), example_inputs()
        program = kfuse_import.import_module(module, inputs, dynamic_shapes=dynamic)
        # kf numbers the dynamic sizes d0, d1, ... in argument order; the
        # report counts bytes at the example's sizes, as Inductor sees them.
        dims = {}
        for spec, tensor in zip(dynamic or (), inputs):
            for axis in sorted(spec or {}):
                dims[f"d{len(dims)}"] = tensor.shape[axis]
        kf = kfuse_count(args.kfuse_opt, program, dims)
        ind = counter.count(module, inputs)
        rows.append({"model": name, "kfuse": kf, "inductor": ind})

    if args.json:
        print(json.dumps({"schema_version": 1, "rows": rows}, indent=2))
        return
    print(f"torch {torch.__version__}, Inductor CPU backend; kfuse-opt --kf-kernel-report")
    header = (f"{'model':<22} {'eager':>6} {'kfuse':>6} {'inductor':>9} {'(generated)':>11}"
              f" {'eager bytes':>12} {'kfuse bytes':>12} {'inductor bytes':>15} {'kfuse/ind':>9}")
    print(header)
    for r in rows:
        k, i = r["kfuse"], r["inductor"]
        ratio = k["bytes"] / i["bytes"] if i["bytes"] else float("nan")
        extern = f" ({i['extern']} extern)" if i["extern"] else ""
        print(f"{r['model']:<22} {k['eager_kernels']:>6} {k['kernels']:>6} {i['kernels']:>9}"
              f" {i['generated_kernel_count']:>11} {k['eager_bytes']:>12} {k['bytes']:>12}"
              f" {i['bytes']:>15} {ratio:>9.2f}{extern}")


if __name__ == "__main__":
    main()
