//===- Report.cpp - what kfuse-run prints ---------------------------------===//
#include "Report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kfuse::run {

namespace {
std::string bytesText(std::optional<int64_t> bytes) {
  if (!bytes)
    return "?";
  char buf[32];
  double b = double(*bytes);
  if (b >= 1e9)
    std::snprintf(buf, sizeof(buf), "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(buf, sizeof(buf), "%.2f MB", b / 1e6);
  else if (b >= 1e3)
    std::snprintf(buf, sizeof(buf), "%.2f kB", b / 1e3);
  else
    std::snprintf(buf, sizeof(buf), "%lld B", (long long)*bytes);
  return buf;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

/// The version of kfuse-run's JSON documents (the report and the trace):
/// raised when a field changes meaning or goes away, not when one is added.
constexpr int kSchemaVersion = 1;

/// Members in the order written, so that the report reads top to bottom.
using Json = nlohmann::ordered_json;

/// A number, or null: a count the manifest could not give, a rate with no
/// time. (nlohmann writes a non-finite double as null too.)
template <typename T> Json orNull(const std::optional<T> &v) {
  return v ? Json(*v) : Json(nullptr);
}
Json positiveOrNull(double v) { return v > 0 ? Json(v) : Json(nullptr); }
Json textOrNull(const std::string &s) { return s.empty() ? Json(nullptr) : Json(s); }

/// The median of `v` (sorted here); the mean of the middle two for an
/// even count, as numpy.median.
double median(std::vector<double> &v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// "812.34 us", "12.345 ms" or "1.234 s": a duration in the table.
std::string durationText(double us) {
  char buf[32];
  if (us >= 1e6)
    std::snprintf(buf, sizeof(buf), "%.3f s", us / 1e6);
  else if (us >= 1e3)
    std::snprintf(buf, sizeof(buf), "%.3f ms", us / 1e3);
  else
    std::snprintf(buf, sizeof(buf), "%.2f us", us);
  return buf;
}
} // namespace

Traffic trafficOf(const VariantInfo &v, const Symbols &arguments) {
  Symbols symbols = withComputedSizes(v, arguments);
  Traffic t;
  t.kernels = unsigned(v.kernels.size());
  int64_t total = 0;
  bool known = true;
  for (const KernelInfo &k : v.kernels) {
    t.transfers += k.reads + k.writes;
    int64_t r = 0, w = 0;
    known = known && evaluate(k.bytesRead, symbols, r) && evaluate(k.bytesWritten, symbols, w) &&
            !__builtin_add_overflow(total, r, &total) &&
            !__builtin_add_overflow(total, w, &total);
  }
  if (known)
    t.bytes = total;
  return t;
}

std::vector<KernelRow> kernelRows(const std::vector<kfuse_record> &records,
                                  const VariantInfo &v, const Symbols &symbols,
                                  double peakGbps) {
  std::map<std::string, std::vector<double>> times; // by kernel, one a timed launch
  std::map<std::string, unsigned> launches;         // every launch, timed or not
  for (const kfuse_record &r : records)
    if (r.kind == KFUSE_RECORD_LAUNCH) {
      ++launches[r.name];
      // Launches inside a CUDA graph have no time of their own (-1).
      if (r.duration_us >= 0 || r.start_us >= 0)
        times[r.name].push_back(std::max(0.0, r.duration_us));
      else
        times[r.name];
    }
  double allUs = 0;
  for (auto &[name, t] : times)
    for (double us : t)
      allUs += us;
  std::vector<KernelRow> out;
  Symbols sizes = withComputedSizes(v, symbols);
  for (auto &[name, t] : times) {
    KernelRow row;
    row.name = name;
    row.calls = launches[name];
    row.timed = !t.empty();
    for (double us : t)
      row.totalUs += us;
    if (row.timed) {
      row.medianUs = median(t); // sorts t
      row.minUs = t.front();
      row.maxUs = t.back();
    }
    row.share = allUs > 0 ? row.totalUs / allUs : 0;
    for (const KernelInfo &k : v.kernels) {
      if (k.name != name)
        continue;
      row.variant = k.variant;
      int64_t rd = 0, wr = 0, sum = 0, flops = 0;
      if (evaluate(k.bytesRead, sizes, rd) && evaluate(k.bytesWritten, sizes, wr) &&
          !__builtin_add_overflow(rd, wr, &sum))
        row.bytes = sum;
      // A manifest from before FLOPs were counted has none: no rate.
      if (!k.flops.empty() && evaluate(k.flops, sizes, flops) && flops > 0)
        row.flops = flops;
    }
    if (row.bytes && row.totalUs > 0)
      row.gbps = double(*row.bytes) * t.size() / (row.totalUs * 1e3);
    if (row.flops && row.totalUs > 0)
      row.gflops = double(*row.flops) * t.size() / (row.totalUs * 1e3);
    row.abovePeak = peakGbps > 0 && row.gbps > peakGbps;
    out.push_back(row);
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelRow &a, const KernelRow &b) {
    return a.totalUs > b.totalUs;
  });
  return out;
}

void printText(const RunReport &r) {
  std::printf("kfuse-run: %s, function %s, fusion %s\n", r.program.c_str(),
              r.function.c_str(), r.fusion.c_str());
  std::printf("device: %s\n", r.device.c_str());
  std::printf("kernel summary         %14s %14s\n", "eager", "fused");
  std::printf("  kernels              %14u %14u\n", r.eager.kernels, r.fused.kernels);
  std::printf("  transfers            %14u %14u\n", r.eager.transfers, r.fused.transfers);
  std::printf("  bytes                %14s %14s\n", bytesText(r.eager.bytes).c_str(),
              bytesText(r.fused.bytes).c_str());
  std::printf("first call: %.3f ms, %u launch%s", r.firstCallMs, r.firstCallLaunches,
              r.firstCallLaunches == 1 ? "" : "es");
  if (r.jitMs > 0)
    std::printf(", of which PTX JIT %.3f ms", r.jitMs);
  if (r.compileMs >= 0)
    std::printf(" (compiling the program took %.0f ms before it)", r.compileMs);
  std::printf("\n");
  if (r.repeat > 0) {
    std::printf("steady state: %d calls, %.3f ms a call, %u launch%s a call\n", r.repeat,
                r.steadyCallMs, r.launchesPerCall, r.launchesPerCall == 1 ? "" : "es");
    // torch.profiler's table: a row a kernel, longest total first.
    std::printf("  %-32s %5s %9s %10s %10s %10s %10s %9s %9s %6s\n", "kernel", "calls",
                "total ms", "min", "median", "max", "bytes/call", "GB/s", "GFLOP/s",
                "share");
    bool flagged = false;
    for (const KernelRow &k : r.kernels) {
      char rate[32], flops[32];
      std::snprintf(rate, sizeof(rate), "%.1f%s", k.gbps, k.abovePeak ? "*" : "");
      std::snprintf(flops, sizeof(flops), "%.1f", k.gflops);
      flagged |= k.abovePeak;
      auto time = [&](double us) { return k.timed ? durationText(us) : std::string("-"); };
      // The variant its mapping runs, where it has one: matmul_0 (tensor_core).
      std::string name = k.variant.empty() ? k.name : k.name + " (" + k.variant + ")";
      std::printf("  %-32s %5u %9.3f %10s %10s %10s %10s %9s %9s %5.1f%%\n", name.c_str(),
                  k.calls, k.totalUs / 1e3, time(k.minUs).c_str(),
                  time(k.medianUs).c_str(), time(k.maxUs).c_str(),
                  bytesText(k.bytes).c_str(), k.gbps > 0 ? rate : "?",
                  k.gflops > 0 ? flops : "-", 100.0 * k.share);
    }
    if (flagged)
      std::printf("  * above the device's peak of %.0f GB/s: a timing or byte-count "
                  "error, not a measurement\n", r.peakGbps);
    else if (r.peakGbps > 0)
      std::printf("  device peak: %.0f GB/s\n", r.peakGbps);
    else
      std::printf("  (no peak bandwidth known for this device)\n");
  }
  const GraphReport &g = r.graph;
  if (!g.mode.empty() && g.mode != "off") {
    std::printf("cuda graph: %s; %llu captured (%llu updated in place), %llu calls replayed, "
                "%llu calls launch by launch\n",
                g.mode.c_str(), (unsigned long long)g.stats.captures,
                (unsigned long long)g.stats.updates, (unsigned long long)g.stats.replays,
                (unsigned long long)g.stats.uncaptured);
    if (g.steadyReplays > 0)
      std::printf("  steady state: graph launch %s a call (median; mean %s) over %u calls; "
                  "kernels inside a graph are not timed one by one (\"-\")\n",
                  durationText(g.replayMedianUs).c_str(), durationText(g.replayMeanUs).c_str(),
                  g.steadyReplays);
    if (!g.note.empty())
      std::printf("  graphs went off: %s\n", g.note.c_str());
  }
  std::printf("allocator: %llu driver allocations, %llu served from the cache\n",
              (unsigned long long)r.driverAllocations, (unsigned long long)r.cacheHits);
  const CheckResult &c = r.check;
  std::string verdict = std::string(c.passed ? "ok" : "FAILED") +
                        (c.detail.empty() ? "" : ": " + c.detail);
  if (c.ran && c.reference == "float64") {
    // The reference runs on the CPU, unfused, in float64 (Check.cpp).
    std::string unchecked;
    if (c.unchecked)
      unchecked = "; " + std::to_string(c.unchecked) + " element" +
                  (c.unchecked == 1 ? "" : "s") + " unchecked (no finite bound: a pole, "
                  "an overflow or a comparison that may flip)";
    std::printf("check against the CPU, unfused: in float64, max abs error %s, max rel "
                "error %s; %s%% of the error allowed (%s; the unfused run: %s%% of the "
                "scale's)%s: %s\n",
                number(c.maxAbs).c_str(), number(c.maxRel).c_str(),
                number(100 * c.boundUse).c_str(), c.tolerance.c_str(),
                number(100 * c.unfusedBoundUse).c_str(), unchecked.c_str(), verdict.c_str());
  } else if (c.ran) {
    std::printf("check against the CPU, unfused: max abs error %s, max rel error %s "
                "(%s): %s\n", number(c.maxAbs).c_str(), number(c.maxRel).c_str(),
                c.tolerance.c_str(), verdict.c_str());
  }
}

void printJson(const RunReport &r) {
  auto traffic = [](const Traffic &t) {
    return Json{{"kernels", t.kernels}, {"transfers", t.transfers}, {"bytes", orNull(t.bytes)}};
  };
  Json kernels = Json::array();
  for (const KernelRow &k : r.kernels)
    kernels.push_back(Json{{"name", k.name},
                           {"variant", textOrNull(k.variant)},
                           {"calls", k.calls},
                           {"total_us", k.totalUs},
                           {"avg_us", k.calls ? k.totalUs / k.calls : 0.0},
                           {"min_us", k.minUs},
                           {"median_us", k.medianUs},
                           {"max_us", k.maxUs},
                           {"share", k.share},
                           {"bytes", orNull(k.bytes)},
                           {"gbps", positiveOrNull(k.gbps)},
                           {"flops", orNull(k.flops)},
                           {"gflops", positiveOrNull(k.gflops)},
                           {"above_peak", k.abovePeak}});
  Json check = nullptr;
  if (r.check.ran)
    check = Json{{"passed", r.check.passed},
                 {"max_abs", r.check.maxAbs},
                 {"max_rel", r.check.maxRel},
                 {"tolerance", r.check.tolerance},
                 {"detail", r.check.detail},
                 {"reference", r.check.reference}};
  if (r.check.ran && r.check.reference == "unfused")
    check["no_reference"] = textOrNull(r.check.noReference);
  if (r.check.ran && r.check.reference == "float64") {
    check["bound_use"] = r.check.boundUse;
    check["unfused_bound_use"] = r.check.unfusedBoundUse;
    check["unfused_max_abs"] = r.check.unfusedMaxAbs;
    check["unchecked_elements"] = r.check.unchecked;
  }
  Json doc = {
      {"schema_version", kSchemaVersion},
      {"program", r.program},
      {"function", r.function},
      {"fusion", r.fusion},
      {"device", r.device},
      {"device_note", r.deviceNote},
      {"eager", traffic(r.eager)},
      {"fused", traffic(r.fused)},
      {"compile_ms", r.compileMs >= 0 ? Json(r.compileMs) : Json(nullptr)},
      {"cache", {{"status", textOrNull(r.cacheStatus)}, {"detail", textOrNull(r.cacheDetail)}}},
      {"first_call", {{"ms", r.firstCallMs}, {"launches", r.firstCallLaunches}, {"jit_ms", r.jitMs}}},
      {"steady",
       {{"calls", r.repeat}, {"ms_per_call", r.steadyCallMs}, {"launches_per_call", r.launchesPerCall}}},
      {"peak_gbps", positiveOrNull(r.peakGbps)},
      {"kernels", std::move(kernels)},
      {"allocator", {{"driver_allocations", r.driverAllocations}, {"cache_hits", r.cacheHits}}},
      {"check", std::move(check)}};
  if (!r.graph.mode.empty())
    doc["cuda_graph"] = Json{{"mode", r.graph.mode},
                             {"captures", r.graph.stats.captures},
                             {"updates", r.graph.stats.updates},
                             {"replays", r.graph.stats.replays},
                             {"uncaptured_calls", r.graph.stats.uncaptured},
                             {"steady_graph_launches", r.graph.steadyReplays},
                             {"replay_median_us", r.graph.replayMedianUs},
                             {"replay_mean_us", r.graph.replayMeanUs},
                             {"note", r.graph.note}};
  // Invalid UTF-8 (a program path) is replaced, not thrown on.
  std::string text = doc.dump(2, ' ', false, Json::error_handler_t::replace);
  std::fputs((text + "\n").c_str(), stdout);
}

std::string chromeTrace(const std::vector<kfuse_record> &records) {
  // One event a line, each written by nlohmann: the file stays
  // line-oriented for grep and diff.
  std::string events;
  for (const kfuse_record &r : records) {
    if (r.start_us < 0 || r.duration_us < 0)
      continue;
    bool launch = r.kind == KFUSE_RECORD_LAUNCH || r.kind == KFUSE_RECORD_GRAPH_REPLAY;
    Json args = launch ? Json{{"grid", {r.grid[0], r.grid[1], r.grid[2]}},
                              {"block", {r.block[0], r.block[1], r.block[2]}}}
                       : Json{{"bytes", r.bytes}};
    Json event = {{"name", r.name},
                  {"cat", launch ? "kernel" : "memory"},
                  {"ph", "X"},
                  {"ts", r.start_us},
                  {"dur", r.duration_us},
                  {"pid", 1},
                  {"tid", launch ? 1 : 2},
                  {"args", std::move(args)}};
    events += (events.empty() ? "\n  " : ",\n  ") +
              event.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  // Chrome and Perfetto ignore otherData's members; it carries the version.
  Json other = {{"schema_version", kSchemaVersion}, {"producer", "kfuse-run"}};
  return "{\"traceEvents\": [" + events + "\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": " +
         other.dump() + "}\n";
}

} // namespace kfuse::run
