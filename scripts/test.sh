#!/usr/bin/env bash
# Sets up, builds and runs every kfuse test. Ends with one line CI reads:
# "N passed, N failed" (", N skipped" when some were skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
LIT=/usr/lib/llvm-22/bin/lit
results=build/test/lit-results.json
rm -f "$results"
status=0
/usr/bin/python3 "$LIT" -sv -j "${KFUSE_JOBS:-2}" build/test -o "$results" || status=$?
/usr/bin/python3 - "$results" <<'PY'
import json, sys
try:
    tests = json.load(open(sys.argv[1]))["tests"]
except (OSError, ValueError, KeyError):
    print("0 passed, 1 failed (lit wrote no results)")
    sys.exit(0)
codes = [t["code"] for t in tests]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
skipped = sum(c in ("UNSUPPORTED", "SKIPPED") for c in codes)
failed = len(codes) - passed - skipped
line = f"{passed} passed, {failed} failed"
print(line + (f", {skipped} skipped" if skipped else ""))
PY
exit $status
