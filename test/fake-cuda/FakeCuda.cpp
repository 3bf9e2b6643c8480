//===- FakeCuda.cpp - a CUDA driver that records calls and runs nothing ---===//
//
// For tests without a GPU: the runtime opens this library instead of
// libcuda.so.1 (KFUSE_CUDA_DRIVER). It implements the driver calls the
// runtime uses; memory is host memory (so copies work), kernels are not
// executed. Every call is appended to the file in KFUSE_FAKE_CUDA_LOG, and
// launches are logged with their arguments decoded by the .param types of
// the loaded PTX, buffers named buf0, buf1, ... in allocation order, so a
// test can check that the runtime packs what the kernel expects.
//
// Knobs: KFUSE_FAKE_CUDA_FAIL=call:N:code makes the N-th call of `call`
// return `code`; KFUSE_FAKE_CUDA_CRASH=call:SIG raises signal SIG in its
// first call; KFUSE_FAKE_CUDA_DEVICES=0 hides the device;
// KFUSE_FAKE_CUDA_VERSION=12000 sets the driver version, and PTX newer
// than that driver accepts is refused as the real driver refuses it;
// KFUSE_FAKE_CUDA_MEMORY=BYTES sets the device memory (cuMemAlloc beyond
// what is not allocated fails with CUDA_ERROR_OUT_OF_MEMORY).
//
// CUDA graphs: between cuStreamBeginCapture_v2 and cuStreamEndCapture,
// launches, memsets and copies are recorded into a graph (logged with
// "(captured)"), not run; a call the real driver refuses while capturing
// (cuMemAlloc, cuMemFree, cuStreamSynchronize, cuModuleLoadDataEx,
// cuEventRecord) fails with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and
// invalidates the capture, as the real one does. cuGraphLaunch "runs" the
// recorded calls as the driver does without a graph: each launch is logged
// with its arguments as captured, prefixed "graph execN: ", and copies
// copy. KFUSE_FAKE_CUDA_FAIL works for the graph calls too
// (cuStreamBeginCapture, cuStreamEndCapture, cuGraphInstantiateWithFlags,
// cuGraphExecUpdate, cuGraphLaunch); built with KFUSE_FAKE_NO_GRAPHS
// (libkfuse_fake_cuda_nographs.so) it exports none of them, as a driver
// older than CUDA graphs.
//
//===----------------------------------------------------------------------===//
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace {

using CUresult = int;

void log(const char *format, ...) {
  const char *path = std::getenv("KFUSE_FAKE_CUDA_LOG");
  if (!path)
    return;
  FILE *f = std::fopen(path, "a");
  if (!f)
    return;
  va_list args;
  va_start(args, format);
  std::vfprintf(f, format, args);
  va_end(args);
  std::fputc('\n', f);
  std::fclose(f);
}

/// KFUSE_FAKE_CUDA_CRASH=call:SIG raises signal SIG in the first `call`
/// (a driver that crashes inside the process, as a broken one may).
void crashIfAsked(const char *call) {
  const char *spec = std::getenv("KFUSE_FAKE_CUDA_CRASH");
  if (!spec)
    return;
  std::string s = spec;
  size_t colon = s.find(':');
  if (colon != std::string::npos && s.substr(0, colon) == call)
    std::raise(std::atoi(s.c_str() + colon + 1));
}

/// The injected failure for this call, or 0.
CUresult injected(const char *call) {
  crashIfAsked(call);
  static std::map<std::string, int> counts;
  int n = ++counts[call];
  const char *spec = std::getenv("KFUSE_FAKE_CUDA_FAIL");
  if (!spec)
    return 0;
  std::string s = spec;
  size_t a = s.find(':'), b = s.find(':', a + 1);
  if (a == std::string::npos || b == std::string::npos || s.substr(0, a) != call ||
      std::atoi(s.substr(a + 1, b - a - 1).c_str()) != n)
    return 0;
  return std::atoi(s.substr(b + 1).c_str());
}

int driverVersion() {
  const char *v = std::getenv("KFUSE_FAKE_CUDA_VERSION");
  return v ? std::atoi(v) : 13000;
}

struct Param {
  std::string type; // u64, u32, f32, f64, b8, ...
};
struct Kernel {
  std::string name;
  std::vector<Param> params;
  // The dynamic shared memory a launch may take: 48 KiB unless opted in
  // (cuFuncSetAttribute), as on a real device.
  int sharedLimit = 48 * 1024;
};
struct Module {
  std::map<std::string, Kernel> kernels;
};
std::vector<std::pair<uintptr_t, size_t>> buffers; // allocation order
std::vector<bool> freed;                           // per buffer
uint64_t bytesInUse = 0;                           // allocated, not freed

std::string describePointer(uint64_t p, bool pointer = false) {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (p >= buffers[i].first && p < buffers[i].first + buffers[i].second) {
      uint64_t off = p - buffers[i].first;
      return "buf" + std::to_string(i) + (off ? "+" + std::to_string(off) : "");
    }
  return pointer ? "host" : std::to_string(p);
}

/// The .entry functions of a PTX text and their parameter types.
void parsePtx(const char *ptx, Module &m) {
  const char *p = ptx;
  while ((p = std::strstr(p, ".entry "))) {
    p += 7;
    Kernel k;
    while (*p == ' ')
      ++p;
    while (*p && *p != '(' && *p != ' ' && *p != '\n')
      k.name.push_back(*p++);
    const char *end = std::strchr(p, ')');
    for (const char *q = p; q && end && (q = std::strstr(q, ".param ")) && q < end; q += 7) {
      const char *t = q + 7;
      while (*t == ' ')
        ++t;
      Param param;
      for (++t; *t && *t != ' '; ++t) // after the '.'
        param.type.push_back(*t);
      k.params.push_back(param);
    }
    m.kernels[k.name] = k;
  }
}

const char *errorName(CUresult r) {
  switch (r) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 218: return "CUDA_ERROR_INVALID_PTX";
  case 222: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 500: return "CUDA_ERROR_NOT_FOUND";
  case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 719: return "CUDA_ERROR_LAUNCH_FAILED";
  case 801: return "CUDA_ERROR_NOT_SUPPORTED";
  case 900: return "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED";
  case 901: return "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED";
  case 910: return "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE";
  default: return nullptr;
  }
}

