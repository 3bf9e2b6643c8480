//===- CachedCompile.cpp - compiling a .mlir program through the cache ----===//
//
// The key holds everything kfuse-compile's library depends on: the program
// text (not its path: a copy of the program hits), the options kfuse-run
// passes (--fusion switches, --gpu-chip, --block-size), the CPU that
// --host-cpu=native compiles for, kfuse's and LLVM's versions, the
// compiler's files (kfuse-compile and the libMLIR/libLLVM it loads: path,
// size, modification time; a rebuild changes them) and the environment
// kfuse-compile reads (KFUSE_CC links the library, CUDA_* find libdevice).
// `--entry` is not in it: the library holds every function.
//
//===----------------------------------------------------------------------===//
#include "Cache.h"

#include "Progress.h"
#include "Run.h"
#include "Sha256.h"
#include "tools/KfuseVersion.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace kfuse::run {

namespace {
double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

bool readText(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return !in.bad();
}

/// The CPU as /proc/cpuinfo describes its first core: the model's name,
/// and a hash of what LLVM's host detection reads (vendor, family, model,
/// stepping, feature flags).
std::string hostCpu() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, name = "unknown CPU", identity;
  while (std::getline(in, line) && !line.empty()) {
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string field = line.substr(0, line.find_first_of(" \t"));
    std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (field == "model" && line.rfind("model name", 0) == 0)
      name = value;
    else if (field == "vendor_id" || field == "cpu" || field == "model" ||
             field == "stepping" || field == "flags" || field == "Features" ||
             field == "CPU")
      identity += line + "\n";
  }
  return name + " #" + sha256Hex(identity + name).substr(0, 12);
}

std::string fileIdentity(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return path + " absent";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) +
         "." + std::to_string(st.st_mtim.tv_nsec);
}

std::string kfuseCompilePath() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  std::string self = n > 0 ? std::string(buf, size_t(n)) : "./kfuse-run";
  return self.substr(0, self.rfind('/')) + "/kfuse-compile";
}

