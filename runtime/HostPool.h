//===- HostPool.h - worker threads for host kernel launches ----*- C++ -*-===//
#ifndef KFUSE_RUNTIME_HOSTPOOL_H
#define KFUSE_RUNTIME_HOSTPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kfuse::rt {

/// Runs body(i) for i in [0, count) on every core: the calling thread and
/// `threads - 1` workers take chunks of indices from a shared counter.
class HostPool {
public:
  /// Throws std::system_error when a thread cannot be started.
  explicit HostPool(unsigned threads);
  ~HostPool();
  void run(int64_t count, const std::function<void(int64_t)> &body);
  unsigned size() const { return static_cast<unsigned>(workers.size()) + 1; }

private:
  void stop();
  void work();
  void take(); // runs chunks of the current job until none is left

  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable wake, done;
  uint64_t generation = 0;
  unsigned busy = 0;
  bool stopping = false;
  const std::function<void(int64_t)> *body = nullptr;
  int64_t count = 0, chunk = 1;
  std::atomic<int64_t> next{0};
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_HOSTPOOL_H
