//===- Options.cpp - kfuse-run's command line -----------------------------===//
#include "Options.h"
#include "tools/KfuseVersion.h"

#include <cstdio>
#include <cstdlib>

namespace kfuse::run {

namespace {
bool integer(const std::string &text, int64_t min, int64_t &out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 18)
    return false;
  out = std::atoll(text.c_str());
  return out >= min;
}

/// Reads --fusion: kfuse-compile's words (passes/fusion/FusionOptions.h),
/// of which kfuse-run needs only on and off (which version runs); the
/// others (max-ops=N, rule switches) go to kfuse-compile, which checks them.
bool fusionOption(const std::string &spec, Options &o, std::string &error) {
  o.fusion = spec;
  o.fused = true;
  o.switches = false;
  bool any = false;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find_first_of(", \t", start);
    if (end == std::string::npos)
      end = spec.size();
    std::string word = spec.substr(start, end - start);
    start = end + 1;
    if (word.empty())
      continue;
    any = true;
    if (word == "on" || word == "fusion=on")
      o.fused = true;
    else if (word == "off" || word == "fusion=off")
      o.fused = false;
    else if (word == "fused" || word == "eager")
      return error = "--fusion=" + word + ": say " + (word == "fused" ? "on" : "off") +
                     " (fused kernels: on; one kernel per op: off)",
             false;
    else
      o.switches = true;
  }
  if (!any)
    return error = "--fusion needs on, off or fusion switches such as "
                   "row-persistent=false",
           false;
  return true;
}

bool assignment(const std::string &text, std::string &name, std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}
} // namespace

void printUsage() {
  std::printf(
      "usage: kfuse-run PROGRAM [options]\n"
      "  PROGRAM            a .mlir kf program (compiled with kfuse-compile) or a\n"
      "                     library from kfuse-compile --emit=lib\n"
      "  --entry NAME       the function to run (default: the only one)\n"
      "  --input argN=FILE  argument N from a .npy file (others are random;\n"
      "                     bf16 ones from f32 files, numpy has no bf16)\n"
      "  --input-dir DIR    argument N from DIR/argN.npy where that file exists\n"
      "                     (--input wins; as kfuse-import --save-inputs writes)\n"
      "  --seed N           seed of the random inputs (default 0)\n"
      "  --dim dK=N         value of the size symbol dK for random inputs\n"
      "  --output resultN=FILE | FILE   write a result as .npy\n"
      "  --device auto|cuda|cpu         (default auto: cuda when it works)\n"
      "  --fusion on|off    fused kernels or one kernel per op (default on); also\n"
      "                     kfuse-compile's switches for a .mlir program, such\n"
      "                     as --fusion=row-persistent=false,max-ops=8; a .mlir\n"
      "                     program is compiled for the version that runs (and\n"
      "                     for the host only with --device=cpu)\n"
      "  --warmup W --repeat R          steady-state calls (default 2, 10)\n"
      "  --cuda-graph on|off|auto       replay each call's launches as one CUDA\n"
      "                     graph from the second call on (default off, or\n"
      "                     $KFUSE_CUDA_GRAPHS): per-kernel times are then not\n"
      "                     measured, the graph's replay time a call is; auto\n"
      "                     is on where the driver has graphs, without a warning\n"
      "  --check            check the results against the program in float64:\n"
      "                     each element within 8x the error scale the float64\n"
      "                     reference computes for the program in its working\n"
      "                     precision (each op's rounding carried through it;\n"
      "                     reductions' roundings adding in quadrature), or 4x\n"
      "                     the unfused CPU run's measured error (+4 ulps). A\n"
      "                     .mlir program's reference is compiled (and cached);\n"
      "                     a library's is given with --reference, else the\n"
      "                     run is compared with the unfused CPU run by allclose\n"
      "  --reference FILE   the float64 reference of a library program, from\n"
      "                     kfuse-compile --emit=lib --float64-reference\n"
      "  --trace FILE       a Chrome trace of launches and copies\n"
      "  --format text|json\n"
      "  --gpu-chip sm_XX --block-size N  passed to kfuse-compile for .mlir\n"
      "  --cache-dir DIR    where compiled programs are kept (default\n"
      "                     $KFUSE_CACHE_DIR, else $XDG_CACHE_HOME/kfuse, else\n"
      "                     ~/.cache/kfuse; they go to its compile/ folder)\n"
      "  --no-cache         compile the .mlir program, neither reading nor\n"
      "                     writing the cache\n"
      "  --version          kfuse's version, its LLVM, the GPU chips\n");
}

void printVersion() { std::fputs(versionText("kfuse-run").c_str(), stdout); }