const char *errorString(CUresult r) {
  switch (r) {
  case 0: return "no error";
  case 2: return "out of memory";
  case 100: return "no CUDA-capable device is detected";
  case 222: return "the provided PTX was compiled with an unsupported toolchain.";
  case 500: return "named symbol not found";
  case 700: return "an illegal memory access was encountered";
  case 719: return "unspecified launch failure";
  case 801: return "operation not supported";
  case 900: return "operation not permitted when stream is capturing";
  case 901: return "operation failed due to a previous error during capture";
  case 910: return "the graph update was not performed because it included changes which "
                   "violated constraints specific to instantiated graph update";
  default: return nullptr;
  }
}

/// A launch, memset or copy recorded while capturing.
struct Node {
  enum Kind { Launch, Memset, Copy } kind;
  Kernel *kernel = nullptr;
  unsigned grid[3], block[3], smem = 0;
  std::vector<std::vector<unsigned char>> args; // the values, as captured
  uint64_t dst = 0, src = 0, bytes = 0;
};
struct Graph {
  int id;
  std::vector<Node> nodes;
};
struct Exec {
  int id;
  std::vector<Node> nodes;
};
bool capturing = false, invalidated = false;
Graph *capture = nullptr;
[[maybe_unused]] int graphs = 0, execs = 0;

size_t paramBytes(const std::string &t) {
  if (t.size() >= 2 && (t[0] == 'u' || t[0] == 's' || t[0] == 'b' || t[0] == 'f'))
    return size_t(std::atoi(t.c_str() + 1)) / 8;
  return 8;
}

