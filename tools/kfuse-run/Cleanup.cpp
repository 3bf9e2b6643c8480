//===- Cleanup.cpp - what kfuse-run removes on every way out --------------===//
#include "Cleanup.h"

#include "Progress.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <new>
#include <sys/syscall.h>
#include <unistd.h>

namespace kfuse::run {

namespace {
// Fixed storage: a signal handler may neither allocate nor follow pointers
// into structures that are being changed. A run has at most 64 results and
// a trace, so 80 staged files are enough.
constexpr int kMaxStaged = 80;
char tempDirPath[PATH_MAX];
char stagedPaths[kMaxStaged][PATH_MAX];
volatile sig_atomic_t stagedUsed[kMaxStaged];
volatile sig_atomic_t childPid = 0;
volatile sig_atomic_t stopsHeld = 0, heldStop = 0;

void say(const char *text) {
  ssize_t ignored = write(2, text, std::strlen(text));
  (void)ignored;
}

/// Removes `name` in the directory `parent` (a file, or a directory with
/// what is in it, to a depth of 8) with system calls only.
void removeAt(int parent, const char *name, int depth) {
  if (unlinkat(parent, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
    return;
  int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0 && depth < 8) {
    // Entries removed while reading may shift the rest: read again from
    // the start until a pass finds nothing to remove.
    for (bool removed = true; removed;) {
      removed = false;
      lseek(fd, 0, SEEK_SET);
      alignas(8) char buf[4096];
      long n;
      while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
        for (long off = 0; off < n;) {
          // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
          unsigned short reclen;
          std::memcpy(&reclen, buf + off + 16, sizeof(reclen));
          const char *entry = buf + off + 19;
          off += reclen;
          if (std::strcmp(entry, ".") == 0 || std::strcmp(entry, "..") == 0)
            continue;
          removeAt(fd, entry, depth + 1);
          removed = true;
        }
      }
    }
  }
  if (fd >= 0)
    close(fd);
  unlinkat(parent, name, AT_REMOVEDIR);
}

const char *signalName(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV, a bad memory access";
  case SIGBUS: return "SIGBUS, a bad memory access";
  case SIGFPE: return "SIGFPE, an arithmetic error";
  case SIGILL: return "SIGILL, an illegal instruction";
  case SIGINT: return "SIGINT";
  case SIGTERM: return "SIGTERM";
  case SIGHUP: return "SIGHUP";
  case SIGQUIT: return "SIGQUIT";
  case SIGPIPE: return "SIGPIPE, a closed pipe";
  default: return "a signal";
  }
}

/// Removes what is registered, then dies of the same signal (the exit
/// status tells the caller what happened).
void onFatalSignal(int sig) {
  bool crash = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
  if (stopsHeld && !crash && sig != SIGPIPE) { // acted on at the release
    if (!heldStop)
      heldStop = sig;
    return;
  }
  progressBreakLine(); // the message starts a line of its own
  say(crash ? "kfuse-run: error: the run crashed (" : "kfuse-run: stopped by ");
  say(signalName(sig));
  say(crash ? "); temporary files removed\n" : "; temporary files removed\n");
  cleanUp();
  std::signal(sig, SIG_DFL);
  raise(sig);
}

/// A run-time check compiled into the program (cf.assert: sizes that do
/// not match) prints its message and aborts.
void onAbort(int) {
  std::fflush(stdout);
  progressBreakLine();
  say("kfuse-run: error: a run-time check of the program failed "
      "(its message is above); no output was written\n");
  cleanUp();
  std::_Exit(1);
}

/// An exception nothing caught (a worker thread's, or one thrown past
/// main's handlers): named, not taken for a failed check of the program.
[[noreturn]] void onTerminate() {
  std::string what = "an unknown exception";
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc &) {
      what = "out of memory (std::bad_alloc)";
    } catch (const std::exception &x) {
      what = x.what();
    } catch (...) {
    }
  }
  progressBreakLine();
  std::fprintf(stderr, "kfuse-run: error: internal error: %s; no output was written\n",
               what.c_str());
  cleanUp();
  std::_Exit(1);
}
} // namespace

void installExitHandlers() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE})
    std::signal(sig, onFatalSignal);
  std::signal(SIGABRT, onAbort);
  // A write past the file-size limit (ulimit -f) fails with EFBIG, which
  // names the file and leaves the temporaries to be removed, instead of
  // killing the run silently. Children (kfuse-compile, its linker) inherit it.
  std::signal(SIGXFSZ, SIG_IGN);
  std::set_terminate(onTerminate);
}

void registerTempDir(const std::string &path) {
  std::snprintf(tempDirPath, sizeof(tempDirPath), "%s", path.c_str());
}

bool registerStagedFile(const std::string &path) {
  if (path.size() >= PATH_MAX)
    return false;
  for (int i = 0; i < kMaxStaged; ++i) {
    if (stagedUsed[i])
      continue;
    std::memcpy(stagedPaths[i], path.c_str(), path.size() + 1);
    stagedUsed[i] = 1; // after the path: a handler never sees half of one
    return true;
  }
  return false;
}

void unregisterStagedFile(const std::string &path) {
  for (int i = 0; i < kMaxStaged; ++i)
    if (stagedUsed[i] && path == stagedPaths[i])
      stagedUsed[i] = 0;
}

void setChild(pid_t pid) { childPid = pid; }

void holdStopSignals() { stopsHeld = 1; }

void releaseStopSignals() {
  stopsHeld = 0;
  if (int sig = heldStop) {
    heldStop = 0;
    raise(sig);
  }
}

void cleanUp() {
  if (childPid > 0)
    kill(childPid, SIGTERM);
  for (int i = 0; i < kMaxStaged; ++i)
    if (stagedUsed[i]) {
      unlink(stagedPaths[i]);
      stagedUsed[i] = 0;
    }
  if (tempDirPath[0]) {
    removeAt(AT_FDCWD, tempDirPath, 0);
    tempDirPath[0] = '\0';
  }
}

} // namespace kfuse::run
