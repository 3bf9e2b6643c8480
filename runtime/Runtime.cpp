//===- Runtime.cpp - devices, modules, launches, memory, records ----------===//
#include "Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <dlfcn.h>
#include <optional>
#include <system_error>

namespace kfuse::rt {

/// The integer in environment variable `name`, into `value` (empty where
/// it is unset): decimal digits only, from `lo` to `hi`; anything else
/// is refused in `why` with the name and the text given.
static bool integerFromEnv(const char *name, long lo, long hi, std::optional<long> &value,
                           std::string &why) {
  value.reset();
  const char *env = std::getenv(name);
  if (!env)
    return true;
  std::string text = env;
  std::string digits = std::to_string(hi);
  if (text.empty() || text.size() > digits.size() ||
      text.find_first_not_of("0123456789") != std::string::npos || std::atol(env) < lo ||
      std::atol(env) > hi) {
    why = std::string(name) + " must be an integer from " + std::to_string(lo) + " to " +
          digits + ", got '" + text + "'";
    return false;
  }
  value = std::atol(env);
  return true;
}

Runtime &Runtime::get() {
  // Never destroyed: compiled programs unload their modules from static
  // destructors, which may run after this object's would have.
  static Runtime *runtime = new Runtime();
  return *runtime;
}

void Runtime::fail(const std::string &message) {
  std::string text = "kfuse runtime: error: " + message;
  if (handler)
    handler(text.c_str());
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  std::exit(1);
}

void Runtime::check(CUresult result, const char *call, const std::string &what) {
  if (result != CUDA_SUCCESS)
    fail(std::string(call) + " failed for " + what + ": " + driver.describe(result));
}

bool Runtime::initCuda(std::string &why) {
  const char *path = std::getenv("KFUSE_CUDA_DRIVER");
  if (!driver.load(path && *path ? path : "libcuda.so.1", why))
    return false;
  int count = 0, version = 0;
  CUresult r = driver.cuInit(0);
  if (r == CUDA_SUCCESS)
    r = driver.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS || count == 0) {
    why = r != CUDA_SUCCESS ? "cuInit failed: " + driver.describe(r)
                            : std::string("the CUDA driver sees no device");
    return false;
  }
  CUdevice device;
  check(driver.cuDeviceGet(&device, 0), "cuDeviceGet", "device 0");
  check(driver.cuDevicePrimaryCtxRetain(&context, device),
        "cuDevicePrimaryCtxRetain", "device 0");
  check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent", "device 0");
  check(driver.cuStreamCreate(&stream, 0), "cuStreamCreate", "the runtime's stream");
  check(driver.cuEventCreate(&origin, 0), "cuEventCreate", "the clock origin");
  check(driver.cuEventRecord(origin, stream), "cuEventRecord", "the clock origin");
  char name[256] = {0};
  driver.cuDeviceGetName(name, sizeof(name) - 1, device);
  driver.cuDriverGetVersion(&version);
  int major = 0, minor = 0, sms = 0, clockKHz = 0, busBits = 0;
  driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  driver.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  // Double data rate: two transfers per memory clock over the bus.
  if (driver.cuDeviceGetAttribute(&clockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, device) ==
          CUDA_SUCCESS &&
      driver.cuDeviceGetAttribute(&busBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                                  device) == CUDA_SUCCESS)
    peakGBps = 2.0 * clockKHz * 1e3 * (busBits / 8.0) / 1e9;
  description = std::string("cuda: ") + name + " (sm_" + std::to_string(major) +
                std::to_string(minor) + ", " + std::to_string(sms) +
                " SMs), driver CUDA " + std::to_string(version / 1000) + "." +
                std::to_string(version % 1000 / 10);
  allocator = std::make_unique<CachingAllocator>(
      [this](size_t bytes) -> void * {
        CUdeviceptr ptr = 0;
        lastAllocError = driver.cuMemAlloc(&ptr, bytes);
        return lastAllocError == CUDA_SUCCESS ? reinterpret_cast<void *>(ptr) : nullptr;
      },
      [this](void *ptr) {
        // Recorded graph work may still use the buffer: issued first.
        graphs.flush(false, "a buffer given back to the driver");
        check(driver.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree",
              "a cached buffer");
      });
  return true;
}

