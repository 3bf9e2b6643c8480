//===- GraphCache.cpp - recording, capturing and replaying calls ----------===//
#include "GraphCache.h"

#include "Runtime.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace kfuse::rt {

bool ptxParamSizes(const char *ptx, const std::string &name, std::vector<uint16_t> &sizes) {
  // ".entry NAME(" then ".param [.align N] .TYPE [.ptr .global .align N] ident[\[K\]]"
  // separated by commas up to ')'. The driver knows these sizes too
  // (cuFuncGetParamInfo, CUDA 12.4+); reading them from the PTX the
  // runtime already holds works with any driver.
  sizes.clear();
  std::string needle = ".entry " + name;
  const char *p = ptx;
  while ((p = std::strstr(p, needle.c_str()))) {
    const char *after = p + needle.size();
    while (*after == ' ' || *after == '\t' || *after == '\n')
      ++after;
    if (*after == '(') {
      p = after + 1;
      break;
    }
    p = after;
  }
  if (!p)
    return false;
  const char *end = std::strchr(p, ')');
  if (!end)
    return false;
  std::string list(p, end);
  size_t at = 0;
  while ((at = list.find(".param", at)) != std::string::npos) {
    size_t stop = list.find(',', at);
    std::string decl = list.substr(at + 6, stop == std::string::npos ? std::string::npos
                                                                      : stop - at - 6);
    at = stop == std::string::npos ? list.size() : stop + 1;
    unsigned size = 0, count = 1;
    std::vector<std::string> words;
    for (size_t i = 0; i < decl.size();) {
      while (i < decl.size() && std::isspace(static_cast<unsigned char>(decl[i])))
        ++i;
      size_t j = i;
      while (j < decl.size() && !std::isspace(static_cast<unsigned char>(decl[j])))
        ++j;
      if (j > i)
        words.push_back(decl.substr(i, j - i));
      i = j;
    }
    for (const std::string &w : words) {
      if (w.size() < 3 || w[0] != '.') {
        // The name; "name[16]" is an array of the type.
        size_t bracket = w.find('[');
        if (bracket != std::string::npos)
          count = unsigned(std::strtoul(w.c_str() + bracket + 1, nullptr, 10));
        continue;
      }
      char kind = w[1];
      if (size == 0 && std::strchr("usbf", kind) && std::isdigit(static_cast<unsigned char>(w[2])))
        size = unsigned(std::strtoul(w.c_str() + 2, nullptr, 10)) / 8;
      else if (size == 0 && w == ".bf16")
        size = 2;
    }
    if (size == 0 || count == 0 || size * count > 4096)
      return false;
    sizes.push_back(uint16_t(size * count));
  }
  return true;
}

bool GraphRecord::operator==(const GraphRecord &o) const {
  if (ops.size() != o.ops.size() || values != o.values || params != o.params)
    return false;
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op &a = ops[i], &b = o.ops[i];
    if (a.kind != b.kind || a.smem != b.smem || a.function != b.function ||
        std::memcmp(a.grid, b.grid, sizeof(a.grid)) ||
        std::memcmp(a.block, b.block, sizeof(a.block)) || a.dst != b.dst || a.src != b.src ||
        a.count != b.count || a.paramBegin != b.paramBegin || a.paramCount != b.paramCount)
      return false;
  }
  return true;
}

bool GraphCache::setMode(const std::string &word) {
  if (word == "on")
    mode = Mode::On;
  else if (word == "off")
    mode = Mode::Off;
  else if (word == "auto")
    mode = Mode::Auto;
  else
    return false;
  return true;
}

bool GraphCache::active() {
  if (mode == Mode::Off || !rt.cuda || !note.empty())
    return false;
  if (rt.driver.hasGraphs)
    return true;
  // `on` asked for graphs: say once why there are none; `auto` is silent.
  if (mode == Mode::On && !warnedMissing) {
    warnedMissing = true;
    std::fprintf(stderr,
                 "kfuse runtime: warning: CUDA graphs are off: %s; the launches run one "
                 "by one\n",
                 rt.driver.graphsWhy.c_str());
  }
  return false;
}

