# A trace of a run longer than a second keeps sub-microsecond digits: the
# warm-up is doubled until the traced calls start more than 1.1 s after the
# runtime's start (machine-independent: a fast machine needs more calls),
# then every event after 1 s must have a fractional microsecond part, which
# a float printed with 6 significant digits (10 µs steps there) never has.
import argparse
import json
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("--kfuse-run")
p.add_argument("--library")
p.add_argument("--trace")
a = p.parse_args()

# kfuse-run takes at most 10^6 warm-up calls; a program fast enough to
# run those in under a second gets more traced calls instead.
warmup, repeat = 64, 20
while True:
    subprocess.run([a.kfuse_run, a.library, "--device=cpu", f"--warmup={warmup}",
                    f"--repeat={repeat}", "--quiet", f"--trace={a.trace}"], check=True)
    events = json.load(open(a.trace))["traceEvents"]
    late = [e for e in events if e["ts"] > 1e6]
    if len(late) >= 20 or repeat >= 1000000:
        break
    if warmup < 1000000:
        warmup = min(2 * warmup, 1000000)
    else:
        repeat = min(2 * repeat, 1000000)
starts = [e["ts"] for e in events]
assert starts == sorted(starts), "events out of order"
assert all(e["dur"] >= 0 for e in events)
whole = [e["ts"] for e in late if e["ts"] == int(e["ts"])]
# One in a thousand ns-resolution times is a whole µs by chance (a fast
# machine traces tens of thousands of late events, so some are); with 6
# significant digits every one would be. At most 1 in 100 (or 1) passes.
assert len(late) >= 20 and len(whole) <= max(1, len(late) // 100), (len(late), whole[:5])
print(f"{len(late)} events after 1 s, fewer than 1% without sub-us digits")