bool Runtime::init(const std::string &device, std::string &why) {
  if (initialized)
    return true;
  if (device != "auto" && device != "cuda" && device != "cpu") {
    why = "unknown device '" + device + "' (auto, cuda or cpu)";
    return false;
  }
  // The default of the graph mode; kfuse_rt_set_cuda_graphs wins over it.
  if (const char *env = std::getenv("KFUSE_CUDA_GRAPHS");
      env && *env && !graphs.modeSet && !graphs.setMode(env)) {
    why = std::string("KFUSE_CUDA_GRAPHS must be on, off or auto, got '") + env + "'";
    return false;
  }
  bool ok = true;
  if (device != "cpu") {
    cuda = initCuda(why);
    ok = cuda || device == "auto";
  }
  if (!cuda) {
    unsigned threads = std::thread::hardware_concurrency();
    std::optional<long> asked;
    if (!integerFromEnv("KFUSE_NUM_THREADS", 1, 4096, asked, why))
      return false;
    threads = asked ? unsigned(*asked) : threads ? threads : 1;
    // How long idle workers spin before they sleep (HostPool.cpp says why
    // 1 ms by default): less where other programs want the cores.
    double spinNs = -1;
    if (!integerFromEnv("KFUSE_POOL_SPIN_US", 0, 1000000, asked, why))
      return false;
    if (asked)
      spinNs = double(*asked) * 1e3;
    try {
      pool = std::make_unique<HostPool>(threads, spinNs);
    } catch (const std::system_error &e) {
      why = "cannot start " + std::to_string(threads) + " threads for the CPU: " + e.what();
      return false;
    }
    description = "cpu: " + std::to_string(pool->size()) + " threads";
    // How the launches ran, at exit: whether small ones stayed on the
    // calling thread (docs: KFUSE_POOL_STATS).
    if (const char *env = std::getenv("KFUSE_POOL_STATS"); env && *env && *env != '0')
      std::atexit([] {
        HostPool &p = *Runtime::get().pool;
        std::fprintf(stderr,
                     "kfuse runtime: host pool: %u threads, %llu launches on the calling "
                     "thread, %llu spread; waking the workers costs %.1f us (asleep), "
                     "%.1f us (spinning)\n",
                     p.size(), (unsigned long long)p.inlineRuns.load(),
                     (unsigned long long)p.spreadRuns.load(), p.cold.now(std::chrono::steady_clock::now()) / 1e3,
                     p.hot.now(std::chrono::steady_clock::now()) / 1e3);
      });
    allocator = std::make_unique<CachingAllocator>(
        [](size_t bytes) { return std::aligned_alloc(256, bytes); },
        [](void *ptr) { std::free(ptr); });
  }
  initialized = ok;
  start = std::chrono::steady_clock::now();
  return ok;
}

void Runtime::ensureInitialized() {
  std::string why;
  if (!initialized && !init("auto", why))
    fail(why);
}

double Runtime::hostMicros() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

size_t Runtime::record(kfuse_record_kind kind, const char *name, uint64_t bytes) {
  kfuse_record r{};
  r.kind = kind;
  r.name = name;
  r.start_us = cuda ? -1 : hostMicros();
  r.duration_us = -1;
  r.bytes = bytes;
  records.push_back(r);
  return records.size() - 1;
}

template <typename Issue> void Runtime::timed(size_t index, Issue issue) {
  if (!cuda) {
    issue();
    if (profiling)
      records[index].duration_us = hostMicros() - records[index].start_us;
    return;
  }
  if (!profiling)
    return issue();
  auto event = [&] {
    CUevent e;
    if (!freeEvents.empty()) {
      e = freeEvents.back();
      freeEvents.pop_back();
      return e;
    }
    check(driver.cuEventCreate(&e, 0), "cuEventCreate", "timing");
    return e;
  };
  Pending p{index, event(), event()};
  check(driver.cuEventRecord(p.start, stream), "cuEventRecord", records[index].name);
  issue();
  check(driver.cuEventRecord(p.stop, stream), "cuEventRecord", records[index].name);
  pending.push_back(p);
}

