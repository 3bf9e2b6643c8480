//===- HostPool.h - worker threads for host kernel launches ----*- C++ -*-===//
//
// A launch's blocks run on the calling thread and `threads - 1` workers,
// which take chunks of block indices from a shared counter. Waking the
// workers costs more than a small launch's work (a futex wake and the
// scheduler's latency: tens of µs on a VM), so each launch first decides
// whether they pay, from the time its blocks take as measured on the
// calling thread: a launch whose blocks would gain less from the workers
// than waking them costs runs inline. Workers spin a while (1 ms, bounded)
// after a launch before they sleep, so that back-to-back launches of one
// call, and the calls of a loop, find them awake. A block's work never
// depends on the thread that runs it: results are the same whichever way
// a launch runs.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_HOSTPOOL_H
#define KFUSE_RUNTIME_HOSTPOOL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kfuse::rt {

class HostPool {
public:
  /// What the pool last measured of one kernel's blocks (the caller keeps
  /// one per kernel): ns per block, negative while unknown.
  struct BlockTime {
    double ns = -1;
  };

  /// Throws std::system_error when a thread cannot be started. Workers
  /// spin `spinNs` after a job before they sleep (negative: the default,
  /// 1 ms; HostPool.cpp says why).
  explicit HostPool(unsigned threads, double spinNs = -1);
  ~HostPool();
  /// Runs body(i) for i in [0, count). With `time` (the kernel's), the
  /// decision to wake the workers uses its last measured block time;
  /// without, or while unknown, block 0 runs first on the calling thread,
  /// timed, and decides for the rest.
  void run(int64_t count, const std::function<void(int64_t)> &body,
           BlockTime *time = nullptr);
  unsigned size() const { return static_cast<unsigned>(workers.size()) + 1; }

  /// Launches run on the calling thread alone and spread over the workers
  /// (KFUSE_POOL_STATS prints them at exit).
  std::atomic<uint64_t> inlineRuns{0}, spreadRuns{0};
  /// The cost in ns of handing a launch to the workers: measured at the
  /// start (`base`), learned from the launches spread since (`learned`,
  /// which returns to `base` with a half-life of kHalfLifeNs, so that a
  /// cost learned while the machine was loaded is measured again).
  struct Cost {
    double base = 0, learned = 0;
    std::chrono::steady_clock::time_point at;
    double now(std::chrono::steady_clock::time_point t) const;
    void learn(double observed, std::chrono::steady_clock::time_point t);
  };
  /// While the workers sleep (cold) and while they spin after a launch (hot).
  Cost cold, hot;

private:
  void stop();
  void work();
  /// Runs chunks of the current job until none is left; returns how many
  /// blocks it ran.
  int64_t take();
  /// Runs blocks [first, n) of `f` on every thread and waits for them;
  /// returns how many the calling thread ran, and their time in `callerNs`.
  int64_t spread(int64_t first, int64_t n, const std::function<void(int64_t)> &f,
                 double *callerNs = nullptr);
  void measureWakeCosts();

  const double spinNs;
  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable wake, done;
  std::atomic<uint64_t> generation{0}; // one more per job
  std::atomic<unsigned> pending{0};    // workers not yet through the job
  std::atomic<unsigned> sleeping{0};   // workers blocked on `wake`
  std::atomic<bool> stopping{false};
  // The current job: written before `generation` is raised (release),
  // read by the workers after they see it (acquire).
  const std::function<void(int64_t)> *body = nullptr;
  int64_t count = 0, chunk = 1;
  std::atomic<int64_t> next{0};
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_HOSTPOOL_H
