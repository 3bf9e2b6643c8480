//===- Report.cpp - what kfuse-run prints ---------------------------------===//
#include "Report.h"

#include "Json.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

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

std::string jsonBytes(std::optional<int64_t> b) {
  return b ? std::to_string(*b) : "null";
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
  std::map<std::string, KernelRow> rows;
  for (const kfuse_record &r : records) {
    if (r.kind != KFUSE_RECORD_LAUNCH)
      continue;
    KernelRow &row = rows[r.name];
    row.name = r.name;
    ++row.calls;
    row.totalUs += std::max(0.0, r.duration_us);
  }
  std::vector<KernelRow> out;
  Symbols sizes = withComputedSizes(v, symbols);
  for (auto &[name, row] : rows) {
    for (const KernelInfo &k : v.kernels) {
      int64_t rd = 0, wr = 0, sum = 0;
      if (k.name == name && evaluate(k.bytesRead, sizes, rd) &&
          evaluate(k.bytesWritten, sizes, wr) && !__builtin_add_overflow(rd, wr, &sum))
        row.bytes = sum;
    }
    if (row.bytes && row.totalUs > 0)
      row.gbps = double(*row.bytes) * row.calls / (row.totalUs * 1e3);
    row.abovePeak = peakGbps > 0 && row.gbps > peakGbps;
    out.push_back(row);
  }
  std::sort(out.begin(), out.end(),
            [](const KernelRow &a, const KernelRow &b) { return a.totalUs > b.totalUs; });
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
    double total = 0;
    for (const KernelRow &k : r.kernels)
      total += k.totalUs;
    std::printf("  %-32s %6s %11s %10s %12s %9s %7s\n", "kernel", "calls", "total ms",
                "avg us", "bytes/call", "GB/s", "share");
    bool flagged = false;
    for (const KernelRow &k : r.kernels) {
      char rate[32];
      std::snprintf(rate, sizeof(rate), "%.1f%s", k.gbps, k.abovePeak ? "*" : "");
      std::string gbps = k.gbps > 0 ? rate : "?";
      flagged |= k.abovePeak;
      std::printf("  %-32s %6u %11.3f %10.2f %12s %9s %6.1f%%\n", k.name.c_str(), k.calls,
                  k.totalUs / 1e3, k.totalUs / k.calls, bytesText(k.bytes).c_str(),
                  gbps.c_str(), total > 0 ? 100.0 * k.totalUs / total : 0.0);
    }
    if (flagged)
      std::printf("  * above the device's peak of %.0f GB/s: a timing or byte-count "
                  "error, not a measurement\n", r.peakGbps);
    else if (r.peakGbps > 0)
      std::printf("  device peak: %.0f GB/s\n", r.peakGbps);
    else
      std::printf("  (no peak bandwidth known for this device)\n");
  }
  std::printf("allocator: %llu driver allocations, %llu served from the cache\n",
              (unsigned long long)r.driverAllocations, (unsigned long long)r.cacheHits);
  if (r.check.ran)
    std::printf("check against the CPU, unfused: max abs error %s, max rel error %s "
                "(%s): %s%s\n", number(r.check.maxAbs).c_str(), number(r.check.maxRel).c_str(),
                r.check.tolerance.c_str(), r.check.passed ? "ok" : "FAILED",
                r.check.detail.empty() ? "" : (": " + r.check.detail).c_str());
}

void printJson(const RunReport &r) {
  auto traffic = [](const Traffic &t) {
    return "{\"kernels\": " + std::to_string(t.kernels) + ", \"transfers\": " +
           std::to_string(t.transfers) + ", \"bytes\": " + jsonBytes(t.bytes) + "}";
  };
  std::string s = "{\n";
  s += "  \"program\": " + json::quote(r.program) + ",\n";
  s += "  \"function\": " + json::quote(r.function) + ",\n";
  s += "  \"fusion\": " + json::quote(r.fusion) + ",\n";
  s += "  \"device\": " + json::quote(r.device) + ",\n";
  s += "  \"device_note\": " + json::quote(r.deviceNote) + ",\n";
  s += "  \"eager\": " + traffic(r.eager) + ",\n";
  s += "  \"fused\": " + traffic(r.fused) + ",\n";
  s += "  \"compile_ms\": " + (r.compileMs >= 0 ? number(r.compileMs) : "null") + ",\n";
  s += "  \"first_call\": {\"ms\": " + number(r.firstCallMs) + ", \"launches\": " +
       std::to_string(r.firstCallLaunches) + ", \"jit_ms\": " + number(r.jitMs) + "},\n";
  s += "  \"steady\": {\"calls\": " + std::to_string(r.repeat) + ", \"ms_per_call\": " +
       number(r.steadyCallMs) + ", \"launches_per_call\": " +
       std::to_string(r.launchesPerCall) + "},\n";
  s += "  \"peak_gbps\": " + (r.peakGbps > 0 ? number(r.peakGbps) : "null") + ",\n";
  s += "  \"kernels\": [";
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelRow &k = r.kernels[i];
    s += std::string(i ? "," : "") + "\n    {\"name\": " + json::quote(k.name) +
         ", \"calls\": " + std::to_string(k.calls) + ", \"total_us\": " +
         number(k.totalUs) + ", \"avg_us\": " + number(k.calls ? k.totalUs / k.calls : 0) +
         ", \"bytes\": " + jsonBytes(k.bytes) + ", \"gbps\": " +
         (k.gbps > 0 ? number(k.gbps) : "null") +
         ", \"above_peak\": " + (k.abovePeak ? "true" : "false") + "}";
  }
  s += r.kernels.empty() ? "],\n" : "\n  ],\n";
  s += "  \"allocator\": {\"driver_allocations\": " + std::to_string(r.driverAllocations) +
       ", \"cache_hits\": " + std::to_string(r.cacheHits) + "},\n";
  if (r.check.ran)
    s += "  \"check\": {\"passed\": " + std::string(r.check.passed ? "true" : "false") +
         ", \"max_abs\": " + number(r.check.maxAbs) + ", \"max_rel\": " +
         number(r.check.maxRel) + ", \"tolerance\": " + json::quote(r.check.tolerance) +
         ", \"detail\": " + json::quote(r.check.detail) + "}\n";
  else
    s += "  \"check\": null\n";
  s += "}\n";
  std::fputs(s.c_str(), stdout);
}

std::string chromeTrace(const std::vector<kfuse_record> &records) {
  std::ostringstream os;
  os << "{\"traceEvents\": [";
  bool first = true;
  for (const kfuse_record &r : records) {
    if (r.start_us < 0 || r.duration_us < 0)
      continue;
    bool launch = r.kind == KFUSE_RECORD_LAUNCH;
    os << (first ? "\n" : ",\n") << "  {\"name\": " << json::quote(r.name)
       << ", \"cat\": \"" << (launch ? "kernel" : "memory") << "\", \"ph\": \"X\", "
       << "\"ts\": " << number(r.start_us) << ", \"dur\": " << number(r.duration_us)
       << ", \"pid\": 1, \"tid\": " << (launch ? 1 : 2) << ", \"args\": {";
    if (launch)
      os << "\"grid\": [" << r.grid[0] << ", " << r.grid[1] << ", " << r.grid[2]
         << "], \"block\": [" << r.block[0] << ", " << r.block[1] << ", " << r.block[2]
         << "]";
    else
      os << "\"bytes\": " << r.bytes;
    os << "}}";
    first = false;
  }
  os << "\n],\n\"displayTimeUnit\": \"ms\"}\n";
  return os.str();
}

} // namespace kfuse::run