/// Reads the lines `// kfuse-kernel-alias NAME KERNEL` at the start of a
/// module's text (kf-alias-shared-kernels writes them) into `aliases`;
/// returns the text after them.
static const char *readKernelAliases(const char *text,
                                     std::map<std::string, std::string> &aliases) {
  static const char kAlias[] = "// kfuse-kernel-alias ";
  while (std::strncmp(text, kAlias, sizeof(kAlias) - 1) == 0) {
    const char *name = text + sizeof(kAlias) - 1;
    const char *space = std::strchr(name, ' ');
    const char *end = std::strchr(name, '\n');
    if (!space || !end || space > end)
      break; // not one of ours: the text is left to the driver
    aliases[std::string(name, space)] = std::string(space + 1, end);
    text = end + 1;
  }
  return text;
}

Module *Runtime::loadModule(const void *image, bool host) {
  auto *module = new Module();
  module->image = image;
  const char *text = readKernelAliases(static_cast<const char *>(image), module->aliases);
  static const char kHostMagic[] = "KFUSE-HOST-MODULE:";
  if (std::strncmp(text, kHostMagic, sizeof(kHostMagic) - 1) == 0) {
    module->host = true;
    module->prefix = text + sizeof(kHostMagic) - 1;
    // The host kernels live in the library that holds this object.
    Dl_info info;
    if (dladdr(image, &info) && info.dli_fname)
      module->library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  } else if (host) {
    fail("a module that is neither PTX nor kfuse host kernels");
  }
  return module;
}

void Runtime::unloadModule(Module *module) {
  // Modules are unloaded from static destructors at exit, when the driver
  // may already be gone: the process's end releases them.
  (void)module;
}

void Runtime::loadPtx(Module *module, const std::string &kernel) {
  names.push_back("PTX JIT (" + kernel + ")");
  size_t index = record(KFUSE_RECORD_MODULE_LOAD, names.back().c_str(), 0);
  char info[8192] = {0}, error[8192] = {0};
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {info, reinterpret_cast<void *>(sizeof(info) - 1), error,
                    reinterpret_cast<void *>(sizeof(error) - 1)};
  double begin = hostMicros();
  CUresult r = driver.cuModuleLoadDataEx(&module->cu, module->image, 4, options, values);
  records[index].start_us = begin;
  records[index].duration_us = hostMicros() - begin;
  if (r == CUDA_SUCCESS)
    return;
  std::string message = "cuModuleLoadDataEx failed for the module of kernel '" +
                        kernel + "': " + driver.describe(r);
  if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
    const char *ptx = static_cast<const char *>(module->image);
    const char *v = std::strstr(ptx, ".version ");
    int version = 0;
    driver.cuDriverGetVersion(&version);
    message += "\n  the PTX is ISA " +
               (v ? std::string(v + 9, std::strcspn(v + 9, "\n")) : std::string("?")) +
               "; the driver is CUDA " + std::to_string(version / 1000) + "." +
               std::to_string(version % 1000 / 10) +
               ", too old for it: update the driver";
  }
  if (*error)
    message += std::string("\n  PTX JIT log: ") + error;
  fail(message);
}

