//===- HostCpu.h - the CPU features a library's host code needs -*- C++ -*-===//
//
// kfuse-compile --emit=lib records the CPU its host code was compiled for
// and the features LLVM enabled for it (kfuse_host_cpu, kfuse_host_features)
// and calls kfuse_rt_require_host_cpu from the library's constructor, so
// that a library built for another CPU (--host-cpu=x86-64-v4 run where
// there is no AVX-512) is refused with the features this CPU lacks, before
// any of its code runs, instead of dying of SIGILL in the first kernel.
//
// The features are LLVM's names; those an x86 CPU reports through cpuid
// are checked here (with the OS's support of the AVX and AVX-512 register
// state, as the CPU's bit alone does not say the kernel saves them). Names
// this table does not know (tuning flags such as fast-gather, the
// evex512 pseudo-feature) are not instructions to check; on other
// architectures nothing is checked. Header only: the runtime's one user is
// EntryPoints.cpp.
//
// For tests only, KFUSE_PRETEND_HOST_FEATURES ("+name,+name,...", LLVM's
// names, the form a library records) stands in for cpuid: the check then
// answers as it would on a CPU with exactly those features, so that the
// refusal can be tested for CPUs the test machine is not (an Intel with
// AVX-512 and no SSE4A on an AMD without AVX-512:
// test/Runtime/host-cpu.mlir). A library it lets through that needs what
// this CPU lacks dies of SIGILL, as it would with no check at all.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_HOSTCPU_H
#define KFUSE_RUNTIME_HOSTCPU_H

#include <cstdint>
#include <cstdlib>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace kfuse::rt {

