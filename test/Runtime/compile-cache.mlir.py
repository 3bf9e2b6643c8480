"""Helper of compile-cache.mlir: reads and tampers with kfuse-run's compile
cache independently of kfuse (hashlib's SHA-256, not kfuse's).

  verify DIR          every entry of DIR/compile is whole (its trailer's
                      SHA-256 and size match the library bytes, by hashlib)
                      and every program's last key (index/) names an entry
                      by the SHA-256 of the key's text
  forge ENTRY         replaces ENTRY with garbage under a valid trailer (it
                      passes the checksum and fails to load)
  plant DIR TARGET    replaces the one entry of DIR/compile by a symbolic
                      link to TARGET
  race N -- CMD...    runs N copies of CMD at once; prints each one's exit
                      status and its `compile:` line
"""
import glob
import hashlib
import os
import re
import subprocess
import sys

TRAILER = re.compile(rb"\n#kfuse-cache-entry v1 sha256=([0-9a-f]{64}) size=([0-9]{20})\n$")


def entries(cache):
    return sorted(glob.glob(os.path.join(cache, "compile", "*.so")))


def verify(cache):
    names = entries(cache)
    for path in names:
        data = open(path, "rb").read()
        match = TRAILER.search(data)
        if os.path.islink(path) or not match:
            sys.exit(f"{path}: not a whole entry")
        size = int(match.group(2))
        library = data[:size]
        if size != len(data) - len(match.group(0)) or \
                hashlib.sha256(library).hexdigest() != match.group(1).decode():
            sys.exit(f"{path}: the checksum does not match")
        if not library.startswith(b"\x7fELF"):
            sys.exit(f"{path}: not an ELF library")
    keys = glob.glob(os.path.join(cache, "compile", "index", "*"))
    for index in keys:
        text = open(index, "rb").read()
        key = text.split(b"\n", 1)[1]
        name = hashlib.sha256(key).hexdigest() + ".so"
        if not os.path.exists(os.path.join(cache, "compile", name)):
            sys.exit(f"{index}: its key names no entry ({name})")
    print(f"{len(names)} whole entries, {len(keys)} programs indexed")


def forge(entry):
    garbage = b"garbage, not a library\n" * 10
    digest = hashlib.sha256(garbage).hexdigest().encode()
    with open(entry, "wb") as f:
        f.write(garbage + b"\n#kfuse-cache-entry v1 sha256=" + digest +
                b" size=%020d\n" % len(garbage))


def plant(cache, target):
    (entry,) = entries(cache)
    os.remove(entry)
    os.symlink(target, entry)


def race(count, command):
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True) for _ in range(count)]
    for i, run in enumerate(runs):
        out, _ = run.communicate()
        lines = [l for l in out.splitlines() if l.startswith(("compile:", "check", "kfuse-run: error"))]
        print(f"run {i}: exit {run.returncode}: " + " | ".join(lines))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "verify":
        verify(sys.argv[2])
    elif what == "forge":
        forge(sys.argv[2])
    elif what == "plant":
        plant(sys.argv[2], sys.argv[3])
    elif what == "race":
        race(int(sys.argv[2]), sys.argv[4:])
    else:
        sys.exit(f"unknown command {what}")