Function *Runtime::getFunction(Module *module, const char *name) {
  auto &slot = module->functions[name];
  if (slot)
    return slot.get();
  auto f = std::make_unique<Function>();
  f->module = module;
  f->name = name;
  auto alias = module->aliases.find(f->name);
  f->symbol = alias != module->aliases.end() ? alias->second : f->name;
  if (module->host) {
    std::string symbol = module->prefix + f->symbol;
    f->host = reinterpret_cast<HostKernel>(
        module->library ? dlsym(module->library, symbol.c_str()) : nullptr);
    if (!f->host)
      fail("no host kernel " + symbol + " in the program's library");
  } else {
    if (!cuda)
      fail("kernel '" + std::string(name) +
           "' is GPU code, and this run is on the CPU");
    if (!module->cu)
      loadPtx(module, name);
    check(driver.cuModuleGetFunction(&f->cu, module->cu, f->symbol.c_str()),
          "cuModuleGetFunction", "kernel '" + std::string(name) + "'");
  }
  slot = std::move(f);
  return slot.get();
}

void Runtime::launch(Function *f, const int64_t grid[3], const int64_t block[3],
                     unsigned sharedBytes, void **params, size_t paramCount) {
  // The geometry comes from compiled code, computed from the sizes: a
  // grid CUDA cannot launch would be cut to 32 bits (fewer blocks, part
  // of the result never written), and the host's block count must not wrap.
  int64_t blocks = 1;
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0 || block[d] < 0 || grid[d] > 0x7fffffff || block[d] > 1024 ||
        __builtin_mul_overflow(blocks, grid[d], &blocks))
      fail("kernel '" + f->name + "' launched with grid (" + std::to_string(grid[0]) + ", " +
           std::to_string(grid[1]) + ", " + std::to_string(grid[2]) + ") and block (" +
           std::to_string(block[0]) + ", " + std::to_string(block[1]) + ", " +
           std::to_string(block[2]) + "): more blocks or threads than a launch can have");
  size_t index = record(KFUSE_RECORD_LAUNCH, f->name.c_str(), 0);
  for (int d = 0; d < 3; ++d) {
    records[index].grid[d] = grid[d];
    records[index].block[d] = block[d];
  }
  if (f->host) {
    // One pointer captured: the std::function holds it without allocating.
    struct Launch {
      HostKernel kernel;
      const int64_t *grid, *block;
      void **params;
    } launch{f->host, grid, block, params};
    const Launch *l = &launch;
    std::function<void(int64_t)> body = [l](int64_t i) {
      const int64_t *g = l->grid, *b = l->block;
      int64_t geometry[9] = {g[0], g[1], g[2], b[0], b[1], b[2],
                             i % g[0], i / g[0] % g[1], i / (g[0] * g[1])};
      l->kernel(l->params, geometry);
    };
    timed(index, [&] { pool->run(blocks, body, &f->blockTime); });
    return;
  }
  // A kernel past 48 KiB of dynamic shared memory (a matmul's stages) is
  // opted in once, before its first such launch, captured or not.
  if (sharedBytes > f->sharedLimit) {
    check(driver.cuFuncSetAttribute(f->cu, /*MAX_DYNAMIC_SHARED_SIZE_BYTES=*/8,
                                    int(sharedBytes)),
          "cuFuncSetAttribute", "kernel '" + f->name + "' (" + std::to_string(sharedBytes) +
                                    " bytes of dynamic shared memory)");
    f->sharedLimit = sharedBytes;
  }
  // In a graph call the launch is recorded (GraphCache.h), untimed.
  if (graphs.recording() &&
      graphs.recordLaunch(f, grid, block, sharedBytes, params, paramCount))
    return;
  timed(index, [&] {
    check(driver.cuLaunchKernel(f->cu, unsigned(grid[0]), unsigned(grid[1]),
                                unsigned(grid[2]), unsigned(block[0]), unsigned(block[1]),
                                unsigned(block[2]), sharedBytes, stream, params, nullptr),
          "cuLaunchKernel", "kernel '" + f->name + "'");
  });
}

void Runtime::launchGraph(CUgraphExec exec, const char *name) {
  size_t index = record(KFUSE_RECORD_GRAPH_REPLAY, name, 0);
  timed(index, [&] {
    check(driver.cuGraphLaunch(exec, stream), "cuGraphLaunch", std::string(name));
  });
}

