//===- kfuse-run.cpp - compile, run, check and time a kf program ----------===//
//
// kfuse's main job in one line: the kernel summary (eager vs fused), the
// first call apart from the steady state, a profiler table per kernel, an
// optional check against the unfused program on the CPU. It links neither
// MLIR nor LLVM: a .mlir program is compiled by kfuse-compile in a child
// process, and a library from --emit=lib runs on a machine without MLIR.
//
//===----------------------------------------------------------------------===//
#include "Cache.h"
#include "Cleanup.h"
#include "OutputFiles.h"
#include "Progress.h"
#include "Run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <new>
#include <unistd.h>

using namespace kfuse::run;

namespace {

int fail(const std::string &message) {
  progressClear();
  std::fprintf(stderr, "kfuse-run: error: %s\n", message.c_str());
  removeTempDir();
  return 1;
}

/// The runtime stopped the run (a failed driver call): its message is
/// printed; nothing has been written yet.
void onRuntimeError(const char *message) {
  progressClear();
  std::fprintf(stderr, "%s\n", message);
  removeTempDir();
  std::_Exit(1);
}

double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::vector<kfuse_record> takeRecords() {
  kfuse_rt_synchronize();
  std::vector<kfuse_record> records(kfuse_rt_record_count());
  for (size_t i = 0; i < records.size(); ++i)
    kfuse_rt_get_record(i, &records[i]);
  return records;
}

/// Copies a result to the host (it must be dense and row-major; its shape
/// was checked by Program::call).
bool toHost(const DeviceTensor &d, Tensor &out, std::string &error) {
  out.dtype = d.dtype;
  out.shape = d.shape;
  if (d.strides != rowMajorStrides(d.shape) && out.elements() > 1)
    return error = "a result is not a dense row-major buffer", false;
  size_t bytes = size_t(out.elements()) * elementSize(d.dtype);
  try {
    if (!fitsInHostMemory(bytes))
      throw std::bad_alloc();
    out.data.resize(bytes);
  } catch (const std::bad_alloc &) {
    return error = "cannot allocate " + std::to_string(bytes) +
                   " bytes of host memory for a result of shape " + shapeString(d.shape),
           false;
  }
  kfuse_rt_copy_to_host(out.data.data(),
                        static_cast<char *>(d.aligned) + d.offset * elementSize(d.dtype),
                        out.data.size());
  return true;
}

/// The compile step in a line: a cache hit and how long the library took
/// to find, check and load, or a miss and why (Cache.h).
void printCompileLine(const RunReport &r, double loadMs) {
  if (r.cacheStatus == "hit")
    std::printf("compile: cache hit (%s), loaded in %.0f ms\n", r.cacheDetail.c_str(), loadMs);
  else
    std::printf("compile: cache %s (%s), compiled in %.0f ms\n", r.cacheStatus.c_str(),
                r.cacheDetail.c_str(), r.compileMs);
}

/// Output files must not clobber what the user gave (compared as files,
/// not as spellings: ./v.mlir is v.mlir), nor each other.
bool checkOutputs(const Options &o, std::string &error) {
  std::vector<std::pair<std::string, std::string>> kept = {{"the program", o.program}};
  for (auto &[name, path] : o.inputs)
    kept.push_back({"also --input " + name, path});
  for (auto &[label, path] : inputDirFiles(o))
    kept.push_back({"also " + label, path});
  std::vector<std::pair<std::string, std::string>> outputs; // option, path
  for (auto &[name, path] : o.outputs)
    outputs.push_back({"--output", path});
  if (!o.trace.empty())
    outputs.push_back({"--trace", o.trace});
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!checkOutputPath(outputs[i].first, outputs[i].second, kept, error))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (sameOutputFile(outputs[i].second, outputs[j].second))
        return error = outputs[i].first + " " + outputs[i].second + " and " +
                       outputs[j].first + " " + outputs[j].second +
                       " are the same file; one would overwrite the other",
               false;
  }
  return true;
}

