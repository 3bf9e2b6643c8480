//===- BFloat16.cpp - the bf16 conversions LLVM calls on the host ---------===//
//
// LLVM lowers `fptrunc ... to bfloat` on x86 CPUs without AVX512-BF16 to
// calls of __truncsfbf2 / __truncdfbf2, which compiler-rt has and libgcc
// has only from GCC 13 (Debian 12 ships 12). The host versions of the
// kernels (kfuse-compile --emit=lib) link against this runtime, so it
// provides them, weak so that a libgcc or compiler-rt that has them wins.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

/// float -> bf16 bits, rounding to nearest even; NaNs stay (quiet) NaNs.
uint16_t toBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  if (std::isnan(f))
    return uint16_t((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

// The x86-64 psABI returns a bf16 in the low 16 bits of xmm0, as it does a
// float: return a float whose low bytes are the bf16 (GCC 12 has no usable
// __bf16). Elsewhere the bits are returned as an integer.
#if defined(__x86_64__)
using Bf16Return = float;
#else
using Bf16Return = uint16_t;
#endif

Bf16Return bf16Return(uint16_t bits) {
  Bf16Return r{};
  std::memcpy(&r, &bits, sizeof(bits));
  return r;
}

} // namespace

extern "C" __attribute__((weak, visibility("default"))) Bf16Return
__truncsfbf2(float f) {
  return bf16Return(toBf16(f));
}

/// double -> bf16 through float would round twice: round the double to a
/// float with the bits below bf16's kept sticky, then once to bf16.
extern "C" __attribute__((weak, visibility("default"))) Bf16Return
__truncdfbf2(double d) {
  float f = float(d);
  if (!std::isnan(d) && !std::isinf(f) && double(f) != d) {
    // Round to odd: a float that is inexact gets its last bit set, so the
    // second rounding cannot land on a tie that the double was not on.
    // Of the two floats around d (f, the nearest, and the next one toward
    // d), keep the one whose last mantissa bit is set.
    uint32_t x;
    std::memcpy(&x, &f, sizeof(x));
    if (!(x & 1))
      f = std::nextafter(f, d > double(f) ? INFINITY : -INFINITY);
  }
  return bf16Return(toBf16(f));
}
