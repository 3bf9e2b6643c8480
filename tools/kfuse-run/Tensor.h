//===- Tensor.h - host tensors, .npy files, random inputs -------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_TENSOR_H
#define KFUSE_TOOLS_KFUSE_RUN_TENSOR_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kfuse::run {

/// A dense row-major tensor on the host; `dtype` is kf's name (f32, f16,
/// bf16, f64, i32, i64, i1; i1 is one byte per element, as in memory).
struct Tensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<unsigned char> data;

  int64_t elements() const;
  /// Element i converted to double (f16 and bf16 decoded).
  double at(int64_t i) const;
};

/// Whether `bytes` of host memory could ever be had: no more than the
/// machine's memory and swap. A larger buffer is refused before it is
/// allocated (with overcommit the allocation could succeed and the process
/// be killed when the buffer is filled).
bool fitsInHostMemory(size_t bytes);

/// The element count and byte size of `shape`; false when a dim is
/// negative or either is more than 2^63 - 1.
bool sizeOf(const std::vector<int64_t> &shape, size_t elementBytes, int64_t &elements,
            size_t &bytes);

/// Bytes per element of `dtype`, 0 if kfuse-run does not know it.
size_t elementSize(const std::string &dtype);
std::string shapeString(const std::vector<int64_t> &shape);

/// Reads a .npy file; on failure says why in `error`.
bool readNpy(const std::string &path, Tensor &out, std::string &error);
/// `t` as a .npy file: the header (made into `header`), then the data (a
/// view of `t`'s, or of `widened`: bf16 is written as f32, numpy has no
/// bf16). The views live as long as `t`, `header` and `widened`.
std::vector<std::string_view> npyPieces(const Tensor &t, std::string &header,
                                        std::vector<unsigned char> &widened);
/// Writes `t` to `path` whole or not at all (see OutputFiles.h).
bool writeNpy(const std::string &path, const Tensor &t, std::string &error);
/// An f32 tensor rounded to bf16 (nearest even): numpy has no bf16, so a
/// bf16 argument is read from the f32 file writeNpy makes of one.
Tensor narrowToBf16(const Tensor &t);

/// Deterministic inputs: floats uniform in [-2, 2), integers in [-8, 8],
/// booleans half true; `seed` and the argument index pick the stream.
Tensor randomTensor(const std::string &dtype, const std::vector<int64_t> &shape,
                    uint64_t seed, unsigned argIndex);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_TENSOR_H
