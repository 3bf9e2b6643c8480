//===- Cache.cpp - kfuse-run's cache of compiled programs: the files ------===//
#include "Cache.h"

#include "Cleanup.h"
#include "Sha256.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace kfuse::run {

namespace {
constexpr std::string_view kTrailerTag = "\n#kfuse-cache-entry v1 sha256=";
// The tag, 64 hex digits, " size=", 20 digits and a newline.
constexpr size_t kTrailerSize = kTrailerTag.size() + 64 + 6 + 20 + 1;

std::string trailer(const std::string &digest, uint64_t size) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%020llu", (unsigned long long)size);
  return std::string(kTrailerTag) + digest + " size=" + digits + "\n";
}

std::string reason() { return std::strerror(errno); }

/// Reads a regular file of at most `limit` bytes without following a link
/// in its last component; false with why (ELOOP: "is a symbolic link").
bool readRegular(const std::string &path, std::string &out, std::string &why,
                 uint64_t limit = UINT64_MAX) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return why = errno == ELOOP ? "it is a symbolic link" : reason(), false;
  struct stat st = {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) > limit) {
    close(fd);
    return why = S_ISREG(st.st_mode) ? "it is too large" : "it is not a regular file", false;
  }
  out.clear();
  char buf[1 << 16];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      why = reason();
      close(fd);
      return false;
    }
    out.append(buf, size_t(n));
  }
  close(fd);
  return true;
}

/// Reads `size` bytes at `offset`, resuming after short reads.
bool readAt(int fd, char *out, size_t size, off_t offset) {
  while (size > 0) {
    ssize_t n = pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0)
      errno = EIO; // cut while being read
    if (n <= 0)
      return false;
    out += n, size -= size_t(n), offset += n;
  }
  return true;
}

/// Why the entry at `path` is not whole, or "" when it is; `absent` when
/// there is none. Its trailer is read first, by the size the file has:
/// a file that is not an entry (a multi-GiB one planted or left there)
/// is refused without reading it. The library's bytes are then hashed a
/// block at a time, never held in memory.
std::string checkEntry(const std::string &path, bool &absent) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    absent = errno == ENOENT;
    return errno == ELOOP ? "it is a symbolic link" : reason();
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return "it is not a regular file";
  std::string tail(kTrailerSize, '\0');
  uint64_t size = uint64_t(st.st_size) - kTrailerSize;
  if (uint64_t(st.st_size) < kTrailerSize || !readAt(fd, tail.data(), kTrailerSize, off_t(size)) ||
      tail.compare(0, kTrailerTag.size(), kTrailerTag) != 0)
    return "it has no checksum (truncated or overwritten)";
  // The trailer names the size the library had: another size is a cut or
  // a file grown since (its digest is not worth computing).
  std::string digest = tail.substr(kTrailerTag.size(), 64);
  if (tail != trailer(digest, size))
    return "its size is not the one its checksum was taken of (truncated or overwritten)";
  Sha256 h;
  std::vector<char> block(1 << 20);
  for (uint64_t done = 0; done < size;) {
    size_t n = size_t(std::min<uint64_t>(block.size(), size - done));
    if (!readAt(fd, block.data(), n, off_t(done)))
      return "cannot read it: " + reason();
    h.update(block.data(), n);
    done += n;
  }
  return h.hexDigest() == digest ? "" : "its checksum does not match (corrupted)";
}

