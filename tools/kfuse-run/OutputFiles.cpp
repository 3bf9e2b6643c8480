//===- OutputFiles.cpp - output files written all together or not at all --===//
#include "OutputFiles.h"

#include "Cleanup.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kfuse::run {

namespace {
std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// `path` with its symbolic links followed (the last component too), as
/// far as they lead: a link to a file that does not exist yet gives that
/// file's path. `st` is that path's lstat, `exists` whether it has one.
std::string followLinks(const std::string &path, struct stat &st, bool &exists) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    exists = lstat(p.c_str(), &st) == 0;
    if (!exists || !S_ISLNK(st.st_mode))
      return p;
    char target[PATH_MAX];
    ssize_t n = readlink(p.c_str(), target, sizeof(target) - 1);
    if (n < 0)
      return p;
    std::string t(target, size_t(n));
    p = t[0] == '/' ? t : directoryOf(p) + "/" + t;
  }
  return p; // a loop of links: open() will say so
}

std::string reason() { return std::strerror(errno); }

/// Writes every piece to `fd`, resuming after short writes.
bool writeAll(int fd, const std::vector<std::string_view> &pieces) {
  for (std::string_view piece : pieces) {
    const char *p = piece.data();
    size_t left = piece.size();
    while (left > 0) {
      ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0)
        errno = EIO;
      if (n <= 0)
        return false;
      p += n;
      left -= size_t(n);
    }
  }
  return true;
}

mode_t newFileMode() {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/// A regular output staged beside the file it replaces.
struct Staged {
  std::string temp, target, given;
};

void discard(std::vector<Staged> &staged) {
  for (const Staged &s : staged) {
    unlink(s.temp.c_str());
    unregisterStagedFile(s.temp);
  }
  staged.clear();
}
} // namespace

bool checkOutputPath(const std::string &what, const std::string &path,
                     const std::vector<std::pair<std::string, std::string>> &kept,
                     std::string &error) {
  struct stat out;
  if (stat(path.c_str(), &out) != 0) {
    // A new file: it cannot be anything the user gave, but its directory
    // must take it (said now, not after the run).
    struct stat st;
    bool exists;
    std::string dir = directoryOf(followLinks(path, st, exists));
    if (access(dir.c_str(), W_OK | X_OK) != 0)
      return error = "cannot write " + path + ": " + reason(), false;
    return true;
  }
  if (S_ISDIR(out.st_mode))
    return error = what + " " + path + " is a directory", false;
  for (const auto &[label, other] : kept) {
    struct stat in;
    if (stat(other.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      return error = what + " " + path + " is " + label + "; refusing to overwrite it", false;
  }
  return true;
}

bool sameOutputFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  bool ea = false, eb = false;
  std::string fa = followLinks(a, sa, ea), fb = followLinks(b, sb, eb);
  if (ea && eb)
    return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea || eb)
    return false;
  // Neither exists yet: the same name in the same directory.
  char da[PATH_MAX], db[PATH_MAX];
  if (!realpath(directoryOf(fa).c_str(), da) || !realpath(directoryOf(fb).c_str(), db))
    return false;
  return std::strcmp(da, db) == 0 && baseOf(fa) == baseOf(fb);
}

bool writeOutputs(const std::vector<PendingOutput> &outputs, std::string &error) {
  std::vector<Staged> staged;
  std::vector<const PendingOutput *> through;
  std::vector<std::string> throughPaths;
  // Regular files first: staged, not yet renamed.
  for (const PendingOutput &o : outputs) {
    struct stat st;
    bool exists = false;
    std::string target = followLinks(o.path, st, exists);
    if (exists && !S_ISREG(st.st_mode)) {
      if (S_ISDIR(st.st_mode)) {
        discard(staged);
        return error = "cannot write " + o.path + ": it is a directory", false;
      }
      through.push_back(&o);
      throughPaths.push_back(target);
      continue;
    }
    std::string base = baseOf(target).substr(0, 200);
    std::string pattern = directoryOf(target) + "/." + base + ".kfuse-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) {
      error = "cannot write " + o.path + ": " + reason();
      discard(staged);
      return false;
    }
    staged.push_back({name.data(), target, o.path});
    if (!registerStagedFile(name.data())) {
      close(fd);
      discard(staged);
      return error = "cannot write " + o.path + ": too many outputs", false;
    }
    // The permissions of the file replaced, or those a new file gets.
    mode_t mode = exists ? (st.st_mode & 07777) : newFileMode();
    bool ok = writeAll(fd, o.pieces) && fchmod(fd, mode) == 0;
    int saved = ok ? 0 : errno;
    if (close(fd) != 0 && ok) { // a full disk may show only here
      ok = false;
      saved = errno;
    }
    if (!ok) {
      error = "cannot write " + o.path + ": " + std::strerror(saved);
      discard(staged);
      return false;
    }
  }
  // Devices, FIFOs and the like: written through (they cannot be staged).
  for (size_t i = 0; i < through.size(); ++i) {
    int fd = open(throughPaths[i].c_str(), O_WRONLY | O_CLOEXEC);
    bool ok = fd >= 0 && writeAll(fd, through[i]->pieces);
    int saved = ok ? 0 : errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
      ok = false;
      saved = errno;
    }
    if (!ok) {
      error = "cannot write " + through[i]->path + ": " + std::strerror(saved);
      discard(staged);
      return false;
    }
  }
  // Everything is written: the renames commit the regular files.
  for (size_t i = 0; i < staged.size(); ++i) {
    if (std::rename(staged[i].temp.c_str(), staged[i].target.c_str()) != 0) {
      error = "cannot replace " + staged[i].given + ": " + reason();
      staged.erase(staged.begin(), staged.begin() + long(i));
      discard(staged);
      return false;
    }
    unregisterStagedFile(staged[i].temp);
  }
  return true;
}

} // namespace kfuse::run