void *Runtime::allocate(size_t bytes) {
  void *ptr = allocator->allocate(bytes);
  if (ptr)
    return ptr;
  // Named as the program asked, so that a wrapped or absurd size shows.
  std::string size = std::to_string(bytes) + " bytes";
  if (bytes >= (size_t(1) << 30))
    size += " (" + std::to_string(bytes >> 30) + " GiB)";
  if (cuda)
    fail("cuMemAlloc failed for " + size + ": " +
         (lastAllocError == CUDA_SUCCESS ? std::string("more than the driver can address")
                                         : driver.describe(lastAllocError)));
  fail("cannot allocate " + size + " of host memory");
}

void Runtime::release(void *ptr) {
  if (ptr && !allocator->release(ptr))
    fail("free of a buffer the runtime did not allocate");
}

void Runtime::copy(void *dst, const void *src, size_t bytes, kfuse_record_kind kind) {
  if (bytes == 0)
    return;
  static const char *const kNames[] = {"", "copy host to device", "copy device to host",
                                       "copy device to device"};
  size_t index = record(kind, kNames[kind], bytes);
  if (graphs.recording()) {
    if (kind == KFUSE_RECORD_COPY_ON_DEVICE)
      return graphs.recordCopy(reinterpret_cast<CUdeviceptr>(dst),
                               reinterpret_cast<CUdeviceptr>(src), bytes);
    graphs.flush(false, "a copy from or to the host");
  }
  timed(index, [&] {
    if (!cuda)
      return (void)std::memcpy(dst, src, bytes);
    check(driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                               reinterpret_cast<CUdeviceptr>(src), bytes, stream),
          "cuMemcpyAsync", std::to_string(bytes) + " bytes");
  });
  if (kind == KFUSE_RECORD_COPY_TO_HOST)
    synchronize(); // the caller reads the host buffer next
}

void Runtime::memset32(void *dst, unsigned value, size_t count) {
  if (!cuda) {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<char *>(dst) + 4 * i, &value, 4);
    return;
  }
  if (graphs.recording())
    return graphs.recordMemset(GraphRecord::Op::Memset32, reinterpret_cast<CUdeviceptr>(dst),
                               value, count);
  check(driver.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream),
        "cuMemsetD32Async", std::to_string(count) + " words");
}

void Runtime::memset16(void *dst, unsigned short value, size_t count) {
  if (!cuda) {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<char *>(dst) + 2 * i, &value, 2);
    return;
  }
  if (graphs.recording())
    return graphs.recordMemset(GraphRecord::Op::Memset16, reinterpret_cast<CUdeviceptr>(dst),
                               value, count);
  check(driver.cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count, stream),
        "cuMemsetD16Async", std::to_string(count) + " half-words");
}

void Runtime::synchronize() {
  if (!cuda)
    return;
  // The caller reads what the recorded work writes before the call ends:
  // issued now, and this key is not captured again.
  graphs.flush(true, "kfuse_rt_synchronize inside the call");
  std::string running = records.empty() ? "the stream" : "the stream (last: " +
                                                             std::string(records.back().name) +
                                                             ")";
  check(driver.cuStreamSynchronize(stream), "cuStreamSynchronize", running);
  if (!anchor)
    anchor = origin;
  for (const Pending &p : pending) {
    float ms = 0, since = 0;
    check(driver.cuEventElapsedTime(&ms, p.start, p.stop), "cuEventElapsedTime",
          records[p.record].name);
    check(driver.cuEventElapsedTime(&since, anchor, p.start), "cuEventElapsedTime",
          records[p.record].name);
    records[p.record].duration_us = double(ms) * 1e3;
    anchorUs += double(since) * 1e3;
    records[p.record].start_us = anchorUs;
    // p.start is the next anchor; the previous one is free again (origin
    // is kept: it is the clock's zero).
    if (anchor != origin)
      freeEvents.push_back(anchor);
    anchor = p.start;
    freeEvents.push_back(p.stop);
  }
  pending.clear();
}

} // namespace kfuse::rt
