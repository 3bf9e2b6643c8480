//===- HostPool.cpp - worker threads for host kernel launches -------------===//
#include "HostPool.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace kfuse::rt {

namespace {
using Clock = std::chrono::steady_clock;

double nanosSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

/// How long a worker spins for the next job after one, and the caller for
/// the workers to finish, before sleeping, unless KFUSE_POOL_SPIN_US says
/// otherwise: long enough to span the gap between the launches of one
/// call and between the calls of a loop (a torch.compile call spends about
/// 0.13 ms in Dynamo before its graph runs), short enough that an idle pool
/// stops burning its cores soon (libgomp spins about 0.3 ms to a few ms,
/// Intel's OpenMP 200 ms). At 0.1 ms the workers slept between every two
/// calls of a compiled model, and each call woke them with a futex: on the
/// 2-core VM kfuse was measured on, MLP-Mixer's 20-call rounds then took
/// 0.75-1.74 ms a call on 2 threads, slower than on one (0.84-1.21), where
/// they take 0.49-0.85 ms spinning 1 ms (bench/zoo_cpu.py's pauses between
/// rounds; the scheduler, waking a sleeping worker, may place it beside
/// its waker on one core).
constexpr double kDefaultSpinNs = 1e6;

/// Bounds of the costs of waking the workers: below, a measurement's noise;
/// above, a start on a loaded machine (workers not scheduled for a while)
/// would keep the large launches that follow on one thread.
constexpr double kMinCostNs = 0.5e3, kMaxCostNs = 200e3;
/// How fast a learned cost returns to the one measured at the start: a
/// launch that stays on one thread because of a cost learned under a load
/// that has passed is spread again, and measured, within ~0.1 s.
constexpr double kHalfLifeNs = 30e6;

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Spins until ready() or spinNs have passed; returns ready(). After 256
/// pauses (a few µs) it yields the core at each turn: when the thread it waits for
/// shares its core (more threads than cores: a loaded machine), spinning
/// alone would hold that thread off for the whole spin (measured: every
/// launch then took two spins, 200 µs, where it takes 1-20).
template <typename Ready> bool spinUntil(double spinNs, Ready ready) {
  for (int i = 0; i < 256; ++i) {
    if (ready())
      return true;
    cpuRelax();
  }
  Clock::time_point start = Clock::now();
  do {
    std::this_thread::yield();
    if (ready())
      return true;
  } while (nanosSince(start) < spinNs);
  return ready();
}
} // namespace

HostPool::HostPool(unsigned threads, double spin)
    : spinNs(spin < 0 ? kDefaultSpinNs : spin) {
  try {
    for (unsigned i = 1; i < std::max(threads, 1u); ++i)
      workers.emplace_back([this] { work(); });
  } catch (...) {
    // The system would not start one more thread: those started are
    // stopped (a joinable std::thread destroyed would terminate).
    stop();
    throw;
  }
  measureWakeCosts();
}

HostPool::~HostPool() { stop(); }

void HostPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &t : workers)
    t.join();
  workers.clear();
}

/// The costs start as measured here, on this machine, rather than assumed
/// (on the 2-core VM kfuse was measured on: ~22 µs asleep, a futex wake-up
/// and an idle virtual CPU's start; 1-20 µs spinning, as other programs
/// leave a core free or not): the round trip of an empty job, the median of
/// three. Each process pays it once at the start (about 3 spins: 3.5 ms
/// by default, as the workers must fall asleep before each round). run() then
/// learns them from its launches.
void HostPool::measureWakeCosts() {
  if (workers.empty())
    return;
  std::function<void(int64_t)> nothing = [](int64_t) {};
  double coldNs[3], hotNs[3];
  for (int round = 0; round < 3; ++round) {
    // The workers sleep once they have spun for spinNs.
    Clock::time_point start = Clock::now();
    while (sleeping.load() < workers.size() && nanosSince(start) < 20 * spinNs + 1e6)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    start = Clock::now();
    spread(0, size(), nothing);
    coldNs[round] = nanosSince(start);
    start = Clock::now();
    spread(0, size(), nothing);
    hotNs[round] = nanosSince(start);
  }
  std::sort(coldNs, coldNs + 3);
  std::sort(hotNs, hotNs + 3);
  cold.base = cold.learned = std::clamp(coldNs[1], kMinCostNs, kMaxCostNs);
  hot.base = hot.learned = std::clamp(hotNs[1], kMinCostNs, kMaxCostNs);
  cold.at = hot.at = Clock::now();
}

