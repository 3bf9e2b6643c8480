//===- Options.h - kfuse-run's command line ---------------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_OPTIONS_H
#define KFUSE_TOOLS_KFUSE_RUN_OPTIONS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kfuse::run {

struct Options {
  std::string program, entry, device = "auto", trace;
  // --fusion as given (the report shows it); `fused` says which version
  // runs (its last on or off); `switches` says whether it has more than
  // on and off (rule switches, max-ops), which kfuse-compile reads.
  std::string fusion = "on";
  bool fused = true, switches = false;
  std::string format = "text", chip, blockSize;
  std::vector<std::pair<std::string, std::string>> inputs, outputs; // name=path
  std::string inputDir; // --input-dir: argN.npy files for the arguments --input leaves
  std::vector<std::pair<std::string, int64_t>> dims;                // dK=N
  uint64_t seed = 0;
  int warmup = 2, repeat = 10;
  bool check = false;
  // --reference FILE: the float64 reference library of a library program
  // (kfuse-compile --emit=lib --float64-reference); a .mlir program's is
  // compiled (float64Reference: that compile's kfuse-compile flag).
  std::string reference;
  bool float64Reference = false;
  // --cuda-graph on|off|auto; empty: the runtime's default
  // (KFUSE_CUDA_GRAPHS, else off).
  std::string cudaGraph;
  bool quiet = false; // no report (the --check reference run)
  // The compile cache (Cache.h): --no-cache, --cache-dir DIR.
  bool noCache = false;
  std::string cacheDir;
  // What kfuse-compile reads, when not `program` itself: the private copy
  // of the bytes the cache key hashed (CachedCompile), so that a save of
  // the program during the run cannot put another program's library under
  // this key. Diagnostics still name `program`.
  std::string compileSource;
};

/// Parses argv; on a bad option returns false with the reason in `error`.
bool parseOptions(int argc, char **argv, Options &options, std::string &error);
void printUsage();
void printVersion();

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_OPTIONS_H
