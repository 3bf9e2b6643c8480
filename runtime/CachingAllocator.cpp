//===- CachingAllocator.cpp - reuse of device buffers ---------------------===//
#include "CachingAllocator.h"

#include <cstdint>
#include <functional>

namespace kfuse::rt {

void *CachingAllocator::allocate(size_t bytes) {
  // Zero-sized tensors still get a distinct, valid buffer; a size that
  // would wrap when rounded up is one no driver has.
  if (bytes > SIZE_MAX - 255)
    return nullptr;
  size_t size = bytes == 0 ? 256 : (bytes + 255) / 256 * 256;
  void *ptr = nullptr;
  auto it = cached.find(size);
  if (it != cached.end() && !it->second.empty()) {
    // The lowest address of the size, not the last freed: a call then gets
    // the same buffers whenever it starts with the same ones cached, in
    // whatever order its last run freed them, so that a CUDA graph
    // captured from one call matches the next (GraphCache.h).
    std::vector<void *> &free = it->second;
    size_t lowest = 0;
    for (size_t i = 1; i < free.size(); ++i)
      if (std::less<void *>()(free[i], free[lowest]))
        lowest = i;
    ptr = free[lowest];
    free[lowest] = free.back();
    free.pop_back();
    ++cacheHits;
  } else {
    ptr = raw(size);
    if (!ptr && releaseCache())
      ptr = raw(size);
    if (!ptr)
      return nullptr;
    ++driverAllocations;
  }
  sizes[ptr] = size;
  return ptr;
}

bool CachingAllocator::releaseCache() {
  bool any = false;
  for (auto &[size, buffers] : cached) {
    for (void *ptr : buffers)
      rawFree(ptr);
    any |= !buffers.empty();
  }
  cached.clear();
  return any;
}

bool CachingAllocator::release(void *ptr) {
  auto it = sizes.find(ptr);
  if (it == sizes.end())
    return false;
  cached[it->second].push_back(ptr);
  sizes.erase(it);
  return true;
}

} // namespace kfuse::rt