/// Writes `pieces` to a new file (mkstemp: O_EXCL, mode 0600) in `dir`
/// and renames it to `name`: readers see the old file or the whole new
/// one, and a link planted at `name` is replaced, not written through.
bool writeAtomically(const std::string &dir, const std::string &name,
                     const std::vector<std::string_view> &pieces, mode_t mode,
                     std::string &why) {
  std::string pattern = dir + "/.tmp-XXXXXX";
  std::vector<char> temp(pattern.begin(), pattern.end());
  temp.push_back('\0');
  int fd = mkstemp(temp.data());
  if (fd < 0)
    return why = "cannot create a file in " + dir + ": " + reason(), false;
  registerStagedFile(temp.data()); // removed if a signal ends the run now
  bool ok = true;
  for (std::string_view piece : pieces) {
    const char *p = piece.data();
    size_t left = piece.size();
    while (ok && left > 0) {
      ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      ok = n > 0;
      p += ok ? n : 0;
      left -= ok ? size_t(n) : 0;
    }
  }
  ok = ok && fchmod(fd, mode) == 0;
  ok = close(fd) == 0 && ok;
  std::string target = dir + "/" + name;
  ok = ok && std::rename(temp.data(), target.c_str()) == 0;
  if (!ok) {
    why = "cannot write " + target + ": " + reason();
    unlink(temp.data());
  }
  unregisterStagedFile(temp.data());
  return ok;
}

/// Creates `path` (mode 0700) unless it exists, then insists that it is a
/// directory, not a link, of this user, that nobody else can write: the
/// cache's files are loaded as code.
bool ownDirectory(const std::string &path, std::string &why) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    return why = "cannot create " + path + ": " + reason(), false;
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return why = "cannot use " + path + ": " + reason(), false;
  if (!S_ISDIR(st.st_mode))
    return why = path + " is not a directory", false;
  if (st.st_uid != geteuid())
    return why = path + " belongs to another user", false;
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return why = path + " can be written by other users", false;
  if (access(path.c_str(), W_OK | X_OK) != 0)
    return why = "cannot write " + path + ": " + reason(), false;
  return true;
}

/// Creates `path` and its parents as needed (mode 0700).
bool makeDirectories(const std::string &path, std::string &why) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      return why = "cannot create " + prefix + ": " + reason(), false;
    if (slash == std::string::npos)
      break;
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return why = path + " is not a directory", false;
  return true;
}

std::map<std::string, std::string> partsOf(const std::string &text) {
  std::map<std::string, std::string> parts;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    size_t space = line.find(' ');
    if (space != std::string::npos)
      parts[line.substr(0, space)] = line.substr(space + 1);
    start = end + 1;
  }
  return parts;
}

std::string indexName(const std::string &program) { return sha256Hex(program); }

/// The space-separated words that differ, by position, as "was -> now"
/// ("KFUSE_CC= -> KFUSE_CC=gcc").
std::string changedWords(const std::string &was, const std::string &now) {
  auto words = [](const std::string &s) {
    std::vector<std::string> out;
    for (size_t start = 0; start < s.size();) {
      size_t end = std::min(s.find(' ', start), s.size());
      out.push_back(s.substr(start, end - start));
      start = end + 1;
    }
    return out;
  };
  std::vector<std::string> before = words(was), after = words(now);
  std::string out;
  for (size_t i = 0; i < std::max(before.size(), after.size()); ++i) {
    std::string b = i < before.size() ? before[i] : "", a = i < after.size() ? after[i] : "";
    if (a != b)
      out += (out.empty() ? "" : ", ") + b + " -> " + a;
  }
  return out;
}
} // namespace

std::string CacheKey::text() const {
  std::string s;
  for (const auto &[name, value] : parts)
    s += name + " " + value + "\n";
  return s;
}

std::string CacheKey::digest() const { return sha256Hex(text()); }

std::string cacheRoot(const Options &o) {
  if (!o.cacheDir.empty())
    return o.cacheDir;
  auto var = [](const char *name) {
    const char *v = std::getenv(name);
    return std::string(v ? v : "");
  };
  if (std::string dir = var("KFUSE_CACHE_DIR"); !dir.empty())
    return dir;
  // The XDG rule: a relative path in these variables is ignored.
  if (std::string dir = var("XDG_CACHE_HOME"); !dir.empty() && dir[0] == '/')
    return dir + "/kfuse";
  if (std::string home = var("HOME"); !home.empty() && home[0] == '/')
    return home + "/.cache/kfuse";
  return "";
}

bool CompileCache::open(const std::string &root, std::string &why) {
  dir = root + "/compile";
  return makeDirectories(root, why) && ownDirectory(dir, why) &&
         ownDirectory(dir + "/index", why);
}