int run(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parseOptions(argc, argv, o, error))
    return fail(error);
  progressInit(o.quiet);
  kfuse_rt_set_error_handler(onRuntimeError);
  RunReport report;
  report.program = o.program;
  report.fusion = o.fusion;
  if (!checkOutputs(o, error))
    return fail(error);

  std::string library = o.program;
  bool isMlir = o.program.size() > 5 && o.program.compare(o.program.size() - 5, 5, ".mlir") == 0;
  if (access(o.program.c_str(), R_OK) != 0)
    return fail("cannot read " + o.program);
  if (!isMlir && o.switches)
    return fail("--fusion=" + o.fusion + ": fusion switches are compiled in; give "
                "them with the .mlir program (or to kfuse-compile --emit=lib)");
  // A .mlir program is compiled, or found in the compile cache (Cache.h);
  // a cached library that does not load is rebuilt.
  CachedCompile compiled;
  if (isMlir && !compiled.run(o, library, report, error))
    return fail(error);
  auto loadStart = std::chrono::steady_clock::now();
  Program program;
  if (!program.open(library, error)) {
    if (!compiled.hit())
      return fail(error);
    program = Program();
    std::string why = error;
    if (!compiled.rebuild(o, why, library, report, error) || !program.open(library, error))
      return fail(error);
    error.clear(); // later steps read a non-empty error as their failure
  }
  double loadMs = compiled.lookupMs + millisSince(loadStart);

  // The function.
  const FunctionInfo *f = nullptr;
  if (!o.entry.empty()) {
    if (!(f = program.find(o.entry))) {
      std::string names;
      for (const FunctionInfo &g : program.functions())
        names += (names.empty() ? "" : ", ") + g.name;
      return fail("no function '" + o.entry + "' in " + o.program + " (it has " + names + ")");
    }
  } else if (program.functions().size() == 1) {
    f = &program.functions().front();
  } else {
    return fail(o.program + " has " + std::to_string(program.functions().size()) +
                " functions: choose one with --entry");
  }
  report.function = f->name;
  const VariantInfo &variant = o.fused ? f->fused : f->eager;
  // A library holds the versions kfuse-compile --variants chose.
  std::string version = o.fused ? "fused" : "eager";
  if (!variant.gpu && !variant.hostCode)
    return fail(o.program + " holds no code for the " + version + " version of " + f->name +
                " (" + variant.gpuError + "): compile it with kfuse-compile --variants=" +
                version + " or all");
  if (o.check && !isMlir && !f->eager.hostCode)
    return fail("--check runs the host eager version of " + f->name + ", which " + o.program +
                " does not hold: compile it with kfuse-compile --variants=all (or add "
                "host_eager)");

  // The device: CUDA needs GPU code for every kernel.
  std::string note;
  char why[512] = {0};
  std::string device = o.device;
  if (!variant.gpu) {
    if (device == "cuda")
      return fail("no GPU code for " + f->name + ": " + variant.gpuError);
    if (device == "auto")
      note = "no GPU code for this program (" + variant.gpuError + ")";
    device = "cpu";
  }
  if (kfuse_rt_init(device.c_str(), why, sizeof(why)) != 0)
    return fail(std::string("cannot use the device: ") + why);
  if (!kfuse_rt_is_cuda() && !variant.hostCode)
    return fail(o.program + " holds no host code for the " + version + " version of " +
                f->name + ", and the run is on the CPU: compile it with kfuse-compile "
                "--variants=host_" + version + " or all");
  if (note.empty() && !kfuse_rt_is_cuda() && device == "auto")
    note = why;
  report.device = kfuse_rt_device_description();
  report.deviceNote = note;
  if (!note.empty()) {
    progressClear();
    if (!o.quiet)
      std::fprintf(stderr, "kfuse-run: running on the CPU: %s\n", note.c_str());
  }
  report.peakGbps = kfuse_rt_peak_gbps();
  if (!o.cudaGraph.empty())
    kfuse_rt_set_cuda_graphs(o.cudaGraph.c_str());
  if (kfuse_rt_is_cuda()) {
    const char *env = std::getenv("KFUSE_CUDA_GRAPHS");
    report.graph.mode = !o.cudaGraph.empty() ? o.cudaGraph : env && *env ? env : "off";
  }
  std::string target = std::string(kfuse_rt_is_cuda() ? "gpu_" : "host_") +
                       (o.fused ? "fused" : "eager");

  // Inputs, on the device.
  std::vector<Tensor> inputs;
  Symbols symbols;
  if (!prepareInputs(o, *f, variant, inputs, symbols, error) ||
      !checkSizes(*f, symbols, error))
    return fail(error);
  std::vector<std::string> resultNames;
  for (size_t r = 0; r < f->results.size(); ++r)
    resultNames.push_back("result" + std::to_string(r));
  for (auto &[name, path] : o.outputs)
    if (std::find(resultNames.begin(), resultNames.end(), name) == resultNames.end())
      return fail("--output " + name + ": " + f->name + " has " +
                  std::to_string(f->results.size()) + " result(s), result0 ..");
  std::vector<DeviceTensor> args;
  for (const Tensor &t : inputs) {
    DeviceTensor d{t.dtype, t.shape};
    d.allocated = d.aligned = kfuse_rt_alloc(t.data.size());
    d.strides = rowMajorStrides(t.shape);
    kfuse_rt_copy_to_device(d.aligned, t.data.data(), t.data.size());
    args.push_back(d);
  }
  // The kernels this run launches: on the CPU, the host's own.
  bool cuda = kfuse_rt_is_cuda();
  report.eager = trafficOf(f->eager.launched(cuda), symbols);
  report.fused = trafficOf(f->fused.launched(cuda), symbols);

  // A CUDA graph a size set (GraphCache.h): the runtime compares the
  // launches themselves, buffers included, so the key need only tell the
  // size sets apart.
  std::string graphKey = f->name + "__" + target;
  for (const DeviceTensor &a : args)
    graphKey += " " + shapeString(a.shape);
  auto callOnce = [&](std::vector<Tensor> *keep) {
    std::vector<DeviceTensor> results;
    kfuse_rt_graph_begin(graphKey.c_str());
    bool called = program.call(*f, target, args, results, error);
    kfuse_rt_graph_end();
    if (!called)
      return false;
    kfuse_rt_synchronize();
    // Results may be views of an input or of each other (a value returned
    // twice, or with a reshape of it): each buffer is freed once.
    std::vector<void *> owned;
    for (size_t r = 0; r < results.size(); ++r) {
      if (keep) {
        keep->emplace_back();
        if (!toHost(results[r], keep->back(), error))
          return false;
      }
      bool isInput = false;
      for (const DeviceTensor &a : args)
        isInput |= a.allocated == results[r].allocated;
      if (!isInput && std::find(owned.begin(), owned.end(), results[r].allocated) == owned.end())
        owned.push_back(results[r].allocated);
    }
    for (void *buffer : owned)
      kfuse_rt_free(buffer);
    return true;
  };

  // The first call (module load, PTX JIT), then the steady state.
  kfuse_rt_set_profiling(1);
  kfuse_rt_reset_records();
  std::vector<kfuse_record> trace;
  std::vector<Tensor> results;
  progressStep("running: first call");
  auto start = std::chrono::steady_clock::now();
  if (!callOnce(&results))
    return fail(error);
  report.firstCallMs = millisSince(start);
  for (const kfuse_record &r : takeRecords()) {
    report.firstCallLaunches += r.kind == KFUSE_RECORD_LAUNCH;
    if (r.kind == KFUSE_RECORD_MODULE_LOAD)
      report.jitMs += r.duration_us / 1e3;
    trace.push_back(r);
  }
  // Each phase is shown at once, its counts at the next tick (Progress.h).
  for (int i = 0; i < o.warmup; ++i) {
    progressCount("running: warmup", i + 1, o.warmup);
    if (!callOnce(nullptr))
      return fail(error);
  }
  kfuse_rt_reset_records();
  report.repeat = o.repeat;
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < o.repeat; ++i) {
    progressCount("running: call", i + 1, o.repeat);
    if (!callOnce(nullptr))
      return fail(error);
  }
  progressClear();
  if (o.repeat > 0) {
    report.steadyCallMs = millisSince(start) / o.repeat;
    std::vector<kfuse_record> steady = takeRecords();
    for (const kfuse_record &r : steady)
      report.launchesPerCall += r.kind == KFUSE_RECORD_LAUNCH;
    report.launchesPerCall /= unsigned(o.repeat);
    report.kernels =
        kernelRows(steady, variant.launched(kfuse_rt_is_cuda()), symbols, report.peakGbps);
    std::vector<double> replays;
    for (const kfuse_record &r : steady)
      if (r.kind == KFUSE_RECORD_GRAPH_REPLAY && r.duration_us >= 0)
        replays.push_back(r.duration_us);
    report.graph.steadyReplays = unsigned(replays.size());
    if (!replays.empty()) {
      for (double us : replays)
        report.graph.replayMeanUs += us / double(replays.size());
      std::sort(replays.begin(), replays.end());
      size_t n = replays.size();
      report.graph.replayMedianUs =
          n % 2 ? replays[n / 2] : (replays[n / 2 - 1] + replays[n / 2]) / 2;
    }
    trace.insert(trace.end(), steady.begin(), steady.end());
  }
  kfuse_rt_allocator_stats(&report.driverAllocations, &report.cacheHits);
  kfuse_rt_graph_stats(&report.graph.stats);
  report.graph.note = kfuse_rt_graph_note();

  if (o.check) {
    // The float64 reference (Check.cpp): --reference's, or compiled from
    // the .mlir program; a library without one, and a program that has
    // none (hand-written kernels, calls, control flow), are compared with
    // the unfused run by allclose, the report saying why.
    std::string reference = o.reference, noReference;
    if (reference.empty() && isMlir && !compiled.reference(o, reference, noReference, error)) {
      if (noReference.empty())
        return fail(error);
      reference.clear();
    }
    // The unfused run needs the host eager version: a .mlir program's own
    // library holds only the version this run runs.
    std::string unfusedLibrary = library;
    if (!f->eager.hostCode && !compiled.unfused(o, unfusedLibrary, error))
      return fail(error);
    progressStep(reference.empty() ? "checking against the unfused program on the CPU"
                                   : "checking against the program in float64 on the CPU");
    report.check =
        checkResults(o, unfusedLibrary, reference, *f, inputs, results, noReference, error);
    progressClear();
    if (!error.empty())
      return fail(error);
  }
  // Every output together, or none (OutputFiles.h); a failed --check still
  // writes them: they are this run's results, and the report says it failed.
  std::vector<PendingOutput> pending;
  std::deque<std::string> headers;
  std::deque<std::vector<unsigned char>> widened;
  for (auto &[name, path] : o.outputs) {
    size_t r = std::stoul(name.substr(6));
    headers.emplace_back();
    widened.emplace_back();
    pending.push_back({path, npyPieces(results[r], headers.back(), widened.back())});
  }
  std::string traceText;
  if (!o.trace.empty()) {
    traceText = chromeTrace(trace);
    pending.push_back({o.trace, {traceText}});
  }
  if (!writeOutputs(pending, error))
    return fail(error);
  if (!o.quiet && o.format == "text" && isMlir)
    printCompileLine(report, loadMs);
  if (!o.quiet)
    (o.format == "json" ? printJson : printText)(report);
  removeTempDir();
  return report.check.passed ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  installExitHandlers();
  // What throws is checked where it can happen, naming the file or size;
  // this is the net under that (the message says what was thrown).
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    return fail("out of host memory");
  } catch (const std::exception &e) {
    return fail(std::string("internal error: ") + e.what());
  }
}
