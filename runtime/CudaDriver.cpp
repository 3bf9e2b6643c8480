//===- CudaDriver.cpp - resolving the driver's calls with dlsym -----------===//
#include "CudaDriver.h"

#include "ElfCheck.h"

#include <dlfcn.h>

namespace kfuse::rt {

namespace {
template <typename Fn>
bool resolve(void *library, const char *symbol, Fn &fn, std::string &why) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (!fn)
    why = std::string("the CUDA driver has no ") + symbol;
  return fn != nullptr;
}
} // namespace

bool CudaDriver::load(const std::string &path, std::string &why) {
  // A path (not a name the loader searches for) is checked first: a
  // truncated file would kill the process inside dlopen.
  std::string bad;
  if (path.find('/') != std::string::npos && !checkElfFile(path, bad)) {
    why = "no CUDA driver: cannot open " + path + " (" + bad + ")";
    return false;
  }
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    why = "no CUDA driver: cannot open " + path + (error ? std::string(" (") + error + ")" : "");
    return false;
  }
  // The graph calls by their exported names (cuda.h maps cuStreamBeginCapture
  // to cuStreamBeginCapture_v2, cuGraphInstantiate to ...WithFlags,
  // cuGraphExecUpdate to ..._v2); missing ones only turn graphs off.
  hasGraphs =
      resolve(library, "cuStreamBeginCapture_v2", cuStreamBeginCapture, graphsWhy) &&
      resolve(library, "cuStreamEndCapture", cuStreamEndCapture, graphsWhy) &&
      resolve(library, "cuGraphInstantiateWithFlags", cuGraphInstantiateWithFlags, graphsWhy) &&
      resolve(library, "cuGraphExecUpdate_v2", cuGraphExecUpdate, graphsWhy) &&
      resolve(library, "cuGraphLaunch", cuGraphLaunch, graphsWhy) &&
      resolve(library, "cuGraphDestroy", cuGraphDestroy, graphsWhy) &&
      resolve(library, "cuGraphExecDestroy", cuGraphExecDestroy, graphsWhy);
  resolve(library, "cuTensorMapEncodeTiled", cuTensorMapEncodeTiled, tensorMapsWhy);
  return resolve(library, "cuInit", cuInit, why) &&
         resolve(library, "cuDriverGetVersion", cuDriverGetVersion, why) &&
         resolve(library, "cuDeviceGetCount", cuDeviceGetCount, why) &&
         resolve(library, "cuDeviceGet", cuDeviceGet, why) &&
         resolve(library, "cuDeviceGetName", cuDeviceGetName, why) &&
         resolve(library, "cuDeviceGetAttribute", cuDeviceGetAttribute, why) &&
         resolve(library, "cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, why) &&
         resolve(library, "cuCtxSetCurrent", cuCtxSetCurrent, why) &&
         resolve(library, "cuModuleLoadDataEx", cuModuleLoadDataEx, why) &&
         resolve(library, "cuModuleUnload", cuModuleUnload, why) &&
         resolve(library, "cuModuleGetFunction", cuModuleGetFunction, why) &&
         resolve(library, "cuFuncSetAttribute", cuFuncSetAttribute, why) &&
         resolve(library, "cuLaunchKernel", cuLaunchKernel, why) &&
         resolve(library, "cuStreamCreate", cuStreamCreate, why) &&
         resolve(library, "cuStreamSynchronize", cuStreamSynchronize, why) &&
         resolve(library, "cuEventCreate", cuEventCreate, why) &&
         resolve(library, "cuEventRecord", cuEventRecord, why) &&
         resolve(library, "cuEventSynchronize", cuEventSynchronize, why) &&
         resolve(library, "cuEventElapsedTime", cuEventElapsedTime, why) &&
         resolve(library, "cuMemAlloc_v2", cuMemAlloc, why) &&
         resolve(library, "cuMemFree_v2", cuMemFree, why) &&
         resolve(library, "cuMemcpyAsync", cuMemcpyAsync, why) &&
         resolve(library, "cuMemsetD32Async", cuMemsetD32Async, why) &&
         resolve(library, "cuMemsetD16Async", cuMemsetD16Async, why) &&
         resolve(library, "cuGetErrorName", cuGetErrorName, why) &&
         resolve(library, "cuGetErrorString", cuGetErrorString, why);
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

} // namespace kfuse::rt
