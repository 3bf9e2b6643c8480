//===- GraphCache.h - CUDA graphs of a function's launches ------*- C++ -*-===//
//
// A call bracketed by kfuse_rt_graph_begin(key) / kfuse_rt_graph_end() is
// replayed as one CUDA graph once its key (kfuse-run: the function, its
// version and the argument sizes) has been seen before.
//
// Design. The compiled host code runs on every call: it allocates its
// results and intermediates (the caching allocator hands back the same
// buffers in a steady state) and returns the result descriptors, which
// only it can compute. What changes is where its device work goes:
//  - the first call of a key runs as without graphs (launch by launch,
//    each timed): it loads and JIT-compiles the PTX, and fills the
//    allocator's cache;
//  - later calls *record* each launch, memset and device copy (kernel,
//    geometry, the argument values copied by the sizes the PTX's .entry
//    declares) instead of issuing it. At kfuse_rt_graph_end() the record is
//    compared with the one the key's graph was captured from: equal, the
//    graph is replayed with one cuGraphLaunch; different (other buffers,
//    or other work), the record is captured again (cuStreamBeginCapture,
//    the recorded calls, cuStreamEndCapture) and the executable graph is
//    updated in place with cuGraphExecUpdate, or instantiated anew when
//    the update is refused.
// So no allocation ever happens while the stream captures (capture only
// spans the recorded driver calls, after the host code has allocated), and
// pointers are part of what is compared: a graph never runs on buffers
// other than this call's. Deferring is safe because everything goes to
// one stream in order; what must not wait is flushed first: a stream
// synchronize inside the call (the host may read device memory next),
// a copy from or to the host, and a buffer the allocator gives back to
// the driver. A call that flushed runs uncaptured, as do calls of a key
// that synchronized inside a call (kernels that need the host between
// them cannot be one graph).
//
// A failed capture or instantiation is not an error: the recorded calls
// are issued one by one, one warning names the CUDA error, and graphs stay
// off for the rest of the process. A failed replay stops the run, naming
// the graph's key and the error, as a failed launch does.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_GRAPHCACHE_H
#define KFUSE_RUNTIME_GRAPHCACHE_H

#include "CudaDriver.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kfuse::rt {

class Runtime;
struct Function;

/// The sizes of kernel `name`'s parameters, from its `.entry` in `ptx`;
/// false when the PTX has no such entry or a parameter it cannot size.
bool ptxParamSizes(const char *ptx, const std::string &name, std::vector<uint16_t> &sizes);

/// The device work of one call, in issue order.
struct GraphRecord {
  struct Op {
    enum Kind : uint32_t { Launch, Memset32, Memset16, Copy } kind;
    uint32_t smem = 0;
    Function *function = nullptr;
    uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    uint64_t dst = 0, src = 0, count = 0; // memset: src is the value
    uint32_t paramBegin = 0, paramCount = 0; // into `params`
  };
  std::vector<Op> ops;
  std::vector<uint32_t> params;      // each parameter's offset in `values`
  std::vector<unsigned char> values; // the argument values, 8-byte aligned

  void clear() {
    ops.clear();
    params.clear();
    values.clear();
  }
  bool operator==(const GraphRecord &other) const;
};

class GraphCache {
public:
  enum class Mode { Off, On, Auto };
  explicit GraphCache(Runtime &runtime) : rt(runtime) {}

  /// "on", "off" or "auto"; false for another word.
  bool setMode(const std::string &word);
  Mode mode = Mode::Off;
  bool modeSet = false; // by kfuse_rt_set_cuda_graphs, over KFUSE_CUDA_GRAPHS

  void begin(const char *key);
  void end();
  /// True while a call's device work is being recorded.
  bool recording() const { return current != nullptr && deferring; }
  /// Records a launch; false when it cannot be recorded (its parameters
  /// cannot be sized): then everything recorded so far has been issued and
  /// the caller issues the launch itself.
  bool recordLaunch(Function *f, const int64_t grid[3], const int64_t block[3],
                    unsigned smem, void **params, size_t paramCount);
  void recordMemset(GraphRecord::Op::Kind kind, uint64_t dst, uint64_t value, uint64_t count);
  void recordCopy(uint64_t dst, uint64_t src, uint64_t bytes);
  /// Issues what was recorded, uncaptured; this call then runs without a
  /// graph. `keyCannotCapture`: never capture this key again (`why`).
  void flush(bool keyCannotCapture, const char *why);

  uint64_t captures = 0, updates = 0, replays = 0, uncaptured = 0;
  /// Why graphs are off after a failure (empty while none happened).
  std::string note;

private:
  struct Entry {
    std::string key;
    const char *name = nullptr; // the replay's record name (Runtime::names)
    unsigned calls = 0;
    bool noCapture = false; // synchronizes inside a call
    GraphRecord record;     // what `exec` was captured from
    CUgraphExec exec = nullptr;
  };
  bool active();
  CUresult issue(const GraphRecord &r, const char **failedCall);
  void fallBack(const std::string &what, CUresult result);
  void capture(Entry &e);

  Runtime &rt;
  std::map<std::string, Entry> entries;
  Entry *current = nullptr;
  bool deferring = false;
  GraphRecord scratch; // this call's record
  std::vector<void *> pointers; // argument pointers while issuing
  bool warnedMissing = false;
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_GRAPHCACHE_H
