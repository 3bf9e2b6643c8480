//===- Runtime.h - the runtime's state, shared by its entry points -*- C++ -*-===//
#ifndef KFUSE_RUNTIME_RUNTIME_H
#define KFUSE_RUNTIME_RUNTIME_H

#include "CachingAllocator.h"
#include "CudaDriver.h"
#include "GraphCache.h"
#include "HostPool.h"
#include "kfuse/runtime.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kfuse::rt {

/// A host kernel: runs one block (kf-host-kernel-abi writes these).
using HostKernel = void (*)(void **params, const int64_t *geometry);

struct Function;

/// A kernel module: PTX (loaded by the driver at its first use, so that
/// the JIT cost lands in the first call) or host kernels found by name.
struct Module {
  bool host = false;
  std::string prefix;      // host: symbol prefix of its kernels
  void *library = nullptr; // host: the library holding them
  const void *image = nullptr;
  // Kernel name -> the kernel whose code it runs (kf-alias-shared-kernels'
  // lines at the start of the image).
  std::map<std::string, std::string> aliases;
  CUmodule cu = nullptr;
  std::map<std::string, std::unique_ptr<Function>> functions;
};

struct Function {
  Module *module;
  std::string name;   // as launched: records and messages use it
  std::string symbol; // the code's name in the module (an alias's kernel)
  CUfunction cu = nullptr;
  HostKernel host = nullptr;
  HostPool::BlockTime blockTime; // host: what its blocks last took
  // The dynamic shared memory its launches may take: 48 KiB, until the
  // runtime opts it in to more (cuFuncSetAttribute) at a launch that
  // needs it.
  unsigned sharedLimit = 48 * 1024;
  // CUDA graphs: the parameters' sizes from the PTX (0: not read yet,
  // 1: read, -1: unreadable, never recorded).
  int paramState = 0;
  std::vector<uint16_t> paramSizes;
};

class Runtime {
public:
  static Runtime &get();

  bool init(const std::string &device, std::string &why);
  void ensureInitialized();
  [[noreturn]] void fail(const std::string &message);
  /// Stops the run when a driver call failed, naming it and `what`.
  void check(CUresult result, const char *call, const std::string &what);

  Module *loadModule(const void *image, bool host);
  void unloadModule(Module *module);
  Function *getFunction(Module *module, const char *name);
  void launch(Function *f, const int64_t grid[3], const int64_t block[3],
              unsigned sharedBytes, void **params, size_t paramCount);
  /// Replays a CUDA graph on the runtime's stream, timed as one record
  /// named `name` when profiling (its kernels cannot be timed one by one).
  void launchGraph(CUgraphExec exec, const char *name);

  /// Never null: a failed allocation stops the run, naming the size.
  void *allocate(size_t bytes);
  void release(void *ptr);
  void copy(void *dst, const void *src, size_t bytes, kfuse_record_kind kind);
  void memset32(void *dst, unsigned value, size_t count);
  void memset16(void *dst, unsigned short value, size_t count);
  /// The device copy of the TMA descriptor of the memref `descriptor`
  /// (rank `rank`, MLIR's StridedMemRefType) in boxes of `box` (outermost
  /// first), for mgpuTensorMapEncodeTiledMemref (TensorMaps.cpp): made once
  /// for each buffer and shape, then the same pointer (a graph's replay
  /// reads the same descriptor).
  void *tensorMap(int64_t rank, const void *descriptor, int dataType, int interleave,
                  int swizzle, int l2Promotion, int oobFill, const int64_t *box);
  void synchronize();
  /// A wait compiled code asks for (mgpuStreamSynchronize): none while a
  /// graph call records its work.
  void programSynchronize() {
    if (!graphs.recording())
      synchronize();
  }

  bool cuda = false;
  bool profiling = false;
  std::string description;
  double peakGBps = 0;
  std::vector<kfuse_record> records;
  kfuse_error_handler handler = nullptr;
  std::unique_ptr<CachingAllocator> allocator;
  GraphCache graphs{*this};

private:
  friend class GraphCache;
  bool initCuda(std::string &why);
  void loadPtx(Module *module, const std::string &kernel);
  /// Appends a record. `name` must live as long as the runtime (a kernel's
  /// Function, a string literal, or `names`): no copy on the launch path.
  size_t record(kfuse_record_kind kind, const char *name, uint64_t bytes);
  double hostMicros() const;
  /// CUDA: times records[index] with events around what `issue` enqueues.
  template <typename Issue> void timed(size_t index, Issue issue);

  bool initialized = false;
  CudaDriver driver;
  CUresult lastAllocError = CUDA_SUCCESS; // of the last cuMemAlloc
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  CUevent origin = nullptr;
  // The last start event timed and its time from `origin` in µs: each start
  // is timed from the one before (cuEventElapsedTime gives float ms, whose
  // 24-bit mantissa would round a time from `origin` to ~8 µs after 100 s;
  // an interval between launches keeps its sub-µs digits).
  CUevent anchor = nullptr;
  double anchorUs = 0;
  struct Pending {
    size_t record;
    CUevent start, stop;
  };
  std::vector<Pending> pending;
  std::vector<CUevent> freeEvents;
  std::deque<std::string> names; // record names made at run time
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::unique_ptr<HostPool> pool;
  /// A CUtensorMap (128 bytes, 64-byte aligned) and its device copy.
  struct TensorMap {
    alignas(64) unsigned char bytes[128];
    void *device = nullptr;
  };
  std::map<std::vector<uint64_t>, std::unique_ptr<TensorMap>> tensorMaps;
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_RUNTIME_H
