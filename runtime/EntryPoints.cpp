//===- EntryPoints.cpp - the mgpu* calls and the kfuse_rt_* C API ---------===//
//
// The mgpu* signatures are those MLIR's gpu-to-llvm and gpu.binary's
// default offloading handler (SelectObjectAttr) emit calls to; upstream's
// own implementation (libmlir_cuda_runtime) links the CUDA driver and is
// not shipped by Debian. Every call goes through the one stream the runtime
// owns, so streams created by compiled code are that stream.
//
//===----------------------------------------------------------------------===//
#include "HostCpu.h"
#include "Runtime.h"

#include <dlfcn.h>

using kfuse::rt::Runtime;

namespace {
Runtime &rt() {
  Runtime &r = Runtime::get();
  r.ensureInitialized();
  return r;
}
} // namespace

extern "C" {

// Modules are loaded from a program library's constructor, before its
// user has chosen a device: they only record the image until first use.
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return Runtime::get().loadModule(data, /*host=*/true);
}

void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return Runtime::get().loadModule(data, /*host=*/false);
}

void mgpuModuleUnload(void *module) {
  Runtime::get().unloadModule(static_cast<kfuse::rt::Module *>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  return rt().getFunction(static_cast<kfuse::rt::Module *>(module), name);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                      int32_t sharedBytes, void * /*stream*/, void **params,
                      void ** /*extra*/, size_t paramsCount) {
  int64_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  rt().launch(static_cast<kfuse::rt::Function *>(function), grid, block,
              unsigned(sharedBytes), params, paramsCount);
}

// The runtime's single stream stands for every stream compiled code asks
// for: creating and destroying one costs nothing, and ordering is kept.
void *mgpuStreamCreate() {
  static char stream;
  rt();
  return &stream;
}
void mgpuStreamDestroy(void *) {}
// gpu-to-llvm waits for the stream after every launch_func. In a graph
// call the work is recorded, not issued, and compiled host code never
// reads device memory (it is cuMemAlloc'd), so there is nothing to wait
// for: the caller's kfuse_rt_synchronize after the call waits for the graph.
void mgpuStreamSynchronize(void *) { rt().programSynchronize(); }
void mgpuStreamWaitEvent(void *, void *) {}
void *mgpuEventCreate() {
  static char event;
  return &event;
}
void mgpuEventDestroy(void *) {}
void mgpuEventSynchronize(void *) { rt().programSynchronize(); }
void mgpuEventRecord(void *, void *) {}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool /*isHostShared*/) {
  return rt().allocate(bytes);
}
void mgpuMemFree(void *ptr, void * /*stream*/) { rt().release(ptr); }
void mgpuMemcpy(void *dst, void *src, size_t bytes, void * /*stream*/) {
  rt().copy(dst, src, bytes, KFUSE_RECORD_COPY_ON_DEVICE);
}
void mgpuMemset32(void *dst, unsigned value, size_t count, void * /*stream*/) {
  rt().memset32(dst, value, count);
}
void mgpuMemset16(void *dst, unsigned short value, size_t count, void * /*stream*/) {
  rt().memset16(dst, value, count);
}
// nvgpu.tma.create.descriptor's call (the sm_90a matmul's operands).
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor, int64_t dataType,
                                     int64_t interleave, int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *box) {
  return rt().tensorMap(rank, descriptor, int(dataType), int(interleave), int(swizzle),
                        int(l2Promotion), int(oobFill), box);
}

// Called by a library's first constructor (kfuse-compile's addHostCpuCheck)
// with the CPU its host code was compiled for and that CPU's features: a
// CPU without one of them would die of SIGILL in the library's code, so the
// load stops here, naming what is missing. Not in runtime.h: as the mgpu*
// calls, only compiled code calls it.
void kfuse_rt_require_host_cpu(const char *cpu, const char *features) {
  std::string missing = kfuse::rt::missingHostFeatures(features ? features : "");
  if (missing.empty())
    return;
  Dl_info info;
  std::string library = dladdr(features, &info) && info.dli_fname
                            ? info.dli_fname
                            : std::string("a library from kfuse-compile");
  Runtime::get().fail(library + " was compiled for the CPU '" + (cpu ? cpu : "?") +
                      "' (kfuse-compile --host-cpu), and this CPU lacks " + missing +
                      ": compile it again on this machine (--host-cpu=native, the "
                      "default) or for a CPU both have (--host-cpu=x86-64-v3 for AVX2 "
                      "and FMA, x86-64 for any x86-64 CPU)");
}

int kfuse_rt_init(const char *device, char *why, size_t whySize) {
  std::string reason;
  Runtime &r = Runtime::get();
  bool ok = r.init(device ? device : "auto", reason);
  if (why && whySize) {
    std::snprintf(why, whySize, "%s", reason.c_str());
  }
  return ok ? 0 : 1;
}
int kfuse_rt_is_cuda(void) { return rt().cuda ? 1 : 0; }
const char *kfuse_rt_device_description(void) { return rt().description.c_str(); }
double kfuse_rt_peak_gbps(void) { return rt().peakGBps; }
void *kfuse_rt_alloc(size_t bytes) { return rt().allocate(bytes); }
void kfuse_rt_free(void *ptr) { rt().release(ptr); }
void kfuse_rt_copy_to_device(void *dst, const void *src, size_t bytes) {
  rt().copy(dst, src, bytes, KFUSE_RECORD_COPY_TO_DEVICE);
}
void kfuse_rt_copy_to_host(void *dst, const void *src, size_t bytes) {
  rt().copy(dst, src, bytes, KFUSE_RECORD_COPY_TO_HOST);
}
void kfuse_rt_copy_on_device(void *dst, const void *src, size_t bytes) {
  rt().copy(dst, src, bytes, KFUSE_RECORD_COPY_ON_DEVICE);
}
void kfuse_rt_synchronize(void) { rt().synchronize(); }
void kfuse_rt_set_profiling(int on) { rt().profiling = on != 0; }
size_t kfuse_rt_record_count(void) { return rt().records.size(); }
int kfuse_rt_get_record(size_t index, kfuse_record *out) {
  Runtime &r = rt();
  if (index >= r.records.size())
    return 1;
  *out = r.records[index];
  return 0;
}
void kfuse_rt_reset_records(void) {
  Runtime &r = rt();
  r.synchronize();
  r.records.clear();
}
void kfuse_rt_allocator_stats(uint64_t *driverAllocations, uint64_t *cacheHits) {
  Runtime &r = rt();
  *driverAllocations = r.allocator->driverAllocations;
  *cacheHits = r.allocator->cacheHits;
}
int kfuse_rt_set_cuda_graphs(const char *mode) {
  kfuse::rt::GraphCache &g = Runtime::get().graphs;
  if (!g.setMode(mode ? mode : ""))
    return 1;
  g.modeSet = true;
  return 0;
}
void kfuse_rt_graph_begin(const char *key) { rt().graphs.begin(key ? key : ""); }
void kfuse_rt_graph_end(void) { rt().graphs.end(); }
void kfuse_rt_graph_stats(kfuse_graph_stats *out) {
  const kfuse::rt::GraphCache &g = rt().graphs;
  *out = {g.captures, g.updates, g.replays, g.uncaptured};
}
const char *kfuse_rt_graph_note(void) { return rt().graphs.note.c_str(); }
void kfuse_rt_set_error_handler(kfuse_error_handler handler) {
  Runtime::get().handler = handler;
}

} // extern "C"