void GraphCache::begin(const char *key) {
  if (current)
    rt.fail("kfuse_rt_graph_begin inside another graph call (" + current->key + ")");
  if (!active())
    return;
  // A long-running process with ever new sizes keeps a bounded cache.
  if (entries.size() >= 256 && !entries.count(key)) {
    for (auto &[k, e] : entries)
      if (e.exec)
        rt.driver.cuGraphExecDestroy(e.exec);
    entries.clear();
  }
  Entry &e = entries[key];
  if (e.key.empty()) {
    e.key = key;
    // Records keep the name's pointer: it lives as long as the runtime.
    rt.names.push_back("cuda graph (" + e.key + ")");
    e.name = rt.names.back().c_str();
  }
  current = &e;
  // The first call of a key warms the JIT and the allocator's cache.
  deferring = e.calls > 0 && !e.noCapture;
  if (!deferring)
    ++uncaptured;
  scratch.clear();
}

bool GraphCache::recordLaunch(Function *f, const int64_t grid[3], const int64_t block[3],
                              unsigned smem, void **params, size_t paramCount) {
  if (f->paramState == 0) {
    bool ok = f->module->image &&
              ptxParamSizes(static_cast<const char *>(f->module->image), f->symbol,
                            f->paramSizes);
    f->paramState = ok ? 1 : -1;
  }
  // MLIR passes the count it packed; a kernel whose .entry says otherwise
  // (or cannot be read) is never captured: its bytes could not be compared.
  if (f->paramState < 0 || f->paramSizes.size() != paramCount) {
    flush(true, "kernel parameters unknown");
    return false;
  }
  GraphRecord::Op op{GraphRecord::Op::Launch};
  op.function = f;
  op.smem = smem;
  for (int d = 0; d < 3; ++d) {
    op.grid[d] = uint32_t(grid[d]);
    op.block[d] = uint32_t(block[d]);
  }
  op.paramBegin = uint32_t(scratch.params.size());
  op.paramCount = uint32_t(paramCount);
  for (size_t i = 0; i < paramCount; ++i) {
    size_t at = (scratch.values.size() + 7) / 8 * 8;
    // Zeroed padding: records are compared byte for byte.
    scratch.values.resize(at + f->paramSizes[i], 0);
    std::memcpy(scratch.values.data() + at, params[i], f->paramSizes[i]);
    scratch.params.push_back(uint32_t(at));
  }
  scratch.ops.push_back(op);
  return true;
}

void GraphCache::recordMemset(GraphRecord::Op::Kind kind, uint64_t dst, uint64_t value,
                              uint64_t count) {
  GraphRecord::Op op{kind};
  op.dst = dst;
  op.src = value;
  op.count = count;
  scratch.ops.push_back(op);
}

void GraphCache::recordCopy(uint64_t dst, uint64_t src, uint64_t bytes) {
  GraphRecord::Op op{GraphRecord::Op::Copy};
  op.dst = dst;
  op.src = src;
  op.count = bytes;
  scratch.ops.push_back(op);
}

