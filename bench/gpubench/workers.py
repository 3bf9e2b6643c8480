"""The rows in worker processes: a row that kills its process is recorded, a fresh worker goes on."""
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from .common import HERE, PREFIX
from .device import Bench


def emit(message):
    sys.stdout.write(PREFIX + json.dumps(message) + "\n")
    sys.stdout.flush()


def worker(args):
    """Runs the tasks of args.worker (a JSON file the parent wrote), telling
    the parent on stdout (PREFIX lines) what it starts and what it found;
    exits 3 when a row's error left the device unusable."""
    with open(args.worker) as f:
        plan = json.load(f)
    bench = Bench(args)
    copy = plan.get("copy_gbps") or bench.copy_gbps()
    emit({"hello": {"device": bench.k.device, "torch": bench.torch_description(),
                    "copy_gbps": copy}})
    for task in plan["tasks"]:
        emit({"start": task["index"]})
        poisoned = False
        if task["kind"] == "launch_overhead":
            try:
                result = bench.launch_overhead()
            except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                result = {"error": f"{type(e).__name__}: {e}"[:300]}
                poisoned = not bench.healthy()
        else:
            row = task["row"]
            if time.time() > task["deadline"]:
                result = {"row": row["name"], "family": row["family"],
                          "error": "skipped: past the time budget", "skipped": True}
            else:
                try:
                    result = bench.row(row, copy, task["compile_deadline"])
                except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                    result = {"row": row["name"], "family": row["family"], "crashed": True,
                              "error": f"{type(e).__name__}: {e}"[:300]}
                    poisoned = not bench.healthy()
                if row.get("tiles"):
                    result.setdefault("tiles", row["tiles"])
                    result.setdefault("base", row["base"])
        emit({"done": task["index"], "result": result})
        if poisoned:
            emit({"poisoned": True})
            sys.stdout.flush()
            os._exit(3)
    return 0


def log_error(path, offset):
    """The last error line a worker wrote to its log since `offset`."""
    try:
        with open(path, errors="replace") as f:
            f.seek(offset)
            lines = [x.strip() for x in f.read().splitlines() if x.strip()]
    except OSError:
        return ""
    for x in reversed(lines):
        if "kfuse runtime: error" in x:
            return x[:300]
    for x in reversed(lines):
        if "Error" in x or "error" in x:
            return x[:300]
    return lines[-1][:300] if lines else ""


class Workers:
    """Runs tasks in worker processes; a worker that dies (the runtime
    exits on a failed driver call), is killed past a task's time, or
    finds the device poisoned, takes its current task with it: that task is
    recorded as crashed and a fresh worker goes on with the rest."""

    def __init__(self, args):
        self.args = args
        self.copy_gbps = None
        self.hello = None
        self.log = os.path.join(args.out, "workers.log")
        self.count = 0
        open(self.log, "w").close()

    def command(self, plan_path):
        cmd = [sys.executable, os.path.join(HERE, "gpu_bench.py"), "--worker", plan_path,
               "--programs", self.args.programs, "--runtime", self.args.runtime]
        if self.args.dry_run:
            cmd.append("--dry-run")
        if self.args.no_torch:
            cmd.append("--no-torch")
        return cmd + ["--device", self.args.device]

    def run(self, tasks, on_done, skip_after_crash=None):
        """Each task's result (task["index"] -> result); on_done(task,
        result) as they come. skip_after_crash(crashed task, task): whether
        a task is left out after that one crashed (a sweep's SPEC)."""
        results = {}
        pending = list(tasks)
        while pending:
            self.count += 1
            plan_path = os.path.join(self.args.out, f"worker-{self.count}.json")
            with open(plan_path, "w") as f:
                json.dump({"tasks": pending, "copy_gbps": self.copy_gbps}, f)
            offset = os.path.getsize(self.log)
            with open(self.log, "a") as log:
                log.write(f"--- worker {self.count}: {len(pending)} tasks\n")
                log.flush()
                proc = subprocess.Popen(self.command(plan_path), stdout=subprocess.PIPE,
                                        stderr=log, text=True, bufsize=1,
                                        start_new_session=True)
            lines = queue.Queue()

            def pump():
                for line in proc.stdout:
                    lines.put(line)
                lines.put(None)
            threading.Thread(target=pump, daemon=True).start()
            by_index = {t["index"]: t for t in pending}
            current, since, why = None, time.time(), None
            while True:
                limit = (by_index[current]["timeout_s"] if current is not None else 240)
                try:
                    line = lines.get(timeout=max(1.0, since + limit - time.time()))
                except queue.Empty:
                    why = f"killed after {limit:.0f} s without an answer"
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)  # the worker and its children
                    except OSError:
                        pass
                    break
                if line is None:
                    break
                if not line.startswith(PREFIX):
                    with open(self.log, "a") as log:
                        log.write(line)
                    continue
                msg = json.loads(line[len(PREFIX):])
                if "hello" in msg:
                    self.hello = self.hello or msg["hello"]
                    self.copy_gbps = self.copy_gbps or msg["hello"]["copy_gbps"]
                    since = time.time()
                elif "start" in msg:
                    current, since = msg["start"], time.time()
                elif "done" in msg:
                    results[msg["done"]] = msg["result"]
                    on_done(by_index[msg["done"]], msg["result"])
                    current, since = None, time.time()
            proc.wait()
            if current is None and not any(t["index"] in results for t in pending) \
                    and pending:
                # Died before its first task: another would too.
                why = why or (f"exit {proc.returncode}: " + log_error(self.log, offset))
                for t in pending:
                    r = {"row": t.get("row", {}).get("name", t["kind"]), "crashed": True,
                         "error": "the worker did not start: " + why}
                    results[t["index"]] = r
                    on_done(t, r)
                break
            if current is not None and current not in results:
                why = why or (f"the worker died (exit {proc.returncode}): "
                              + log_error(self.log, offset))
                t = by_index[current]
                r = {"row": t.get("row", {}).get("name", t["kind"]), "crashed": True,
                     "error": why[:400]}
                if t.get("row"):
                    r["family"] = t["row"]["family"]
                    if t["row"].get("tiles"):
                        r["tiles"], r["base"] = t["row"]["tiles"], t["row"]["base"]
                results[current] = r
                on_done(t, r)
                if skip_after_crash:
                    for other in pending:
                        if other["index"] not in results and skip_after_crash(t, other):
                            r = {"row": other["row"]["name"], "family": "matmul",
                                 "tiles": other["row"]["tiles"], "base": other["row"]["base"],
                                 "skipped": True, "error": "skipped: its tiles crashed "
                                 f"the worker in {t['row']['name']}"}
                            results[other["index"]] = r
                            on_done(other, r)
            pending = [t for t in pending if t["index"] not in results]
        return results