std::string describeLaunch(const Kernel *k, const unsigned g[3], const unsigned b[3],
                           unsigned smem, void *const *params) {
  std::string args;
  for (size_t i = 0; i < k->params.size(); ++i) {
    const std::string &t = k->params[i].type;
    std::string v;
    if (t == "u64" || t == "b64" || t == "s64") {
      uint64_t x;
      std::memcpy(&x, params[i], 8);
      v = describePointer(x);
    } else if (t == "u32" || t == "b32" || t == "s32") {
      uint32_t x;
      std::memcpy(&x, params[i], 4);
      v = std::to_string(x);
    } else if (t == "f32") {
      float x;
      std::memcpy(&x, params[i], 4);
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%g", double(x));
      v = buf;
    } else {
      v = "?" + t;
    }
    args += " " + v;
  }
  char head[256];
  std::snprintf(head, sizeof(head), "%s grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u args:",
                k->name.c_str(), g[0], g[1], g[2], b[0], b[1], b[2], smem);
  return head + args;
}

/// While capturing, a call the real driver refuses in a capture: fails
/// and invalidates the capture.
bool refusedInCapture(const char *call) {
  if (!capturing)
    return false;
  invalidated = true;
  log("%s during capture -> CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", call);
  return true;
}

#define INJECT(call)                                                           \
  if (CUresult r = injected(#call)) {                                          \
    log("%s -> %s", #call, errorName(r) ? errorName(r) : "error");             \
    return r;                                                                  \
  }

} // namespace

extern "C" {

CUresult cuInit(unsigned) {
  INJECT(cuInit);
  log("cuInit");
  return 0;
}
CUresult cuDriverGetVersion(int *v) {
  *v = driverVersion();
  return 0;
}
CUresult cuDeviceGetCount(int *n) {
  const char *d = std::getenv("KFUSE_FAKE_CUDA_DEVICES");
  *n = d ? std::atoi(d) : 1;
  return 0;
}
CUresult cuDeviceGet(int *d, int i) {
  *d = i;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int) {
  std::snprintf(name, size_t(len), "kfuse fake GPU");
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, int) {
  switch (attribute) {
  case 16: *v = 132; break;     // SMs
  case 36: *v = 2619000; break; // memory clock, kHz
  case 37: *v = 5120; break;    // bus width, bits
  case 75: *v = 9; break;
  case 76: *v = 0; break;
  default: *v = 0;
  }
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  static int context;
  *ctx = &context;
  return 0;
}
CUresult cuCtxSetCurrent(void *) { return 0; }

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options,
                            void **values) {
  INJECT(cuModuleLoadDataEx);
  if (refusedInCapture("cuModuleLoadDataEx"))
    return 900;
  const char *ptx = static_cast<const char *>(image);
  const char *v = std::strstr(ptx, ".version ");
  if (v) {
    int major = 0, minor = 0;
    std::sscanf(v + 9, "%d.%d", &major, &minor);
    // CUDA 12.0 reads PTX ISA 8.0, 12.x reads 8.x, 13.0 reads 9.0.
    int version = driverVersion();
    int maxMajor = version / 1000 - 4, maxMinor = version % 1000 / 10;
    if (major > maxMajor || (major == maxMajor && minor > maxMinor)) {
      for (unsigned i = 0; i < n; ++i)
        if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
          std::snprintf(static_cast<char *>(values[i]), 256,
                        "ptxas application ptx input, line 5; fatal   : Unsupported "
                        ".version %d.%d; current version is '%d.%d'",
                        major, minor, maxMajor, maxMinor);
      log("cuModuleLoadDataEx -> CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
      return 222;
    }
  }
  auto *m = new Module();
  parsePtx(ptx, *m);
  std::string entries;
  for (auto &[name, k] : m->kernels)
    entries += " " + name + "(" + std::to_string(k.params.size()) + " params)";
  log("cuModuleLoadDataEx entries:%s", entries.c_str());
  *module = m;
  return 0;
}
CUresult cuModuleUnload(void *) { return 0; }
CUresult cuModuleGetFunction(void **f, void *module, const char *name) {
  auto *m = static_cast<Module *>(module);
  auto it = m->kernels.find(name);
  if (it == m->kernels.end()) {
    log("cuModuleGetFunction %s -> CUDA_ERROR_NOT_FOUND", name);
    return 500;
  }
  *f = &it->second;
  log("cuModuleGetFunction %s", name);
  return 0;
}

// Checks what the driver checks of a tiled TMA descriptor (16-byte
// aligned address and byte strides, boxes of 1 to 256 elements) and logs
// it, outermost first as the program's memref; the map's bytes are zeros.
CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank, void *address,
                                const uint64_t *dims, const uint64_t *strides,
                                const unsigned *box, const unsigned *, int, int swizzle, int,
                                int) {
  INJECT(cuTensorMapEncodeTiled);
  bool ok = rank >= 1 && rank <= 5 && reinterpret_cast<uintptr_t>(address) % 16 == 0;
  std::string text = "dtype " + std::to_string(dataType) + " dims ";
  for (unsigned i = rank; i-- > 0;) {
    text += std::to_string(dims[i]) + (i ? "x" : "");
    ok = ok && box[i] >= 1 && box[i] <= 256 && (i + 1 == rank || strides[i] % 16 == 0);
  }
  text += " box ";
  for (unsigned i = rank; i-- > 0;)
    text += std::to_string(box[i]) + (i ? "x" : "");
  text += " swizzle " + std::to_string(swizzle);
  if (!ok) {
    log("cuTensorMapEncodeTiled %s -> CUDA_ERROR_INVALID_VALUE", text.c_str());
    return 1;
  }
  std::memset(map, 0, 128);
  log("cuTensorMapEncodeTiled %s", text.c_str());
  return 0;
}

// Only MAX_DYNAMIC_SHARED_SIZE_BYTES (8), up to an H200's 227 KiB.
CUresult cuFuncSetAttribute(void *f, int attribute, int value) {
  auto *k = static_cast<Kernel *>(f);
  INJECT(cuFuncSetAttribute);
  if (attribute != 8 || value < 0 || value > 227 * 1024) {
    log("cuFuncSetAttribute %s %d %d -> CUDA_ERROR_INVALID_VALUE", k->name.c_str(), attribute,
        value);
    return 1;
  }
  k->sharedLimit = value;
  log("cuFuncSetAttribute %s max_dynamic_shared_size_bytes %d", k->name.c_str(), value);
  return 0;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, void *, void **params,
                        void **) {
  auto *k = static_cast<Kernel *>(f);
  INJECT(cuLaunchKernel);
  if (int(smem) > k->sharedLimit) {
    log("cuLaunchKernel %s with %u bytes of dynamic shared memory, not opted in -> "
        "CUDA_ERROR_INVALID_VALUE",
        k->name.c_str(), smem);
    return 1;
  }
  unsigned g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
  if (capturing) {
    Node n{Node::Launch, k, {gx, gy, gz}, {bx, by, bz}, smem};
    for (size_t i = 0; i < k->params.size(); ++i) {
      auto *p = static_cast<unsigned char *>(params[i]);
      n.args.emplace_back(p, p + paramBytes(k->params[i].type));
    }
    capture->nodes.push_back(n);
    log("cuLaunchKernel (captured) %s", describeLaunch(k, g, b, smem, params).c_str());
    return 0;
  }
  log("cuLaunchKernel %s", describeLaunch(k, g, b, smem, params).c_str());
  return 0;
}

CUresult cuStreamCreate(void **s, unsigned) {
  static int stream;
  *s = &stream;
  return 0;
}
CUresult cuStreamSynchronize(void *) {
  INJECT(cuStreamSynchronize);
  if (refusedInCapture("cuStreamSynchronize"))
    return 900;
  return 0;
}
CUresult cuEventCreate(void **e, unsigned) {
  *e = new double(0);
  return 0;
}
CUresult cuEventRecord(void *e, void *) {
  if (refusedInCapture("cuEventRecord"))
    return 900;
  static double clock = 0;
  *static_cast<double *>(e) = (clock += 0.5); // ms, 0.5 apart
  return 0;
}
CUresult cuEventSynchronize(void *) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  *ms = float(*static_cast<double *>(b) - *static_cast<double *>(a));
  return 0;
}
/// Device memory, `bytes` rounded up to 256 (at least 256, so that every
/// buffer has an address of its own): addresses that grow with the
/// allocation order, as a fresh device's allocator gives them, so that
/// what depends on their order (the runtime's caching allocator hands out
/// the lowest free address of a size) is the same in every process,
/// whatever the host heap did before (a graph capture allocates host
/// memory; the heap's addresses then came in another order). One
/// reservation of address space, its pages host memory once touched; where
/// it cannot be had (a ulimit -v, strict overcommit), the heap's addresses.
void *deviceMemory(size_t bytes) {
  static constexpr size_t kReserve = size_t(1) << 40; // 1 TiB of addresses
  static char *base = [] {
    void *m = mmap(nullptr, kReserve, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return m == MAP_FAILED ? nullptr : static_cast<char *>(m);
  }();
  static size_t used = 0;
  size_t rounded = bytes == 0 ? 256 : (bytes + 255) / 256 * 256;
  if (!base)
    return std::aligned_alloc(256, rounded);
  if (rounded > kReserve - used)
    return nullptr;
  void *m = base + used;
  used += rounded;
  return m;
}

CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes) {
  INJECT(cuMemAlloc);
  if (refusedInCapture("cuMemAlloc"))
    return 900;
  // KFUSE_FAKE_CUDA_MEMORY: the device's memory in bytes (default: what
  // the host can give); an allocation beyond what is free is refused.
  const char *capacity = std::getenv("KFUSE_FAKE_CUDA_MEMORY");
  if ((capacity && bytes > uint64_t(std::atoll(capacity)) - bytesInUse) ||
      bytes > SIZE_MAX - 255) {
    log("cuMemAlloc %zu bytes -> out of memory (%zu in use)", bytes, size_t(bytesInUse));
    return 2;
  }
  void *m = deviceMemory(bytes);
  if (!m) {
    log("cuMemAlloc %zu bytes -> out of memory", bytes);
    return 2;
  }
  buffers.push_back({uintptr_t(m), bytes});
  freed.push_back(false);
  bytesInUse += bytes;
  *p = uint64_t(uintptr_t(m));
  log("cuMemAlloc %zu bytes -> buf%zu", bytes, buffers.size() - 1);
  return 0;
}
CUresult cuMemFree_v2(uint64_t p) {
  if (refusedInCapture("cuMemFree"))
    return 900;
  // The host memory is kept, so that a later buffer never has the address
  // (and the name) of a freed one; only the device's use goes down.
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].first == p && !freed[i]) {
      bytesInUse -= buffers[i].second;
      freed[i] = true;
      break;
    }
  log("cuMemFree %s", describePointer(p).c_str());
  return 0;
}
CUresult cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void *) {
  INJECT(cuMemcpyAsync);
  if (capturing) {
    Node n{Node::Copy};
    n.dst = dst;
    n.src = src;
    n.bytes = bytes;
    capture->nodes.push_back(n);
    log("cuMemcpyAsync (captured) %s <- %s, %zu bytes", describePointer(dst, true).c_str(),
        describePointer(src, true).c_str(), bytes);
    return 0;
  }
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src), bytes);
  log("cuMemcpyAsync %s <- %s, %zu bytes", describePointer(dst, true).c_str(),
      describePointer(src, true).c_str(), bytes);
  return 0;
}
CUresult cuMemsetD32Async(uint64_t dst, unsigned, size_t count, void *) {
  if (capturing) {
    capture->nodes.push_back(Node{Node::Memset});
    log("cuMemsetD32Async (captured) %s, %zu words", describePointer(dst, true).c_str(), count);
  }
  return 0;
}
CUresult cuMemsetD16Async(uint64_t dst, unsigned short, size_t count, void *) {
  if (capturing) {
    capture->nodes.push_back(Node{Node::Memset});
    log("cuMemsetD16Async (captured) %s, %zu half-words", describePointer(dst, true).c_str(),
        count);
  }
  return 0;
}