CUresult GraphCache::issue(const GraphRecord &r, const char **failedCall) {
  CudaDriver &d = rt.driver;
  for (const GraphRecord::Op &op : r.ops) {
    CUresult result = CUDA_SUCCESS;
    switch (op.kind) {
    case GraphRecord::Op::Launch:
      pointers.resize(op.paramCount);
      for (uint32_t i = 0; i < op.paramCount; ++i)
        pointers[i] = const_cast<unsigned char *>(r.values.data()) + r.params[op.paramBegin + i];
      *failedCall = "cuLaunchKernel";
      result = d.cuLaunchKernel(op.function->cu, op.grid[0], op.grid[1], op.grid[2],
                                op.block[0], op.block[1], op.block[2], op.smem, rt.stream,
                                pointers.data(), nullptr);
      break;
    case GraphRecord::Op::Memset32:
      *failedCall = "cuMemsetD32Async";
      result = d.cuMemsetD32Async(op.dst, unsigned(op.src), op.count, rt.stream);
      break;
    case GraphRecord::Op::Memset16:
      *failedCall = "cuMemsetD16Async";
      result = d.cuMemsetD16Async(op.dst, static_cast<unsigned short>(op.src), op.count,
                                  rt.stream);
      break;
    case GraphRecord::Op::Copy:
      *failedCall = "cuMemcpyAsync";
      result = d.cuMemcpyAsync(op.dst, op.src, op.count, rt.stream);
      break;
    }
    if (result != CUDA_SUCCESS)
      return result;
  }
  return CUDA_SUCCESS;
}

void GraphCache::flush(bool keyCannotCapture, const char *why) {
  if (!recording())
    return;
  (void)why;
  deferring = false;
  ++uncaptured;
  if (keyCannotCapture)
    current->noCapture = true;
  const char *call = "";
  if (CUresult r = issue(scratch, &call))
    rt.check(r, call, "a call of " + current->key + " (issued without a graph)");
  scratch.clear();
}

void GraphCache::fallBack(const std::string &what, CUresult result) {
  // Once: every later call runs its launches one by one (active() is false).
  ++uncaptured;
  note = what + " failed: " + rt.driver.describe(result);
  std::fprintf(stderr,
               "kfuse runtime: warning: CUDA graph of %s: %s; the launches run one by one "
               "from now on\n",
               current->key.c_str(), note.c_str());
  const char *call = "";
  if (CUresult r = issue(scratch, &call))
    rt.check(r, call, "a call of " + current->key + " (issued without a graph)");
}

void GraphCache::capture(Entry &e) {
  CudaDriver &d = rt.driver;
  CUresult r = d.cuStreamBeginCapture(rt.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
  if (r != CUDA_SUCCESS)
    return fallBack("cuStreamBeginCapture", r);
  const char *call = "";
  CUresult issued = issue(scratch, &call);
  // The capture is ended whatever happened inside it: the stream must
  // leave capture mode before the fallback issues the calls on it.
  CUgraph graph = nullptr;
  r = d.cuStreamEndCapture(rt.stream, &graph);
  if (issued != CUDA_SUCCESS || r != CUDA_SUCCESS) {
    if (graph)
      d.cuGraphDestroy(graph);
    return issued != CUDA_SUCCESS ? fallBack(std::string(call) + " during capture", issued)
                                  : fallBack("cuStreamEndCapture", r);
  }
  ++captures;
  bool updated = false;
  if (e.exec) {
    CUgraphExecUpdateResultInfo info{};
    updated = d.cuGraphExecUpdate(e.exec, graph, &info) == CUDA_SUCCESS;
    if (updated) {
      ++updates;
    } else {
      d.cuGraphExecDestroy(e.exec);
      e.exec = nullptr;
    }
  }
  if (!updated) {
    r = d.cuGraphInstantiateWithFlags(&e.exec, graph, 0);
    if (r != CUDA_SUCCESS) {
      e.exec = nullptr;
      d.cuGraphDestroy(graph);
      return fallBack("cuGraphInstantiateWithFlags", r);
    }
  }
  // The executable graph is independent of the graph it came from.
  d.cuGraphDestroy(graph);
  std::swap(e.record, scratch);
  rt.launchGraph(e.exec, e.name);
}

void GraphCache::end() {
  Entry *e = current;
  if (!e)
    return;
  ++e->calls;
  if (deferring) {
    deferring = false;
    if (e->exec && scratch == e->record) {
      ++replays;
      rt.launchGraph(e->exec, e->name);
    } else {
      capture(*e);
    }
  }
  current = nullptr;
  scratch.clear();
}

} // namespace kfuse::rt
