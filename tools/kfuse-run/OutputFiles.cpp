//===- OutputFiles.cpp - output files written all together or not at all --===//
#include "OutputFiles.h"

#include "Cleanup.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/// The inode flags of `path` (chattr's: FS_IMMUTABLE_FL, FS_APPEND_FL);
/// 0 where they cannot be read (a file system without them).
int inodeFlags(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  int flags = 0;
  if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0)
    flags = 0;
  if (fd >= 0)
    close(fd);
  return flags;
}

/// Whether this process may remove or replace other users' files in a
/// sticky directory (CAP_FOWNER; root has it, unless it was dropped).
bool mayOverrideSticky() {
  __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (syscall(SYS_capget, &header, data) != 0)
    return geteuid() == 0;
  return data[0].effective & (1u << CAP_FOWNER);
}

/// Why renaming a staged file over `target` would fail though the staged
/// file can be made beside it, or "": the file or its directory is
/// immutable or append-only (chattr +i, +a), or the directory is sticky
/// (/tmp) and the file another user's. Said for every output before any
/// is staged or renamed: a failure in the middle of the renames would
/// leave the first outputs new and the others old.
std::string cannotReplace(const std::string &target, bool exists, const struct stat &st) {
  std::string dir = directoryOf(target);
  if (int flags = inodeFlags(dir); flags & (FS_IMMUTABLE_FL | FS_APPEND_FL))
    return "its directory " + dir + " is " +
           (flags & FS_IMMUTABLE_FL ? "immutable (chattr +i)" : "append-only (chattr +a)");
  if (!exists)
    return "";
  if (int flags = inodeFlags(target); flags & (FS_IMMUTABLE_FL | FS_APPEND_FL))
    return std::string("it is ") +
           (flags & FS_IMMUTABLE_FL ? "immutable (chattr +i)" : "append-only (chattr +a)");
  struct stat d;
  if (stat(dir.c_str(), &d) == 0 && (d.st_mode & S_ISVTX) && st.st_uid != geteuid() &&
      d.st_uid != geteuid() && !mayOverrideSticky())
    return "it belongs to another user (uid " + std::to_string(st.st_uid) +
           ") in the sticky directory " + dir;
  return "";
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT held while the outputs are renamed
/// (Cleanup.h): a signal then is acted on after the last rename, never
/// between two of them.
struct HoldStopSignals {
  HoldStopSignals() { holdStopSignals(); }
  ~HoldStopSignals() { releaseStopSignals(); }
};

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
  struct stat out, st;
  bool exists = false;
  std::string target = followLinks(path, st, exists);
  if (stat(path.c_str(), &out) != 0) {
    // A new file: it cannot be anything the user gave, but its directory
    // must take it (said now, not after the run).
    if (access(directoryOf(target).c_str(), W_OK | X_OK) != 0)
      return error = "cannot write " + path + ": " + reason(), false;
  } else {
    if (S_ISDIR(out.st_mode))
      return error = what + " " + path + " is a directory", false;
    for (const auto &[label, other] : kept) {
      struct stat in;
      if (stat(other.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
        return error = what + " " + path + " is " + label + "; refusing to overwrite it",
               false;
    }
  }
  // Said before the run, and again by writeOutputs before any rename.
  if (!exists || S_ISREG(st.st_mode))
    if (std::string why = cannotReplace(target, exists, st); !why.empty())
      return error = "cannot replace " + path + ": " + why, false;
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
  for (const PendingOutput &o : outputs) {
    struct stat st;
    bool exists = false;
    std::string target = followLinks(o.path, st, exists);
    if (!exists || S_ISREG(st.st_mode))
      if (std::string why = cannotReplace(target, exists, st); !why.empty())
        return error = "cannot replace " + o.path + ": " + why + "; no output was written",
               false;
  }
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
  HoldStopSignals hold;
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
