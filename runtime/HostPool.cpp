//===- HostPool.cpp - worker threads for host kernel launches -------------===//
#include "HostPool.h"

#include <algorithm>

namespace kfuse::rt {

HostPool::HostPool(unsigned threads) {
  try {
    for (unsigned i = 1; i < std::max(threads, 1u); ++i)
      workers.emplace_back([this] { work(); });
  } catch (...) {
    // The system would not start one more thread: those started are
    // stopped (a joinable std::thread destroyed would terminate).
    stop();
    throw;
  }
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

void HostPool::take() {
  for (;;) {
    int64_t begin = next.fetch_add(chunk);
    if (begin >= count)
      return;
    for (int64_t i = begin, end = std::min(begin + chunk, count); i < end; ++i)
      (*body)(i);
  }
}

void HostPool::work() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return stopping || generation != seen; });
      if (stopping)
        return;
      seen = generation;
    }
    take();
    std::lock_guard<std::mutex> lock(mutex);
    if (--busy == 0)
      done.notify_one();
  }
}

void HostPool::run(int64_t n, const std::function<void(int64_t)> &f) {
  if (n <= 1 || workers.empty()) {
    for (int64_t i = 0; i < n; ++i)
      f(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    body = &f;
    count = n;
    // Several chunks per thread balance uneven blocks; at least one block.
    chunk = std::max<int64_t>(1, n / (int64_t(size()) * 8));
    next = 0;
    busy = static_cast<unsigned>(workers.size());
    ++generation;
  }
  wake.notify_all();
  take();
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, [&] { return busy == 0; });
}

} // namespace kfuse::rt
