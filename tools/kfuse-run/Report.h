//===- Report.h - what kfuse-run prints -------------------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_REPORT_H
#define KFUSE_TOOLS_KFUSE_RUN_REPORT_H

#include "Program.h"
#include "kfuse/runtime.h"

#include <optional>
#include <string>
#include <vector>

namespace kfuse::run {

/// Kernels, transfers and bytes of one variant (bytes absent when a size
/// symbol has no value).
struct Traffic {
  unsigned kernels = 0, transfers = 0;
  std::optional<int64_t> bytes;
};
Traffic trafficOf(const VariantInfo &v, const Symbols &symbols);

/// One row of the profiler table: a kernel's steady-state launches, each
/// timed on its own (one runtime record a launch).
struct KernelRow {
  std::string name;
  std::string variant;           // of its GPU mapping; empty: none
  unsigned calls = 0;
  double totalUs = 0, minUs = 0, medianUs = 0, maxUs = 0;
  double share = 0;              // of all kernels' time, 0 to 1
  bool timed = true;             // false: launched inside CUDA graphs only
  std::optional<int64_t> bytes;  // per call, from the manifest
  std::optional<int64_t> flops;  // per call, from the manifest; absent: none
  double gbps = 0;               // 0 when bytes or times are unknown
  double gflops = 0;             // 1e9 FLOP/s; 0 when there are no FLOPs
  bool abovePeak = false;
};

/// --check (Check.cpp).
struct CheckResult {
  bool ran = false, passed = true;
  /// What the run is compared with: "float64" (the reference library: its
  /// values and error bounds) or "unfused" (no reference: the unfused CPU
  /// run, by allclose).
  std::string reference;
  double maxAbs = 0, maxRel = 0; // the run's largest errors against it
  /// float64: the run's largest error over what is allowed (at most 1
  /// passes), the unfused CPU run's over 8x the reference's error scale
  /// and its largest error; elements with no finite scale (a pole, an
  /// overflow, a flip) that no measure allowed.
  double boundUse = 0, unfusedBoundUse = 0, unfusedMaxAbs = 0;
  uint64_t unchecked = 0;
  std::string tolerance, detail;
  /// Why there is no float64 reference, when the check is "unfused": "a
  /// library without --reference", or kfuse-compile's reason.
  std::string noReference;
};

/// CUDA graphs (--cuda-graph): the runtime's counts over the whole run and
/// the steady state's replays, each timed as a whole (a graph's kernels
/// cannot be timed one by one).
struct GraphReport {
  std::string mode;          // on, off or auto, as asked
  kfuse_graph_stats stats{}; // whole run
  unsigned steadyReplays = 0;          // graph launches in the steady state
  double replayMedianUs = 0, replayMeanUs = 0;
  std::string note;          // why graphs went off, when they did
};

struct RunReport {
  std::string program, function, device, deviceNote, fusion;
  Traffic eager, fused;
  double compileMs = -1, firstCallMs = 0, jitMs = 0;
  unsigned firstCallLaunches = 0;
  int repeat = 0;
  double steadyCallMs = 0;
  unsigned launchesPerCall = 0;
  std::vector<KernelRow> kernels;
  double peakGbps = 0;
  uint64_t driverAllocations = 0, cacheHits = 0;
  std::string cacheStatus; // compile cache: "hit", "miss", "off" or empty
  std::string cacheDetail; // why, in words
  CheckResult check;
  GraphReport graph;
};

/// Profiler rows from the steady state's launch records, by total time,
/// longest first (torch.profiler's key_averages().table(sort_by=...)).
std::vector<KernelRow> kernelRows(const std::vector<kfuse_record> &records,
                                  const VariantInfo &v, const Symbols &symbols,
                                  double peakGbps);

void printText(const RunReport &r);
/// The report as one JSON document (docs/reference/json-outputs.md;
/// schema docs/reference/schemas/kfuse-run-report.schema.json).
void printJson(const RunReport &r);
/// A Chrome trace (chrome://tracing, Perfetto) of `records`, times in µs
/// at full precision (schema kfuse-run-trace.schema.json).
std::string chromeTrace(const std::vector<kfuse_record> &records);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_REPORT_H