double HostPool::Cost::now(Clock::time_point t) const {
  double age = std::chrono::duration<double, std::nano>(t - at).count();
  return base + (learned - base) * std::exp2(-age / kHalfLifeNs);
}

void HostPool::Cost::learn(double observed, Clock::time_point t) {
  double current = now(t);
  learned = std::clamp(current + 0.25 * (observed - current), kMinCostNs, kMaxCostNs);
  at = t;
}

int64_t HostPool::take() {
  int64_t ran = 0;
  for (;;) {
    int64_t begin = next.fetch_add(chunk);
    if (begin >= count)
      return ran;
    int64_t end = std::min(begin + chunk, count);
    for (int64_t i = begin; i < end; ++i)
      (*body)(i);
    ran += end - begin;
  }
}

void HostPool::work() {
  uint64_t seen = 0;
  // Sequentially consistent, as the caller's raise of `generation` and
  // read of `sleeping` (see below).
  auto ready = [&] {
    return generation.load() != seen ||
           stopping.load(std::memory_order_relaxed);
  };
  for (;;) {
    if (!spinUntil(spinNs, ready)) {
      std::unique_lock<std::mutex> lock(mutex);
      // Counted under the lock before the predicate is read: a caller that
      // raises `generation` and reads 0 here finds the worker awake (it
      // reads the new generation); one that reads 1 notifies under the lock.
      sleeping.fetch_add(1);
      wake.wait(lock, ready);
      sleeping.fetch_sub(1);
    }
    if (stopping.load())
      return;
    seen = generation.load(std::memory_order_acquire);
    take();
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex);
      done.notify_one();
    }
  }
}

int64_t HostPool::spread(int64_t first, int64_t n, const std::function<void(int64_t)> &f,
                         double *callerNs) {
  body = &f;
  count = n;
  // Several chunks per thread balance uneven blocks; at least one block.
  chunk = std::max<int64_t>(1, (n - first) / (int64_t(size()) * 8));
  next.store(first, std::memory_order_relaxed);
  pending.store(unsigned(workers.size()), std::memory_order_relaxed);
  generation.fetch_add(1); // sequentially consistent: see work()
  if (sleeping.load() > 0) {
    { std::lock_guard<std::mutex> lock(mutex); }
    wake.notify_all();
  }
  Clock::time_point start = Clock::now();
  int64_t ran = take();
  if (callerNs)
    *callerNs = nanosSince(start);
  auto finished = [&] { return pending.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(spinNs, finished)) {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, finished);
  }
  return ran;
}

void HostPool::run(int64_t n, const std::function<void(int64_t)> &f, BlockTime *time) {
  if (n <= 1 || workers.empty()) {
    for (int64_t i = 0; i < n; ++i)
      f(i);
    inlineRuns.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  int64_t first = 0;
  double perBlock = time ? time->ns : -1;
  if (perBlock < 0) {
    // Unknown: block 0 runs here, timed, and stands for the others.
    Clock::time_point start = Clock::now();
    f(0);
    perBlock = nanosSince(start);
    first = 1;
  }
  // What the workers would save: the rest's time on this thread less its
  // time spread over the threads; they are woken when that exceeds what
  // waking them costs (more while they sleep than while they spin).
  int64_t rest = n - first;
  double alone = perBlock * double(rest);
  double ideal = alone / double(std::min<int64_t>(size(), rest));
  Cost &cost = sleeping.load(std::memory_order_relaxed) ? cold : hot;
  Clock::time_point start = Clock::now();
  if (alone - ideal <= cost.now(start)) {
    for (int64_t i = first; i < n; ++i)
      f(i);
    if (time)
      time->ns = nanosSince(start) / double(rest);
    inlineRuns.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  double callerNs = 0;
  int64_t ran = spread(first, n, f, &callerNs);
  // The cost is learned from what spreading took beyond the ideal: the
  // wake-up, the scheduler (a worker that shares a core with another
  // program, or with this thread), and the blocks' contention for memory
  // bandwidth, which the round trip of an empty job does not show.
  cost.learn(nanosSince(start) - ideal, start);
  // The blocks this thread ran, timed without the wait for the others.
  if (time)
    time->ns = ran > 0 ? callerNs / double(ran) : perBlock;
  spreadRuns.fetch_add(1, std::memory_order_relaxed);
}

} // namespace kfuse::rt
