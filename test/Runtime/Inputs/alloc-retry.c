/* The runtime's C API, in an order no single kfuse-run call produces:
 * a buffer of 4096 bytes is freed (the caching allocator keeps it, still
 * allocated from the driver), then one of 8192 bytes is asked for. With
 * a device of 8192 bytes (the fake driver's KFUSE_FAKE_CUDA_MEMORY), the
 * driver has room for it only once the cached buffer is given back. */
#include "kfuse/runtime.h"

#include <stdio.h>

int main(void) {
  char why[512];
  if (kfuse_rt_init("cuda", why, sizeof(why)) != 0) {
    fprintf(stderr, "alloc-retry: no device: %s\n", why);
    return 2;
  }
  void *small = kfuse_rt_alloc(4096);
  kfuse_rt_free(small);
  void *large = kfuse_rt_alloc(8192);
  uint64_t driver = 0, hits = 0;
  kfuse_rt_allocator_stats(&driver, &hits);
  printf("alloc-retry: %s; %llu driver allocations, %llu cache hits\n",
         large ? "allocated" : "null", (unsigned long long)driver, (unsigned long long)hits);
  return 0;
}
