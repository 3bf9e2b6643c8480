//===- Progress.cpp - a status line on the terminal while kfuse-run works -===//
#include "Progress.h"

#include <chrono>
#include <csignal>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace kfuse::run {

namespace {
using Clock = std::chrono::steady_clock;

struct State {
  bool enabled = false;
  bool forced = false;  // KFUSE_PROGRESS=1: every step drawn at once
  bool active = false;  // a step is running
  bool stopping = false;
  std::string text;
  Clock::time_point stepStart;
  size_t shownWidth = 0; // what the line on screen holds, to blank it
  std::mutex mutex;
  std::condition_variable wake;
  std::thread ticker;
};

/// Whether a line is on screen: read by progressBreakLine in a signal
/// handler, which may not take the mutex.
volatile sig_atomic_t lineShown = 0;

State &state() {
  static State s;
  return s;
}

/// Rewrites the line; the caller holds the mutex. Plain write(2): stderr
/// is unbuffered, and one write keeps the line whole.
void draw(State &s) {
  double seconds = std::chrono::duration<double>(Clock::now() - s.stepStart).count();
  char time[32];
  std::snprintf(time, sizeof(time), ", %.1f s", seconds);
  std::string line = s.text + time;
  std::string out = "\r" + line;
  if (line.size() < s.shownWidth)
    out += std::string(s.shownWidth - line.size(), ' ') + "\r" + line;
  s.shownWidth = line.size();
  ssize_t ignored = write(2, out.data(), out.size());
  (void)ignored;
  lineShown = 1;
}

void erase(State &s) {
  if (s.shownWidth == 0)
    return;
  std::string out = "\r" + std::string(s.shownWidth, ' ') + "\r";
  ssize_t ignored = write(2, out.data(), out.size());
  (void)ignored;
  s.shownWidth = 0;
  lineShown = 0;
}

void tick() {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  while (!s.stopping) {
    s.wake.wait_for(lock, std::chrono::milliseconds(100));
    // On a terminal a step is shown once it has taken half a second: a
    // quick one (a cache hit, a compile error) leaves no flicker behind.
    if (s.active && !s.stopping &&
        (s.forced || Clock::now() - s.stepStart >= std::chrono::milliseconds(500)))
      draw(s);
  }
}
} // namespace

void progressInit(bool quiet) {
  State &s = state();
  const char *forced = std::getenv("KFUSE_PROGRESS");
  if (quiet)
    s.enabled = false;
  else if (forced && *forced)
    s.enabled = s.forced = std::strcmp(forced, "0") != 0;
  else
    s.enabled = isatty(2);
}

void progressStep(const std::string &text, bool sameClock) {
  State &s = state();
  if (!s.enabled)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.text = text;
  if (!sameClock || !s.active)
    s.stepStart = Clock::now();
  s.active = true;
  if (s.forced)
    draw(s);
  if (!s.ticker.joinable()) {
    s.stopping = false;
    s.ticker = std::thread(tick);
  }
}

void progressUpdate(const std::string &text) {
  State &s = state();
  if (!s.enabled)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.text = text;
}

void progressCount(const char *what, int i, int n) {
  if (!state().enabled)
    return;
  std::string text = std::string(what) + " " + std::to_string(i) + "/" + std::to_string(n);
  if (i == 1)
    progressStep(text, /*sameClock=*/true);
  else
    progressUpdate(text);
}

void progressBreakLine() {
  if (lineShown) {
    ssize_t ignored = write(2, "\n", 1);
    (void)ignored;
  }
}

void progressClear() {
  State &s = state();
  if (!s.enabled)
    return;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.active = false;
    s.stopping = true;
    erase(s);
  }
  s.wake.notify_all();
  if (s.ticker.joinable())
    s.ticker.join();
}

} // namespace kfuse::run
