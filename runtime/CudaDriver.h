//===- CudaDriver.h - the CUDA driver API, opened at run time ---*- C++ -*-===//
//
// The runtime never links libcuda: it is opened with dlopen so that kfuse
// builds, runs (on the CPU) and is tested where no driver exists. Only the
// types and calls the runtime uses are declared here, with the driver's ABI
// (the `_v2` symbols are the current versions of those calls).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_CUDADRIVER_H
#define KFUSE_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace kfuse::rt {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
using CUgraphNode = struct CUgraphNode_st *;
/// cuda.h's CUgraphExecUpdateResultInfo (cuGraphExecUpdate_v2 fills it).
struct CUgraphExecUpdateResultInfo {
  int result;
  CUgraphNode errorNode, errorFromNode;
};

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

/// The driver's entry points, null until load() succeeds.
struct CudaDriver {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int *) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (8): a kernel that
  // takes more than 48 KiB of dynamic shared memory must be opted in.
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;

  // CUDA graphs (GraphCache.h): optional. A driver without one of them
  // (older than CUDA 12, or a test's fake driver told to hide them) runs
  // every call's launches one by one; `graphsWhy` says which is missing.
  CUresult (*cuStreamBeginCapture)(CUstream, int mode) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long) = nullptr;
  CUresult (*cuGraphExecUpdate)(CUgraphExec, CUgraph, CUgraphExecUpdateResultInfo *) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  bool hasGraphs = false;
  std::string graphsWhy;
  // The Tensor Memory Accelerator's descriptors (CUDA 12 and later):
  // optional, needed by sm_90a matmuls only; `tensorMapsWhy` says why not.
  CUresult (*cuTensorMapEncodeTiled)(void *map, int dataType, unsigned rank, void *address,
                                     const uint64_t *dims, const uint64_t *strides,
                                     const unsigned *box, const unsigned *elementStrides,
                                     int interleave, int swizzle, int l2Promotion,
                                     int oobFill) = nullptr;
  std::string tensorMapsWhy;

  /// Opens `path` (libcuda.so.1 by default) and resolves every call; on
  /// failure says why in `why`.
  bool load(const std::string &path, std::string &why);

  /// "CUDA_ERROR_X (the driver's description)".
  std::string describe(CUresult result) const;
};

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_CUDADRIVER_H