#if defined(__x86_64__) || defined(__i386__)
namespace hostcpu {
enum Reg { EAX, EBX, ECX, EDX };
enum State { None, Avx, Avx512 }; // the register state the feature needs

struct Feature {
  const char *name; // LLVM's
  unsigned leaf, subleaf;
  Reg reg;
  unsigned bit;
  State state;
};

// From the Intel SDM (vol. 2A, CPUID) and AMD's APM (vol. 3, appendix E).
inline constexpr Feature kFeatures[] = {
    {"cmov", 1, 0, EDX, 15, None},        {"cx8", 1, 0, EDX, 8, None},
    {"mmx", 1, 0, EDX, 23, None},         {"fxsr", 1, 0, EDX, 24, None},
    {"sse", 1, 0, EDX, 25, None},         {"sse2", 1, 0, EDX, 26, None},
    {"sse3", 1, 0, ECX, 0, None},         {"pclmul", 1, 0, ECX, 1, None},
    {"ssse3", 1, 0, ECX, 9, None},        {"fma", 1, 0, ECX, 12, Avx},
    {"cx16", 1, 0, ECX, 13, None},        {"sse4.1", 1, 0, ECX, 19, None},
    {"sse4.2", 1, 0, ECX, 20, None},      {"crc32", 1, 0, ECX, 20, None},
    {"movbe", 1, 0, ECX, 22, None},       {"popcnt", 1, 0, ECX, 23, None},
    {"aes", 1, 0, ECX, 25, None},         {"xsave", 1, 0, ECX, 26, None},
    {"avx", 1, 0, ECX, 28, Avx},          {"f16c", 1, 0, ECX, 29, Avx},
    {"rdrnd", 1, 0, ECX, 30, None},       {"fsgsbase", 7, 0, EBX, 0, None},
    {"bmi", 7, 0, EBX, 3, None},          {"avx2", 7, 0, EBX, 5, Avx},
    {"bmi2", 7, 0, EBX, 8, None},         {"avx512f", 7, 0, EBX, 16, Avx512},
    {"avx512dq", 7, 0, EBX, 17, Avx512},  {"rdseed", 7, 0, EBX, 18, None},
    {"adx", 7, 0, EBX, 19, None},         {"avx512ifma", 7, 0, EBX, 21, Avx512},
    {"clflushopt", 7, 0, EBX, 23, None},  {"clwb", 7, 0, EBX, 24, None},
    {"avx512cd", 7, 0, EBX, 28, Avx512},  {"sha", 7, 0, EBX, 29, None},
    {"avx512bw", 7, 0, EBX, 30, Avx512},  {"avx512vl", 7, 0, EBX, 31, Avx512},
    {"avx512vbmi", 7, 0, ECX, 1, Avx512}, {"avx512vbmi2", 7, 0, ECX, 6, Avx512},
    {"gfni", 7, 0, ECX, 8, None},         {"vaes", 7, 0, ECX, 9, Avx},
    {"vpclmulqdq", 7, 0, ECX, 10, Avx},   {"avx512vnni", 7, 0, ECX, 11, Avx512},
    {"avx512bitalg", 7, 0, ECX, 12, Avx512},
    {"avx512vpopcntdq", 7, 0, ECX, 14, Avx512},
    {"avx512vp2intersect", 7, 0, EDX, 8, Avx512},
    {"avx512fp16", 7, 0, EDX, 23, Avx512},
    {"avxvnni", 7, 1, EAX, 4, Avx},       {"avx512bf16", 7, 1, EAX, 5, Avx512},
    {"avxifma", 7, 1, EAX, 23, Avx},      {"avxvnniint8", 7, 1, EDX, 4, Avx},
    {"avxneconvert", 7, 1, EDX, 5, Avx},  {"sahf", 0x80000001, 0, ECX, 0, None},
    {"lzcnt", 0x80000001, 0, ECX, 5, None},
    {"sse4a", 0x80000001, 0, ECX, 6, None},
    {"prfchw", 0x80000001, 0, ECX, 8, None},
    {"xop", 0x80000001, 0, ECX, 11, Avx}, {"fma4", 0x80000001, 0, ECX, 16, Avx},
    {"tbm", 0x80000001, 0, ECX, 21, None},
};

/// The registers of one cpuid leaf, zero where the CPU has no such leaf.
struct Leaf {
  unsigned leaf, subleaf;
  unsigned r[4];
};

/// The leaves kFeatures reads and the OS's register state (XCR0), read
/// once: under a hypervisor each cpuid is a VM exit (~1 µs).
struct Cpu {
  Leaf leaves[4] = {{1, 0, {}}, {7, 0, {}}, {7, 1, {}}, {0x80000001, 0, {}}};
  uint32_t xcr0 = 0;
  Cpu() {
    for (Leaf &l : leaves)
      if (__get_cpuid_max(l.leaf & 0x80000000u, nullptr) >= l.leaf)
        __get_cpuid_count(l.leaf, l.subleaf, &l.r[EAX], &l.r[EBX], &l.r[ECX], &l.r[EDX]);
    if (leaves[0].r[ECX] >> 27 & 1) { // OSXSAVE: xgetbv is there
      uint32_t hi;
      __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
    }
  }
};

/// Whether this CPU (and OS) has `f`.
inline bool has(const Feature &f) {
  static const Cpu cpu;
  bool bit = false;
  for (const Leaf &l : cpu.leaves)
    if (l.leaf == f.leaf && l.subleaf == f.subleaf)
      bit = l.r[f.reg] >> f.bit & 1;
  // XCR0: SSE and AVX state (bits 1-2); AVX-512 adds opmask and the upper
  // ZMM registers (bits 5-7).
  uint32_t need = f.state == None ? 0 : f.state == Avx ? 0x6 : 0xe6;
  return bit && (cpu.xcr0 & need) == need;
}
} // namespace hostcpu
#endif

/// Whether `list` ("+a,+b,...") has "+name".
inline bool listed(const std::string &list, const std::string &name) {
  std::string padded = "," + list + ",";
  return padded.find(",+" + name + ",") != std::string::npos;
}

/// The features in `features` ("+name,+name,...", LLVM's names, as the
/// library records them) that this CPU lacks, comma-separated; empty when
/// it has them all or cannot tell (not x86).
inline std::string missingHostFeatures(const std::string &features) {
  std::string missing;
#if defined(__x86_64__) || defined(__i386__)
  const char *pretend = std::getenv("KFUSE_PRETEND_HOST_FEATURES");
  size_t at = 0;
  while (at < features.size()) {
    size_t end = features.find(',', at);
    if (end == std::string::npos)
      end = features.size();
    std::string item = features.substr(at, end - at);
    at = end + 1;
    if (item.size() < 2 || item[0] != '+')
      continue;
    std::string name = item.substr(1);
    for (const hostcpu::Feature &f : hostcpu::kFeatures)
      if (name == f.name && !(pretend ? listed(pretend, name) : hostcpu::has(f)))
        missing += (missing.empty() ? "" : ", ") + name;
  }
#else
  (void)features;
#endif
  return missing;
}

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_HOSTCPU_H
