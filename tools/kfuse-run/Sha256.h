//===- Sha256.h - SHA-256 (FIPS 180-4) without LLVM -------------*- C++ -*-===//
//
// The compile cache's keys and its entries' checksums. kfuse-run links no
// LLVM (it travels to machines without it), so the hash is here, small and
// self-contained; test/Runtime/compile-cache*.mlir check the digests it
// writes (entry names, entry trailers) with Python's hashlib.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_SHA256_H
#define KFUSE_TOOLS_KFUSE_RUN_SHA256_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kfuse::run {

class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  /// The digest as 64 lowercase hex digits; the object is spent after it.
  std::string hexDigest();

private:
  void block(const unsigned char *p);
  uint32_t state[8];
  unsigned char buffer[64];
  size_t buffered = 0;
  uint64_t length = 0; // bytes hashed so far
};

/// The SHA-256 of `text` in hex.
std::string sha256Hex(std::string_view text);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_SHA256_H
