//===- Process.cpp - temporary files and the tools kfuse-run runs ---------===//
#include "Run.h"

#include "Cleanup.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
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
int spawn(const std::vector<std::string> &argv) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0)
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
} // namespace

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

bool compileProgram(const Options &o, std::string &library, double &ms,
                    std::string &error) {
  if (tempDir().empty())
    return error = "cannot create a temporary directory", false;
  library = tempDir() + "/program.so";
  std::vector<std::string> argv = {selfDir() + "/kfuse-compile", o.program, "--emit=lib",
                                   "-o", library, "--host-cpu=native"};
  if (!o.chip.empty())
    argv.push_back("--gpu-chip=" + o.chip);
  if (!o.blockSize.empty())
    argv.push_back("--block-size=" + o.blockSize);
  // The fused version is compiled with the switches (the eager one has
  // none); kfuse-compile checks them.
  if (o.switches)
    argv.push_back("--fusion=" + o.fusion);
  auto start = std::chrono::steady_clock::now();
  int rc = spawn(argv);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
           .count();
  if (rc == -1)
    return error = "cannot run " + argv[0], false;
  if (rc > 128)
    return error = "compiling " + o.program + " failed: kfuse-compile" + signalNote(rc), false;
  if (rc != 0)
    return error = "compiling " + o.program + " failed (kfuse-compile said why above)", false;
  return true;
}

namespace {
/// allclose's rule |a - b| <= atol + rtol * |b|, per dtype; exact for
/// integers and booleans.
std::pair<double, double> tolerance(const std::string &dtype) {
  if (dtype == "f32") return {1e-5, 1e-4};
  if (dtype == "f64") return {1e-12, 1e-10};
  if (dtype == "f16") return {1e-3, 1e-2};
  if (dtype == "bf16") return {1e-2, 2e-2};
  return {0, 0};
}
} // namespace

CheckResult checkAgainstCpu(const Options &o, const std::string &library,
                            const FunctionInfo &f, const std::vector<Tensor> &inputs,
                            const std::vector<Tensor> &results, std::string &error) {
  CheckResult check;
  check.ran = true;
  std::vector<std::string> argv = {selfDir() + "/kfuse-run", library, "--device=cpu",
                                   "--fusion=off", "--warmup=0", "--repeat=0",
                                   "--quiet", "--entry=" + f.name};
  for (size_t a = 0; a < inputs.size(); ++a) {
    std::string path = tempDir() + "/arg" + std::to_string(a) + ".npy";
    if (!writeNpy(path, inputs[a], error))
      return check.passed = false, check;
    argv.push_back("--input=arg" + std::to_string(a) + "=" + path);
  }
  for (size_t r = 0; r < results.size(); ++r)
    argv.push_back("--output=result" + std::to_string(r) + "=" + tempDir() + "/ref" +
                   std::to_string(r) + ".npy");
  if (int rc = spawn(argv); rc != 0) {
    check.passed = false;
    check.detail = "the reference run on the CPU failed" + signalNote(rc);
    return check;
  }
  for (size_t r = 0; r < results.size(); ++r) {
    Tensor ref;
    if (!readNpy(tempDir() + "/ref" + std::to_string(r) + ".npy", ref, error))
      return check.passed = false, check;
    const Tensor &got = results[r];
    auto [atol, rtol] = tolerance(got.dtype);
    check.tolerance = got.dtype + ": |a - b| <= " + std::to_string(atol).substr(0, 7) +
                      " + " + std::to_string(rtol).substr(0, 7) + " * |b|";
    if (ref.shape != got.shape) {
      check.passed = false;
      check.detail = "result" + std::to_string(r) + " has shape " + shapeString(got.shape) +
                     ", the reference " + shapeString(ref.shape);
      continue;
    }
    for (int64_t i = 0; i < got.elements(); ++i) {
      double a = got.at(i), b = ref.at(i);
      if (std::isnan(a) || std::isnan(b)) {
        if (std::isnan(a) != std::isnan(b) && check.passed) {
          check.passed = false;
          check.detail = "result" + std::to_string(r) + "[" + std::to_string(i) +
                         "]: " + std::to_string(a) + ", reference " + std::to_string(b);
        }
        continue;
      }
      if (a == b) // also equal infinities
        continue;
      double diff = std::fabs(a - b);
      check.maxAbs = std::max(check.maxAbs, diff);
      check.maxRel = std::max(check.maxRel, b != 0 ? diff / std::fabs(b) : INFINITY);
      if (!(diff <= atol + rtol * std::fabs(b)) && check.passed) {
        check.passed = false;
        check.detail = "result" + std::to_string(r) + "[" + std::to_string(i) + "]: " +
                       std::to_string(a) + ", reference " + std::to_string(b);
      }
    }
  }
  return check;
}

} // namespace kfuse::run
