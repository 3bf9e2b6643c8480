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
  /// Allocates from the driver (or the host); null when it cannot.
  using RawAlloc = std::function<void *(size_t)>;
  /// Gives a buffer back to the driver.
  using RawFree = std::function<void(void *)>;
  CachingAllocator(RawAlloc raw, RawFree rawFree)
      : raw(std::move(raw)), rawFree(std::move(rawFree)) {}

  /// At least `bytes` (rounded up to 256), 256-byte aligned or better;
  /// null when neither the cache nor the driver has it. When the driver
  /// is out of memory, the cached buffers (which only this allocator can
  /// reuse, and only at their sizes) are given back to it and the
  /// allocation is tried once more.
  void *allocate(size_t bytes);
  /// Returns false when `ptr` did not come from allocate().
  bool release(void *ptr);

  uint64_t driverAllocations = 0, cacheHits = 0;

private:
  /// Gives every cached buffer back to the driver; false when none was.
  bool releaseCache();

  RawAlloc raw;
  RawFree rawFree;
  std::unordered_map<size_t, std::vector<void *>> cached;
  std::unordered_map<void *, size_t> sizes; // live buffers
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_CACHINGALLOCATOR_H