#ifndef KFUSE_FAKE_NO_GRAPHS
CUresult cuStreamBeginCapture_v2(void *, int mode) {
  INJECT(cuStreamBeginCapture);
  if (capturing) {
    log("cuStreamBeginCapture -> already capturing");
    return 900;
  }
  capturing = true;
  invalidated = false;
  capture = new Graph{graphs++, {}};
  log("cuStreamBeginCapture mode=%d", mode);
  return 0;
}
CUresult cuStreamEndCapture(void *, void **graph) {
  *graph = nullptr;
  if (!capturing) {
    log("cuStreamEndCapture -> not capturing");
    return 1;
  }
  capturing = false;
  Graph *g = capture;
  capture = nullptr;
  if (invalidated) {
    log("cuStreamEndCapture -> CUDA_ERROR_STREAM_CAPTURE_INVALIDATED");
    delete g;
    return 901;
  }
  INJECT(cuStreamEndCapture);
  *graph = g;
  log("cuStreamEndCapture -> graph%d (%zu nodes)", g->id, g->nodes.size());
  return 0;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long) {
  INJECT(cuGraphInstantiateWithFlags);
  auto *g = static_cast<Graph *>(graph);
  auto *e = new Exec{execs++, g->nodes};
  *exec = e;
  log("cuGraphInstantiateWithFlags graph%d -> exec%d", g->id, e->id);
  return 0;
}
CUresult cuGraphExecUpdate_v2(void *exec, void *graph, void *resultInfo) {
  INJECT(cuGraphExecUpdate);
  auto *e = static_cast<Exec *>(exec);
  auto *g = static_cast<Graph *>(graph);
  // As the driver: the same nodes in the same order, kernels unchanged;
  // only their arguments, geometry and addresses may differ.
  bool same = e->nodes.size() == g->nodes.size();
  for (size_t i = 0; same && i < g->nodes.size(); ++i)
    same = e->nodes[i].kind == g->nodes[i].kind && e->nodes[i].kernel == g->nodes[i].kernel;
  if (!same) {
    std::memset(resultInfo, 0, 24);
    *static_cast<int *>(resultInfo) = 3; // CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED
    log("cuGraphExecUpdate exec%d <- graph%d -> CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", e->id,
        g->id);
    return 910;
  }
  e->nodes = g->nodes;
  log("cuGraphExecUpdate exec%d <- graph%d", e->id, g->id);
  return 0;
}
CUresult cuGraphLaunch(void *exec, void *) {
  INJECT(cuGraphLaunch);
  auto *e = static_cast<Exec *>(exec);
  log("cuGraphLaunch exec%d (%zu nodes)", e->id, e->nodes.size());
  for (const Node &n : e->nodes) {
    if (n.kind == Node::Launch) {
      std::vector<void *> params;
      for (const auto &a : n.args)
        params.push_back(const_cast<unsigned char *>(a.data()));
      log("graph exec%d: cuLaunchKernel %s", e->id,
          describeLaunch(n.kernel, n.grid, n.block, n.smem, params.data()).c_str());
    } else if (n.kind == Node::Copy) {
      std::memcpy(reinterpret_cast<void *>(n.dst), reinterpret_cast<void *>(n.src), n.bytes);
    }
  }
  return 0;
}
CUresult cuGraphDestroy(void *graph) {
  auto *g = static_cast<Graph *>(graph);
  log("cuGraphDestroy graph%d", g->id);
  delete g;
  return 0;
}
CUresult cuGraphExecDestroy(void *exec) {
  auto *e = static_cast<Exec *>(exec);
  log("cuGraphExecDestroy exec%d", e->id);
  delete e;
  return 0;
}
#endif
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = errorName(r);
  return *s ? 0 : 1;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = errorString(r);
  return *s ? 0 : 1;
}

} // extern "C"