bool parseOptions(int argc, char **argv, Options &o, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool hasValue = false;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasValue = true;
      }
    }
    auto next = [&]() -> bool {
      if (hasValue)
        return true;
      if (i + 1 >= argc) {
        error = arg + " needs a value";
        return false;
      }
      value = argv[++i];
      return true;
    };
    auto flag = [&]() {
      if (hasValue) {
        error = arg + " takes no value";
        return false;
      }
      return true;
    };
    int64_t n = 0;
    std::string name, path;
    if (arg == "--help" || arg == "-h") {
      printUsage();
      std::exit(0);
    } else if (arg == "--version") {
      printVersion();
      std::exit(0);
    } else if (arg == "--entry") {
      if (!next()) return false;
      o.entry = value;
    } else if (arg == "--input" || arg == "--output") {
      if (!next()) return false;
      if (!assignment(value, name, path)) {
        if (arg == "--input" || value.find('=') != std::string::npos)
          return error = arg + " takes NAME=FILE, got '" + value + "'", false;
        name = "result0";
        path = value;
      }
      auto &list = arg == "--input" ? o.inputs : o.outputs;
      for (auto &[given, file] : list)
        if (given == name)
          return error = arg + " " + name + " is given twice (" + file + " and " + path + ")",
                 false;
      list.push_back({name, path});
    } else if (arg == "--input-dir") {
      if (!next()) return false;
      if (!o.inputDir.empty())
        return error = "--input-dir is given twice (" + o.inputDir + " and " + value + ")",
               false;
      if (value.empty())
        return error = "--input-dir needs a directory", false;
      o.inputDir = value;
    } else if (arg == "--dim") {
      if (!next()) return false;
      if (!assignment(value, name, path) || !integer(path, 0, n))
        return error = "--dim takes dK=N with N >= 0, got '" + value + "'", false;
      for (auto &[given, size] : o.dims)
        if (given == name)
          return error = "--dim " + name + " is given twice (" + std::to_string(size) +
                         " and " + std::to_string(n) + ")",
                 false;
      o.dims.push_back({name, n});
    } else if (arg == "--seed") {
      if (!next()) return false;
      if (!integer(value, 0, n))
        return error = "--seed takes a non-negative integer, got '" + value + "'", false;
      o.seed = uint64_t(n);
    } else if (arg == "--warmup" || arg == "--repeat") {
      if (!next()) return false;
      if (!integer(value, 0, n) || n > 1000000)
        return error = arg + " takes an integer from 0 to 1000000, got '" + value + "'", false;
      (arg == "--warmup" ? o.warmup : o.repeat) = int(n);
    } else if (arg == "--device") {
      if (!next()) return false;
      if (value != "auto" && value != "cuda" && value != "cpu")
        return error = "--device must be auto, cuda or cpu, got '" + value + "'", false;
      o.device = value;
    } else if (arg == "--cuda-graph") {
      if (!next()) return false;
      if (value != "on" && value != "off" && value != "auto")
        return error = "--cuda-graph must be on, off or auto, got '" + value + "'", false;
      o.cudaGraph = value;
    } else if (arg == "--fusion") {
      if (!next()) return false;
      if (!fusionOption(value, o, error))
        return false;
    } else if (arg == "--format") {
      if (!next()) return false;
      if (value != "text" && value != "json")
        return error = "--format must be text or json, got '" + value + "'", false;
      o.format = value;
    } else if (arg == "--trace") {
      if (!next()) return false;
      if (!o.trace.empty())
        return error = "--trace is given twice (" + o.trace + " and " + value + ")", false;
      o.trace = value;
    } else if (arg == "--gpu-chip") {
      if (!next()) return false;
      o.chip = value;
    } else if (arg == "--block-size") {
      if (!next()) return false;
      o.blockSize = value;
    } else if (arg == "--reference") {
      if (!next()) return false;
      if (value.empty())
        return error = "--reference needs a library", false;
      if (!o.reference.empty())
        return error = "--reference is given twice (" + o.reference + " and " + value + ")",
               false;
      o.reference = value;
    } else if (arg == "--check") {
      if (!flag()) return false;
      o.check = true;
    } else if (arg == "--quiet") {
      if (!flag()) return false;
      o.quiet = true;
    } else if (arg == "--no-cache") {
      if (!flag()) return false;
      o.noCache = true;
    } else if (arg == "--cache-dir") {
      if (!next()) return false;
      if (value.empty())
        return error = "--cache-dir needs a directory", false;
      if (!o.cacheDir.empty())
        return error = "--cache-dir is given twice (" + o.cacheDir + " and " + value + ")",
               false;
      o.cacheDir = value;
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      return error = "unknown option " + arg + " (see --help)", false;
    } else if (o.program.empty()) {
      o.program = arg;
    } else {
      return error = "more than one program: " + o.program + " and " + arg, false;
    }
  }
  if (o.program.empty())
    return error = "no program given (see --help)", false;
  if (!o.reference.empty() && !o.check)
    return error = "--reference " + o.reference + " is for --check, which is not given",
           false;
  if (o.noCache && !o.cacheDir.empty())
    return error = "--no-cache and --cache-dir " + o.cacheDir + " contradict each other",
           false;
  return true;
}

} // namespace kfuse::run
