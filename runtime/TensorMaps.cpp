//===- TensorMaps.cpp - TMA descriptors for compiled code -----------------===//
//
// mgpuTensorMapEncodeTiledMemref (nvgpu.tma.create.descriptor's call, as
// upstream's CUDA runtime wrappers define it): the CUtensorMap of a memref
// through the driver's cuTensorMapEncodeTiled, copied to device memory,
// where the kernel reads it. Upstream's wrapper makes and copies a new one
// at every call and never frees it; here one is made for each buffer,
// shape and box and reused, so that a steady state copies nothing (and a
// CUDA graph call stays capturable: a copy from the host would run it
// uncaptured), and all are freed with the runtime's allocations.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"

#include <cstring>

namespace kfuse::rt {

namespace {

/// Bytes of an element of each CUtensorMapDataType (cuda.h's order).
constexpr int kElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

} // namespace

void *Runtime::tensorMap(int64_t rank, const void *descriptor, int dataType, int interleave,
                         int swizzle, int l2Promotion, int oobFill, const int64_t *box) {
  if (!cuda)
    fail("a TMA descriptor (an sm_90a matmul) asked for on the CPU: this program's GPU code "
         "runs on an NVIDIA GPU only");
  if (!driver.cuTensorMapEncodeTiled)
    fail("an sm_90a matmul needs the driver's cuTensorMapEncodeTiled (CUDA 12 or later): " +
         driver.tensorMapsWhy);
  if (rank < 1 || rank > 5 || dataType < 0 || dataType >= int(std::size(kElementBytes)))
    fail("a TMA descriptor of rank " + std::to_string(rank) + " and data type " +
         std::to_string(dataType) + ": the driver takes ranks 1 to 5");
  // MLIR's StridedMemRefType<T, rank>: allocated and aligned pointers, the
  // offset, the sizes, the strides (in elements, outermost first).
  const auto *words = static_cast<const int64_t *>(descriptor);
  char *aligned = reinterpret_cast<char *>(words[1]);
  int64_t offset = words[2];
  const int64_t *sizes = words + 3, *strides = words + 3 + rank;
  int64_t elementBytes = kElementBytes[dataType];
  // The driver's order is innermost first; strides in bytes, the innermost
  // (one element) implied.
  uint64_t dims[5] = {1, 1, 1, 1, 1}, byteStrides[5] = {0, 0, 0, 0, 0};
  unsigned boxDims[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
  for (int64_t i = 0; i < rank; ++i) {
    dims[i] = uint64_t(sizes[rank - 1 - i]);
    boxDims[i] = unsigned(box[rank - 1 - i]);
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    byteStrides[i] = uint64_t(strides[rank - 2 - i] * elementBytes);
  void *address = aligned + offset * elementBytes;
  std::vector<uint64_t> key = {uint64_t(reinterpret_cast<uintptr_t>(address)), uint64_t(rank),
                               uint64_t(dataType), uint64_t(interleave), uint64_t(swizzle),
                               uint64_t(l2Promotion), uint64_t(oobFill)};
  for (int64_t i = 0; i < rank; ++i)
    key.insert(key.end(), {dims[i], byteStrides[i], boxDims[i]});
  std::unique_ptr<TensorMap> &slot = tensorMaps[key];
  if (slot)
    return slot->device;
  auto map = std::make_unique<TensorMap>();
  std::memset(map->bytes, 0, sizeof(map->bytes));
  std::string shape;
  for (int64_t i = rank - 1; i >= 0; --i)
    shape += std::to_string(dims[i]) + (i ? "x" : "");
  CUresult result = driver.cuTensorMapEncodeTiled(
      map->bytes, dataType, unsigned(rank), address, dims, byteStrides, boxDims, elementStrides,
      interleave, swizzle, l2Promotion, oobFill);
  check(result, "cuTensorMapEncodeTiled",
        "the TMA descriptor of a " + shape +
            " operand (its rows must be 16-byte multiples at a 16-byte aligned address)");
  map->device = allocate(sizeof(map->bytes));
  copy(map->device, map->bytes, sizeof(map->bytes), KFUSE_RECORD_COPY_TO_DEVICE);
  slot = std::move(map);
  return slot->device;
}

} // namespace kfuse::rt
