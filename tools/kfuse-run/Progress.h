//===- Progress.h - a status line on the terminal while kfuse-run works -*- C++ -*-===//
//
// Compiling a large program takes seconds to minutes and a slow run as
// long; without a word the tool looks hung. While a step runs, one line on
// stderr says what it does and for how long ("compiling x.mlir (fusion
// on), 2.1 s", "running: call 37/100, 12.3 s"), rewritten in place with
// '\r' by a thread that ticks every 100 ms, and cleared when the step ends
// or anything else is printed. Shown when stderr is a terminal, once a
// step has taken 0.5 s; KFUSE_PROGRESS=1 forces it on and shows every step
// at once (tests read it through a pipe), KFUSE_PROGRESS=0 turns it off.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_PROGRESS_H
#define KFUSE_TOOLS_KFUSE_RUN_PROGRESS_H

#include <string>

namespace kfuse::run {

/// Decides whether the line is shown (never for `quiet`, the --check
/// child). Call once, before the first step.
void progressInit(bool quiet);
/// A new step: `text` is shown with its elapsed time (since
/// this step began, or since the step before when `sameClock`: the phases
/// of one run).
void progressStep(const std::string &text, bool sameClock = false);
/// The same step, with `text` changed (a count): shown at the next tick.
void progressUpdate(const std::string &text);
/// Step `i` of `n` ("running: call 7/100"): the first as progressStep
/// on the same clock, the others as progressUpdate; nothing is formatted
/// when the line is off (it runs between timed calls).
void progressCount(const char *what, int i, int n);
/// Erases the line and stops the ticking (before printing anything else).
void progressClear();
/// Ends a line left on screen with a newline, for a signal handler's
/// message. Async-signal-safe.
void progressBreakLine();

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_PROGRESS_H