/// What kfuse-compile reads from the environment: the compiler driver that
/// links the library, and the CUDA toolkit whose libdevice the GPU code
/// links (found as passes/target/GpuTarget.cpp's cudaToolkitPath finds it).
std::string environment() {
  const char *cc = std::getenv("KFUSE_CC");
  std::string toolkit = "none";
  struct stat st;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *path = std::getenv(var); path && *path && toolkit == "none" &&
        stat((std::string(path) + "/nvvm/libdevice").c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      toolkit = path;
  if (toolkit == "none" && stat("/usr/local/cuda/nvvm/libdevice", &st) == 0 &&
      S_ISDIR(st.st_mode))
    toolkit = "/usr/local/cuda";
  return std::string("KFUSE_CC=") + (cc ? cc : "") + " cuda=" + toolkit;
}

std::string baseName(const std::string &path) {
  return path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
}

/// $KFUSE_CACHE_MAX_MB in bytes (default 1024 MB); false when it is not
/// a whole number of MB.
bool sizeLimit(uint64_t &bytes, std::string &error) {
  const char *text = std::getenv("KFUSE_CACHE_MAX_MB");
  std::string s = text ? text : "";
  if (s.empty())
    return bytes = uint64_t(1024) << 20, true;
  if (s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    return error = "KFUSE_CACHE_MAX_MB takes a whole number of MB, got '" + s + "'", false;
  bytes = std::strtoull(s.c_str(), nullptr, 10) << 20;
  return true;
}

/// The --fusion switches kfuse-run passes to kfuse-compile
/// (Options::switches), or "default" when it passes none.
std::string fusionPart(const Options &o) { return o.switches ? o.fusion : "default"; }
} // namespace

/// Writes the program text that was hashed to a file of the run's private
/// temporary directory: kfuse-compile compiles it, not the program file,
/// which may have been saved again since it was read.
bool CachedCompile::keepSource(std::string &error) {
  if (!hashed || !source.empty())
    return true;
  if (tempDir().empty())
    return error = "cannot create a temporary directory", false;
  source = tempDir() + "/source.mlir";
  int fd = open(source.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  for (size_t done = 0; ok && done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    ok = n > 0;
    done += ok ? size_t(n) : 0;
  }
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && ok)
    ok = false, saved = errno;
  if (!ok)
    return error = "cannot write " + source + ": " + std::strerror(saved), false;
  return true;
}

bool CachedCompile::compile(const Options &o, std::string &library, RunReport &report,
                            std::string &error) {
  progressStep("compiling " + baseName(o.program) + " (fusion " + o.fusion + ")");
  if (!keepSource(error))
    return false;
  Options withSource = o;
  withSource.compileSource = source;
  bool ok = compileProgram(withSource, library, report.compileMs, error);
  progressClear();
  return ok;
}

bool CachedCompile::run(const Options &o, std::string &library, RunReport &report,
                        std::string &error) {
  wasHit = false;
  report.cacheStatus = "off";
  if (o.noCache) {
    report.cacheDetail = "--no-cache";
    return compile(o, library, report, error);
  }
  auto start = std::chrono::steady_clock::now();
  uint64_t limit = 0;
  if (!sizeLimit(limit, error))
    return false;
  std::string root = cacheRoot(o), why;
  if (root.empty()) {
    report.cacheDetail = "no cache directory: set KFUSE_CACHE_DIR, XDG_CACHE_HOME or HOME";
    return compile(o, library, report, error);
  }
  if (!cache.open(root, why)) {
    report.cacheDetail = "cannot use the cache: " + why;
    return compile(o, library, report, error);
  }
  if (!readText(o.program, text)) {
    report.cacheDetail = "cannot read " + o.program;
    return compile(o, library, report, error); // kfuse-compile says why
  }
  // A test stands in for an editor saving the program now, between the
  // read and the compile (test/Runtime/compile-cache-race.mlir).
  if (const char *hook = std::getenv("KFUSE_RUN_TEST_AFTER_READ"); hook && *hook)
    if (std::system(hook) != 0)
      return error = "KFUSE_RUN_TEST_AFTER_READ failed: " + std::string(hook), false;
  char resolved[PATH_MAX];
  programId = realpath(o.program.c_str(), resolved) ? resolved : o.program;
  hashed = true;
  key.parts = {{"program", sha256Hex(text)},
               {"fusion", fusionPart(o)},
               {"variants", libraryVariants(o)},
               {"gpu-chip", o.chip.empty() ? "default" : o.chip},
               {"block-size", o.blockSize.empty() ? "default" : o.blockSize},
               {"host-cpu", hostCpu()},
               {"kfuse", KFUSE_VERSION " (LLVM " KFUSE_LLVM_VERSION ")"},
               {"compiler", fileIdentity(kfuseCompilePath()) + "; " +
                                fileIdentity(KFUSE_LLVM_LIBRARY_DIR "/libMLIR.so") + "; " +
                                fileIdentity(KFUSE_LLVM_LIBRARY_DIR "/libLLVM.so")},
               {"environment", environment()}};
  usable = true;
  std::string problem;
  if (cache.lookup(key, problem)) {
    wasHit = true;
    library = cache.entryPath(key);
    report.cacheStatus = "hit";
    report.cacheDetail = library;
    report.compileMs = -1;
    cache.remember(programId, key);
    lookupMs = millisSince(start);
    return true;
  }
  report.cacheStatus = "miss";
  if (!problem.empty())
    report.cacheDetail = "a corrupt entry was removed and rebuilt: " + problem;
  else if (std::string changed = cache.explainMiss(programId, key); !changed.empty())
    report.cacheDetail = changed;
  else
    report.cacheDetail = "first compile of this program";
  if (!compile(o, library, report, error))
    return false;
  if (!cache.store(key, library, why)) {
    report.cacheDetail += "; not stored: " + why;
  } else {
    uint64_t freed = 0;
    if (unsigned removed = cache.trim(key, limit, freed))
      report.cacheDetail += "; removed " + std::to_string(removed) +
                            " least recently used entr" + (removed == 1 ? "y" : "ies") +
                            " (" + std::to_string((freed + 1023) / 1024) +
                            " KB) to stay under KFUSE_CACHE_MAX_MB=" +
                            std::to_string(limit >> 20);
  }
  cache.remember(programId, key);
  return true;
}

bool CachedCompile::compileBeside(const std::string &what, Options variant,
                                  std::string &library, std::string &error,
                                  std::string *noReference) {
  progressStep("compiling " + what + " of " + baseName(variant.program));
  if (!keepSource(error))
    return false;
  variant.compileSource = source;
  double ms = 0;
  bool ok = compileProgram(variant, library, ms, error, noReference);
  progressClear();
  return ok;
}

bool CachedCompile::lookupOrBuild(CompileCache &entries, const CacheKey &entryKey,
                                  std::string &library,
                                  const std::function<bool()> &build) {
  std::string problem, why;
  if (entries.lookup(entryKey, problem)) {
    library = entries.entryPath(entryKey);
    return true;
  }
  // One not stored is compiled again by the next --check.
  return build() && (entries.store(entryKey, library, why), true);
}

bool CachedCompile::reference(const Options &o, std::string &library, std::string &noReference,
                              std::string &error) {
  Options ref = o;
  ref.float64Reference = true;
  auto build = [&] {
    return compileBeside("the float64 reference", ref, library, error, &noReference);
  };
  // References are kept apart, in ROOT/float64/compile: the program's
  // folder holds programs only (and each folder is trimmed on its own).
  CompileCache references;
  std::string why;
  if (!usable || !references.open(cacheRoot(o) + "/float64", why))
    return build();
  CacheKey referenceKey = key;
  referenceKey.parts.push_back({"build", "float64 reference"});
  return lookupOrBuild(references, referenceKey, library, build);
}

bool CachedCompile::unfused(const Options &o, std::string &library, std::string &error) {
  Options u = o;
  u.fused = u.switches = false;
  u.fusion = "off";
  u.device = "cpu";
  auto build = [&] { return compileBeside("the unfused version", u, library, error); };
  if (!usable)
    return build();
  // The entry of a --fusion=off --device=cpu run of the same program.
  CacheKey unfusedKey = key;
  for (auto &[name, value] : unfusedKey.parts) {
    if (name == "fusion")
      value = fusionPart(u);
    else if (name == "variants")
      value = libraryVariants(u);
  }
  return lookupOrBuild(cache, unfusedKey, library, build);
}

bool CachedCompile::rebuild(const Options &o, const std::string &why, std::string &library,
                            RunReport &report, std::string &error) {
  cache.remove(key);
  wasHit = false;
  report.cacheStatus = "miss";
  report.cacheDetail = "a corrupt entry was removed and rebuilt: " + why;
  if (!compile(o, library, report, error))
    return false;
  std::string storeError;
  if (usable && !cache.store(key, library, storeError))
    report.cacheDetail += "; not stored: " + storeError;
  return true;
}

} // namespace kfuse::run