std::string CompileCache::entryPath(const CacheKey &key) const {
  return dir + "/" + key.digest() + ".so";
}

bool CompileCache::lookup(const CacheKey &key, std::string &problem) {
  std::string path = entryPath(key);
  problem.clear();
  bool absent = false;
  problem = checkEntry(path, absent);
  if (absent) {
    problem.clear();
    return false;
  }
  if (problem.empty()) {
    // Used now: the last to be trimmed (no link to follow: checked above).
    utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
    return true;
  }
  problem = path + ": " + problem;
  remove(key);
  return false;
}

void CompileCache::remove(const CacheKey &key) {
  // unlink removes a link itself, never what it names.
  unlink(entryPath(key).c_str());
}

bool CompileCache::store(const CacheKey &key, const std::string &library,
                         std::string &why) {
  std::string bytes;
  if (!readRegular(library, bytes, why))
    return why = "cannot read " + library + ": " + why, false;
  Sha256 h;
  h.update(bytes);
  std::string tail = trailer(h.hexDigest(), bytes.size());
  return writeAtomically(dir, key.digest() + ".so", {bytes, tail}, 0700, why);
}

unsigned CompileCache::trim(const CacheKey &key, uint64_t limit, uint64_t &freed) {
  struct Entry {
    std::string name;
    uint64_t bytes;
    time_t used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  freed = 0;
  DIR *d = opendir(dir.c_str());
  if (!d)
    return 0;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    struct stat st;
    if (name.size() != 67 || name.compare(64, 3, ".so") != 0 ||
        fstatat(dirfd(d), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    entries.push_back({name, uint64_t(st.st_size), st.st_mtim.tv_sec});
    total += uint64_t(st.st_size);
  }
  closedir(d);
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  std::string kept = key.digest() + ".so";
  time_t recent = std::time(nullptr) - 3600;
  unsigned removed = 0;
  for (const Entry &e : entries) {
    if (total <= limit || e.used >= recent)
      break;
    if (e.name == kept || unlink((dir + "/" + e.name).c_str()) != 0)
      continue;
    total -= e.bytes;
    freed += e.bytes;
    ++removed;
  }
  return removed;
}

std::string CompileCache::explainMiss(const std::string &program,
                                      const CacheKey &key) const {
  std::string text, why;
  // A key is a few hundred bytes: a larger file is not an index entry.
  if (!readRegular(dir + "/index/" + indexName(program), text, why, 1 << 16))
    return "";
  std::map<std::string, std::string> before = partsOf(text);
  if (before["file"] != program)
    return "";
  std::string changed;
  for (const auto &[name, value] : key.parts) {
    auto it = before.find(name);
    if (it != before.end() && it->second == value)
      continue;
    std::string was = it == before.end() ? "nothing" : it->second;
    std::string from = ": " + was + " -> " + value;
    std::string what;
    if (name == "program")
      what = "the program text changed";
    else if (name == "fusion" || name == "gpu-chip" || name == "block-size")
      what = "--" + name + " changed" + from;
    else if (name == "compiler")
      what = "kfuse-compile changed (rebuilt or reinstalled)";
    else if (name == "host-cpu")
      what = "the host CPU changed" + from;
    else if (name == "kfuse")
      what = "the kfuse version changed" + from;
    else if (name == "environment")
      what = "kfuse-compile's environment changed: " + changedWords(was, value);
    else
      what = name + " changed" + from;
    changed += (changed.empty() ? "" : "; ") + what;
  }
  return changed.empty() ? "the same key as its last compile; the entry was removed"
                         : changed;
}

void CompileCache::remember(const std::string &program, const CacheKey &key) const {
  std::string text = "file " + program + "\n" + key.text(), why;
  // Only the explanation of a later miss depends on it: a failure is
  // not worth a message.
  writeAtomically(dir + "/index", indexName(program), {text}, 0600, why);
}

} // namespace kfuse::run
