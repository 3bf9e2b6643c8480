# -*- Python -*-
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "kfuse"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]  # .mlir.py files are helpers of the test beside them
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kfuse_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs", "harness", "lib",
                   "fake-cuda"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

runner_libs = ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")
)
config.substitutions.append(("%kfuse_src", config.kfuse_src_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%kfuse_obj", config.kfuse_obj_root))
# Limits a command's address space to 4 GiB, so that a regression that tries
# to allocate terabytes fails fast. Not under AddressSanitizer (scripts/
# sanitize.sh passes --param sanitized=1), which reserves terabytes of
# shadow memory up front.
config.substitutions.append(
    ("%limit-vm", "" if lit_config.params.get("sanitized") else "ulimit -v 4000000 &&"))
# Runs a module lowered by kf-cpu-pipeline: its @main, on the host CPU.
config.substitutions.append(
    (
        "%run-cpu",
        "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs,
    )
)

# Compares printed arrays with the test's own numpy reference (NUMPY lines).
config.substitutions.append(
    ("%numpy-check", sys.executable + " " + os.path.join(config.test_source_root, "harness", "numpy_check.py"))
)

def python_tool(script):
    """A test tool of test/harness that runs kfuse-opt programs on the CPU."""
    runner = " ".join([
        os.path.join(config.llvm_tools_dir, "mlir-runner"),
        "-e main -entry-point-result=void -shared-libs=" + runner_libs,
    ])
    return " ".join([
        sys.executable,
        os.path.join(config.test_source_root, "harness", script),
        "--kfuse-opt", os.path.join(config.kfuse_tools_dir, "kfuse-opt"),
        "--runner '" + runner + "'",
    ])


# The fake CUDA driver (test/fake-cuda), in place of libcuda.so.1.
config.substitutions.append(
    ("%fake-cuda", os.path.join(config.kfuse_obj_root, "lib", "libkfuse_fake_cuda.so"))
)
# Runs a program with kfuse-run on numpy inputs and checks its results
# against a numpy expression (test/harness/run_check.py).
config.substitutions.append(
    ("%run-check", " ".join([sys.executable,
                             os.path.join(config.test_source_root, "harness", "run_check.py"),
                             "--kfuse-run", os.path.join(config.kfuse_tools_dir, "kfuse-run")]))
)

# Runs every function of a test through two pipelines and compares results.
config.substitutions.append(("%fusion-diff", python_tool("fusion_diff.py")))
# Random programs, fused against unfused (see test/harness/kf_fuzz.py).
# The same programs as a user runs them: kfuse-compile --emit=lib, then
# kfuse-run --check (fused by the runtime against the unfused CPU run).
config.substitutions.append(
    ("%kf-fuzz-run", python_tool("kf_fuzz.py") + " --kfuse-run "
     + os.path.join(config.kfuse_tools_dir, "kfuse-run"))
)
config.substitutions.append(("%kf-fuzz", python_tool("kf_fuzz.py")))

llvm_config.add_tool_substitutions(
    ["kfuse-opt", "kfuse-compile", "kfuse-run"], [config.kfuse_tools_dir]
)

# Pass statistics (--mlir-pass-statistics) are compiled out of LLVM builds
# without assertions or LLVM_FORCE_ENABLE_STATS, as the packaged ones are:
# tests of kfuse's statistics run where kfuse-opt prints them.
import subprocess
try:
    probe = subprocess.run(
        [os.path.join(config.kfuse_tools_dir, "kfuse-opt"), "--kf-form-kernels",
         "--mlir-pass-statistics", "-o", os.devnull],
        input="", capture_output=True, text=True, timeout=60)
    if "KfFormKernels" in probe.stderr:
        config.available_features.add("pass-statistics")
except (OSError, subprocess.SubprocessError):
    pass
llvm_config.add_tool_substitutions(
    ["mlir-runner", "not", "FileCheck", "count"], [config.llvm_tools_dir]
)

# PTX is checked with ptxas from the CUDA toolkit where one is installed;
# tests that need it are reported as unsupported (skipped) elsewhere.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None
)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# PyTorch for kfuse-import's tests (test/Import): the Python of
# KFUSE_TORCH_PYTHON, else of the venv scripts/setup.sh makes
# (KFUSE_VENV, else ${XDG_CACHE_HOME:-$HOME/.cache}/kfuse/venv). The probe
# only asks whether torch can be found (importing it takes ~10 s). Where it
# cannot, the tests that need it are unsupported, except under CI=true, where
# a missing PyTorch is an error: CI must not skip the importer's tests.
def torch_python():
    given = os.environ.get("KFUSE_TORCH_PYTHON")
    if given:
        return given
    venv = os.environ.get("KFUSE_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "kfuse", "venv")
    return os.path.join(venv, "bin", "python")


def has_modules(python, *names):
    if not os.access(python, os.X_OK):
        return False
    try:
        found = subprocess.run(
            [python, "-c", "import importlib.util, sys; sys.exit(any("
             f"importlib.util.find_spec(m) is None for m in {list(names)!r}))"],
            capture_output=True, timeout=60)
        return found.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


torch_py = torch_python()
# torch-zoo: the model libraries of the real-architecture zoo
# (kfuse_import/zoo_real.py), which setup.sh installs beside PyTorch.
ZOO_MODULES = ("transformers", "timm", "torchvision")
if has_modules(torch_py, "torch"):
    config.available_features.add("torch")
    if has_modules(torch_py, *ZOO_MODULES):
        config.available_features.add("torch-zoo")
    elif os.environ.get("CI", "").lower() == "true":
        lit_config.fatal(f"CI=true but {torch_py} lacks one of {', '.join(ZOO_MODULES)}: run "
                         "scripts/setup.sh so that the real-model zoo test runs")
elif os.environ.get("CI", "").lower() == "true":
    lit_config.fatal(f"CI=true but PyTorch is missing ({torch_py} cannot import torch): run "
                     "scripts/setup.sh (without KFUSE_NO_TORCH=1) so that the importer's "
                     "tests (test/Import) run")
config.substitutions.append(("%torch-python", torch_py))
config.substitutions.append(
    ("%kfuse_import", torch_py + " " + os.path.join(config.kfuse_src_root, "importer",
                                                    "kfuse-import")))

# Graphviz's `dot` renders kf-kernel-report's format=dot (test/Report).
if shutil.which("dot"):
    config.available_features.add("graphviz")

# Root's file-system powers that test/Runtime/output-commit.mlir uses to make
# a rename fail (chattr +i and +a, setpriv dropping CAP_FOWNER, strace to stop
# between two renames): on a machine or file system without them the test is
# unsupported rather than failed.
def can_make_immutable():
    import tempfile
    if not all(shutil.which(t) for t in ("chattr", "setpriv", "strace")):
        return False
    probe = tempfile.NamedTemporaryFile(dir=config.test_exec_root, delete=False)
    probe.close()
    try:
        ok = subprocess.run(["chattr", "+i", probe.name], capture_output=True).returncode == 0
        subprocess.run(["chattr", "-i", probe.name], capture_output=True)
        return ok
    finally:
        os.unlink(probe.name)


os.makedirs(config.test_exec_root, exist_ok=True)
if can_make_immutable():
    config.available_features.add("immutable-files")

# kfuse-run's compile cache: the tests' own, under the build tree, never the
# user's ~/.cache (tests that test the cache's location unset or set it).
config.environment["KFUSE_CACHE_DIR"] = os.path.join(config.test_exec_root, "kfuse-cache")
