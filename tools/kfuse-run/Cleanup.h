//===- Cleanup.h - what kfuse-run removes on every way out ------*- C++ -*-===//
//
// kfuse-run leaves nothing behind, however it ends: its temporary directory,
// the half-written files next to the outputs it is committing, and a child
// (kfuse-compile, the --check run) are registered here, and removed or
// stopped on a normal exit, an error, a fatal signal (also one raised inside
// the program it runs) and an uncaught C++ exception. The removal itself is
// async-signal-safe: it uses only system calls and memory set aside at
// registration.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_CLEANUP_H
#define KFUSE_TOOLS_KFUSE_RUN_CLEANUP_H

#include <string>
#include <sys/types.h>

namespace kfuse::run {

/// Installs the handlers of fatal signals, of SIGABRT (a failed run-time
/// check of the program) and of std::terminate; ignores SIGXFSZ (a write
/// past ulimit -f then fails with EFBIG, and is reported).
void installExitHandlers();

/// The directory is removed, with what is in it, by cleanUp().
void registerTempDir(const std::string &path);
/// The file is removed by cleanUp() until it is unregistered (once renamed
/// into place). Returns false when too many are registered.
bool registerStagedFile(const std::string &path);
void unregisterStagedFile(const std::string &path);
/// A running child is sent SIGTERM by cleanUp(); 0 when none.
void setChild(pid_t pid);

/// While held, SIGINT, SIGTERM, SIGHUP and SIGQUIT (received by any
/// thread: blocking them in one would not do) are noted, not acted on;
/// the release acts on the first one noted. writeOutputs holds them
/// across its renames, so that they are all done or none.
void holdStopSignals();
void releaseStopSignals();

/// Stops the child and removes what is registered. Async-signal-safe.
void cleanUp();

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_CLEANUP_H
