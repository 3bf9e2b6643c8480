/* A library that kfuse-run takes for one from kfuse-compile --emit=lib:
 * the manifest and the C interface of one function, NAME(x: tensor<4xf32>)
 * -> tensor<4xf32>, which returns its argument (a view, nothing allocated).
 * Built by the tests with `cc -shared`, to give kfuse-run what kfuse-compile
 * never writes:
 *   -DNAME=f             the function's name (default: ident);
 *   -DNULL_RESULT        the result descriptor holds null pointers;
 *   -include FILE        FILE defines MANIFEST, the manifest's text. */
#include <stdint.h>

#ifndef NAME
#define NAME ident
#endif
#define TEXT(x) #x
#define STR(x) TEXT(x)
#define PASTE(a, b, c) a##b##c
#define ENTRY(name, variant) PASTE(_mlir_ciface_, name, variant)

#define VARIANT "{\"kernels\": [], \"symbols\": [], \"gpu\": false, \"gpu_error\": \"no GPU code\"}"
#ifndef MANIFEST
#define MANIFEST                                                                  \
  "{\"kfuse_manifest\": 1, \"chip\": \"sm_75\", \"functions\": [{\"name\": \"" STR(NAME) \
  "\", \"args\": [{\"dtype\": \"f32\", \"shape\": [4]}], "                        \
  "\"results\": [{\"dtype\": \"f32\", \"shape\": [4]}], "                         \
  "\"variants\": {\"fused\": " VARIANT ", \"eager\": " VARIANT "}}]}"
#endif

const char kfuse_manifest[] = MANIFEST;

struct Descriptor {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

static void run(struct Descriptor *result, const struct Descriptor *x) {
  *result = *x;
#ifdef NULL_RESULT
  result->allocated = 0;
  result->aligned = 0;
#endif
}

void ENTRY(NAME, __host_fused)(struct Descriptor *result, struct Descriptor *x) {
  run(result, x);
}
void ENTRY(NAME, __host_eager)(struct Descriptor *result, struct Descriptor *x) {
  run(result, x);
}
