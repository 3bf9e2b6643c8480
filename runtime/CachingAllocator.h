//===- CachingAllocator.h - reuse of device buffers -------------*- C++ -*-===//
//
// A program allocates the same sizes on every call; freed buffers are kept
// by size and handed out again, so that a steady state does no driver
// allocation at all. All work is on one stream, so a buffer freed after a
// launch may be reused by the next one on that stream.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_CACHINGALLOCATOR_H
#define KFUSE_RUNTIME_CACHINGALLOCATOR_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace kfuse::rt {

class CachingAllocator {
public:
  using RawAlloc = std::function<void *(size_t)>;
  explicit CachingAllocator(RawAlloc raw) : raw(std::move(raw)) {}

  /// At least `bytes` (rounded up to 256), 256-byte aligned or better.
  void *allocate(size_t bytes);
  /// Returns false when `ptr` did not come from allocate().
  bool release(void *ptr);

  uint64_t driverAllocations = 0, cacheHits = 0;

private:
  RawAlloc raw;
  std::unordered_map<size_t, std::vector<void *>> cached;
  std::unordered_map<void *, size_t> sizes; // live buffers
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_CACHINGALLOCATOR_H
