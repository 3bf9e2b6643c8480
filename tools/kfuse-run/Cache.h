//===- Cache.h - kfuse-run's cache of compiled programs ---------*- C++ -*-===//
//
// kfuse-run compiles a .mlir program with kfuse-compile --emit=lib (0.5 s
// for add_relu, minutes for large programs) and keeps the library in
// ROOT/compile/, ROOT being --cache-dir, $KFUSE_CACHE_DIR,
// $XDG_CACHE_HOME/kfuse or $HOME/.cache/kfuse (which also holds the test
// venv: hence the subfolder). The library holds the fused and the eager
// versions, so one entry serves --fusion=on, off and --check.
//
// An entry is named by the SHA-256 of its key: everything the library
// depends on (CacheKey). It is the library followed by a trailer with the
// SHA-256 and size of the library bytes (dlopen ignores bytes past the
// ELF's headers and segments): a truncated or overwritten entry fails the
// check, is reported, removed and rebuilt. Entries are written to a
// temporary file in the cache and renamed into place, so that racing runs
// each find a whole entry; files are opened with O_NOFOLLOW and created
// with O_EXCL (mkstemp), so that a symbolic link planted in the cache is
// neither read nor written through. ROOT/compile must be a directory of
// this user that others cannot write.
//
// index/ keeps, per program file, the key of its last compile: a miss
// says which part changed (the program text, a fusion option, ...).
// A hit marks its entry used (its modification time); after a store, the
// least recently used entries are removed while the cache holds more than
// $KFUSE_CACHE_MAX_MB (default 1024 MB), sparing those used in the last
// hour: a run that found one may still load it (its --check child does).
// ROOT/compile may also be deleted at any time.
//
// kfuse-compile compiles a copy of the text that was hashed, not the
// program file: a save that lands between kfuse-run's read and
// kfuse-compile's would store the new program's library under the old
// text's key, and every later run of the old text would run it.
// $KFUSE_RUN_TEST_AFTER_READ, a shell command run right after the read,
// lets a test make that save deterministically.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_CACHE_H
#define KFUSE_TOOLS_KFUSE_RUN_CACHE_H

#include "Options.h"
#include "Report.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kfuse::run {

/// What a compiled library depends on, as named parts ("program" and the
/// SHA-256 of its text, "fusion" and the switches, ...), in a fixed order.
struct CacheKey {
  std::vector<std::pair<std::string, std::string>> parts;
  /// "name value" lines: what is hashed, and what the index keeps.
  std::string text() const;
  std::string digest() const;
};

class CompileCache {
public:
  /// Creates ROOT/compile (and index/) if needed and checks them.
  bool open(const std::string &root, std::string &why);
  const std::string &directory() const { return dir; }
  std::string entryPath(const CacheKey &key) const;

  /// True when the entry of `key` is whole. An entry that is there but
  /// unusable is removed, and `problem` says why.
  bool lookup(const CacheKey &key, std::string &problem);
  /// Removes the entry of `key` (it failed to load).
  void remove(const CacheKey &key);
  /// Copies the library file into the entry of `key`.
  bool store(const CacheKey &key, const std::string &library, std::string &why);
  /// Removes the least recently used entries (but `key`'s and those used
  /// in the last hour) while all of them take more than `limit` bytes;
  /// returns how many, and their bytes in `freed`.
  unsigned trim(const CacheKey &key, uint64_t limit, uint64_t &freed);

  /// Why `key` differs from the last key compiled for the program file
  /// `program`: "" when there is none (a new program).
  std::string explainMiss(const std::string &program, const CacheKey &key) const;
  /// Records `key` as the program file's last.
  void remember(const std::string &program, const CacheKey &key) const;

private:
  std::string dir;
};

/// The root of the cache (see above); "" when no variable names one.
std::string cacheRoot(const Options &o);

/// Compiles the .mlir program through the cache: `library` is the cache
/// entry (a hit) or a fresh library; the report gets cacheStatus ("hit",
/// "miss", "off"), cacheDetail and compileMs. A cache that cannot be used
/// is reported, not fatal: the program is compiled as without one.
class CachedCompile {
public:
  bool run(const Options &o, std::string &library, RunReport &report, std::string &error);
  /// After a hit whose library failed to load (`why`): removes the entry,
  /// compiles again and stores the result.
  bool rebuild(const Options &o, const std::string &why, std::string &library,
               RunReport &report, std::string &error);
  bool hit() const { return wasHit; }
  /// After run(): the program's float64 reference (kfuse-compile
  /// --float64-reference, for --check) from the same text, through the
  /// cache (its own folder, ROOT/float64/compile) under the program's key
  /// with a part "build" added.
  /// A program with no float64 reference gives false, `noReference` set
  /// to why and `error` empty.
  bool reference(const Options &o, std::string &library, std::string &noReference,
                 std::string &error);
  /// After run(): a library with the host eager version (for --check's
  /// unfused run on the CPU) from the same text: the cache entry of
  /// `--fusion=off --device=cpu`, compiled if missing.
  bool unfused(const Options &o, std::string &library, std::string &error);
  /// Time to find and check the entry (a hit).
  double lookupMs = 0;

private:
  bool keepSource(std::string &error);
  /// Compiles `variant` of the program (the hashed text) beside the run's
  /// own library, the progress line saying `what` it is.
  bool compileBeside(const std::string &what, Options variant, std::string &library,
                     std::string &error, std::string *noReference = nullptr);
  /// The entry `entryKey` of `entries`, or `build` then stored (a failed
  /// store costs a compile next time, not the run).
  bool lookupOrBuild(CompileCache &entries, const CacheKey &entryKey, std::string &library,
                     const std::function<bool()> &build);
  bool compile(const Options &o, std::string &library, RunReport &report,
               std::string &error);
  CompileCache cache;
  CacheKey key;
  std::string programId;
  // The program text the key hashed, and the file kfuse-compile reads it
  // from (written at the first compile). Without the cache, the program
  // file is compiled.
  std::string text, source;
  bool hashed = false;
  bool usable = false, wasHit = false;
};

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_CACHE_H
