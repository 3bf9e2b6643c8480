//===- Process.cpp - temporary files and the tools kfuse-run runs ---------===//
#include "Run.h"

#include "Cleanup.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace kfuse::run {

namespace {
std::string &tempDirPath() {
  static std::string path;
  return path;
}
} // namespace

std::string selfDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    return ".";
  std::string self(buf, size_t(n));
  return self.substr(0, self.rfind('/'));
}

/// Runs `argv` and returns its exit status; -1 when it did not start,
/// 128 + N when signal N killed it. While it runs, a fatal signal to
/// kfuse-run stops it too (Cleanup.h).
int spawn(const std::vector<std::string> &argv, const std::string &stderrPath) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stderrPath.empty())
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int started = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0)
    return -1;
  setChild(pid);
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
    ;
  setChild(0);
  if (waited < 0)
    return -1;
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// " (killed by signal N, NAME)" for a status from spawn, or "".
std::string signalNote(int status) {
  if (status <= 128)
    return "";
  return " (killed by signal " + std::to_string(status - 128) + ", " +
         strsignal(status - 128) + ")";
}

const std::string &tempDir() {
  std::string &path = tempDirPath();
  if (path.empty()) {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/kfuse-run-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) {
      path = buf.data();
      registerTempDir(path);
    }
  }
  return path;
}

void removeTempDir() {
  cleanUp();
  tempDirPath().clear();
}

std::string libraryVariants(const Options &o) {
  std::string run = o.fused ? "fused" : "eager";
  std::string variants = o.device == "cpu" ? "host_" + run : run;
  return variants;
}

bool compileProgram(const Options &o, std::string &library, double &ms,
                    std::string &error, std::string *noReference) {
  if (tempDir().empty())
    return error = "cannot create a temporary directory", false;
  // Each build its own file: --check loads the unfused one beside the
  // program's.
  library = tempDir() + (o.float64Reference ? "/reference.so"
                                            : "/program." + libraryVariants(o) + ".so");
  std::vector<std::string> argv = {selfDir() + "/kfuse-compile",
                                   o.compileSource.empty() ? o.program : o.compileSource,
                                   "--emit=lib", "-o", library, "--host-cpu=native"};
  // A private copy of the program (Options::compileSource) is compiled
  // under the program's name: its diagnostics point into the user's file.
  if (!o.compileSource.empty())
    argv.push_back("--source-name=" + o.program);
  if (o.float64Reference)
    argv.push_back("--float64-reference");
  else
    argv.push_back("--variants=" + libraryVariants(o));
  if (!o.chip.empty())
    argv.push_back("--gpu-chip=" + o.chip);
  if (!o.blockSize.empty())
    argv.push_back("--block-size=" + o.blockSize);
  // The fused version is compiled with the switches (the eager one has
  // none); kfuse-compile checks them.
  if (o.switches)
    argv.push_back("--fusion=" + o.fusion);
  auto start = std::chrono::steady_clock::now();
  // A reference's diagnostics are held back until it is known whether
  // they say the program has none (then they are the check's note).
  std::string errPath = noReference ? tempDir() + "/reference.err" : "";
  int rc = spawn(argv, errPath);
  std::string diagnostics;
  if (noReference) {
    std::ifstream in(errPath);
    std::stringstream text;
    text << in.rdbuf();
    diagnostics = text.str();
  }
  if (noReference && rc == kNoFloat64ReferenceExit) {
    // The first line, without its location: "'kf.kernel' has no ...".
    std::string first = diagnostics.substr(0, diagnostics.find('\n'));
    size_t at = first.find("error: ");
    *noReference = at == std::string::npos ? first : first.substr(at + 7);
    if (noReference->empty())
      *noReference = "kfuse-compile built none";
    return false;
  }
  std::fputs(diagnostics.c_str(), stderr);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
           .count();
  std::string what = (o.float64Reference ? "the float64 reference of " : "") + o.program;
  if (rc == -1)
    return error = "cannot run " + argv[0], false;
  if (rc > 128)
    return error = "compiling " + what + " failed: kfuse-compile" + signalNote(rc), false;
  if (rc != 0)
    return error = "compiling " + what + " failed (kfuse-compile said why above)", false;
  return true;
}

} // namespace kfuse::run
