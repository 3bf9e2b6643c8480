/* A library that kfuse-run takes for one from kfuse-compile --emit=lib,
 * whose fused and eager versions disagree: f(x: tensor<4xf32>) returns x
 * (fused) or x zeroed (eager, the reference of --check). Where the
 * reference is 0 and the result is not, the relative error is infinite:
 * the JSON report must say null, not `inf`. */
#include <stdint.h>

#define VARIANT "{\"kernels\": [], \"symbols\": [], \"gpu\": false, \"gpu_error\": \"no GPU code\"}"
const char kfuse_manifest[] =
    "{\"kfuse_manifest\": 1, \"chip\": \"sm_75\", \"functions\": [{\"name\": \"f\", "
    "\"args\": [{\"dtype\": \"f32\", \"shape\": [4]}], "
    "\"results\": [{\"dtype\": \"f32\", \"shape\": [4]}], "
    "\"variants\": {\"fused\": " VARIANT ", \"eager\": " VARIANT "}}]}";

struct Descriptor {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

void _mlir_ciface_f__host_fused(struct Descriptor *result, struct Descriptor *x) {
  *result = *x;
}
void _mlir_ciface_f__host_eager(struct Descriptor *result, struct Descriptor *x) {
  float *data = (float *)x->aligned + x->offset;
  for (int64_t i = 0; i < x->size; ++i)
    data[i * x->stride] = 0;
  *result = *x;
}
