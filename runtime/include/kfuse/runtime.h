/*===- runtime.h - the kfuse runtime's C API -------------------------------===*
 *
 * The runtime runs what kfuse-compile produces: it implements the mgpu*
 * entry points that MLIR's gpu-to-llvm emits (module load, launch, streams,
 * memory) over the CUDA driver API, opened with dlopen at run time, or over
 * the host CPU (the same kernels compiled for the host, blocks spread over
 * the cores). It needs neither MLIR nor LLVM. This header is what a program
 * that calls compiled kfuse code (kfuse-run) uses besides the entry points.
 *
 *===----------------------------------------------------------------------===*/
#ifndef KFUSE_RUNTIME_H
#define KFUSE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chooses the device: "cuda", "cpu" or "auto" (cuda when a driver and a
 * device are found, else cpu). Returns 0 on success; on failure (or, for
 * "auto", on falling back to the CPU) writes the reason to `why`. The
 * driver library is libcuda.so.1, or the path in KFUSE_CUDA_DRIVER. */
int kfuse_rt_init(const char *device, char *why, size_t why_size);
/* 1 when kernels run on a CUDA device, 0 on the host CPU. */
int kfuse_rt_is_cuda(void);
/* One line: the device's name and what kfuse knows of it. */
const char *kfuse_rt_device_description(void);
/* The device memory's peak bandwidth in GB/s (1e9 bytes/s), 0 if unknown. */
double kfuse_rt_peak_gbps(void);

/* Device memory (host memory on the CPU), from the caching allocator. */
void *kfuse_rt_alloc(size_t bytes);
void kfuse_rt_free(void *ptr);
void kfuse_rt_copy_to_device(void *dst, const void *src, size_t bytes);
void kfuse_rt_copy_to_host(void *dst, const void *src, size_t bytes);
void kfuse_rt_copy_on_device(void *dst, const void *src, size_t bytes);
/* Waits for all work on the runtime's stream. */
void kfuse_rt_synchronize(void);

/* With profiling on, every launch and copy is timed (CUDA events on a
 * GPU); launches are always counted. */
void kfuse_rt_set_profiling(int on);

enum kfuse_record_kind {
  KFUSE_RECORD_LAUNCH = 0,
  KFUSE_RECORD_COPY_TO_DEVICE = 1,
  KFUSE_RECORD_COPY_TO_HOST = 2,
  KFUSE_RECORD_COPY_ON_DEVICE = 3,
  KFUSE_RECORD_MODULE_LOAD = 4,
  /* One cuGraphLaunch of a call's captured graph (name: "cuda graph
   * (KEY)"); its launches are recorded too, untimed (duration_us -1). */
  KFUSE_RECORD_GRAPH_REPLAY = 5,
};
typedef struct kfuse_record {
  int kind;            /* enum kfuse_record_kind */
  const char *name;    /* kernel name, or a description of the copy */
  double start_us;     /* from kfuse_rt_init, on the device's clock */
  double duration_us;  /* -1 when not timed */
  uint64_t bytes;      /* copies: bytes copied */
  int64_t grid[3], block[3];
} kfuse_record;

/* Records since the last reset, in issue order (call after synchronize). */
size_t kfuse_rt_record_count(void);
int kfuse_rt_get_record(size_t index, kfuse_record *out);
void kfuse_rt_reset_records(void);

/* Allocator statistics: buffers obtained from the driver and requests
 * served from the cache. */
void kfuse_rt_allocator_stats(uint64_t *driver_allocations, uint64_t *cache_hits);

/* CUDA graphs. A call of compiled code between kfuse_rt_graph_begin(KEY)
 * and kfuse_rt_graph_end() is run as a CUDA graph from the second call with
 * the same KEY on: the first runs launch by launch (PTX JIT, allocator
 * cache), later ones record their launches, capture them once into a graph
 * and replay it with one cuGraphLaunch while the launches (kernels,
 * geometry, argument values, buffers) are those captured; otherwise they
 * are captured again and the executable graph updated (cuGraphExecUpdate).
 * KEY names the call (the function and the argument sizes, say); it is
 * how the runtime tells calls apart, never trusted for equality. Mode
 * "off" (default; also KFUSE_CUDA_GRAPHS=off), "on" (warns once when the
 * driver has no graph calls), "auto" (silently off then). Returns 1 for
 * another word. On the CPU, or while the mode is off, begin and end do
 * nothing. A failed capture or instantiation warns once and the launches
 * run one by one; a failed replay stops the run as a failed launch does. */
int kfuse_rt_set_cuda_graphs(const char *mode);
void kfuse_rt_graph_begin(const char *key);
void kfuse_rt_graph_end(void);
typedef struct kfuse_graph_stats {
  uint64_t captures;   /* graphs captured (new keys, changed launches) */
  uint64_t updates;    /* of which updated an executable graph in place */
  uint64_t replays;    /* calls replayed without capture */
  uint64_t uncaptured; /* graph calls run launch by launch (first calls) */
} kfuse_graph_stats;
void kfuse_rt_graph_stats(kfuse_graph_stats *out);
/* Why graphs went off during the run (a capture or instantiation that
 * failed, with the CUDA error), or "" while they did not. */
const char *kfuse_rt_graph_note(void);

/* A failed driver call stops the run: the handler gets the message (the
 * call, the CUDA error name and string, the kernel); the default prints it
 * to stderr and exits with status 1. A handler must not return. */
typedef void (*kfuse_error_handler)(const char *message);
void kfuse_rt_set_error_handler(kfuse_error_handler handler);

#ifdef __cplusplus
}
#endif

#endif /* KFUSE_RUNTIME_H */
