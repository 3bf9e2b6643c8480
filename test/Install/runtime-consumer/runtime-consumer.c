/* Calls the installed runtime's C API on the host CPU: a copy through
 * device memory and back (test/Install/consumer.test). */
#include <kfuse/runtime.h>

#include <stdio.h>

int main(void) {
  char why[256] = "";
  if (kfuse_rt_init("cpu", why, sizeof(why)) != 0) {
    fprintf(stderr, "kfuse_rt_init: %s\n", why);
    return 1;
  }
  float in[4] = {1.5f, -2.0f, 3.25f, 4.0f}, out[4] = {0, 0, 0, 0};
  void *buffer = kfuse_rt_alloc(sizeof(in));
  if (!buffer)
    return 1;
  kfuse_rt_copy_to_device(buffer, in, sizeof(in));
  kfuse_rt_copy_to_host(out, buffer, sizeof(out));
  kfuse_rt_synchronize();
  kfuse_rt_free(buffer);
  printf("cuda %d, copied back %g %g %g %g\n", kfuse_rt_is_cuda(), out[0], out[1],
         out[2], out[3]);
  return 0;
}
