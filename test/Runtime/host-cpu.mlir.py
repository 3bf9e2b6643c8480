"""Helper of host-cpu.mlir: what this machine's CPU has, from /proc/cpuinfo
(not from kfuse or LLVM), and the kfuse_manifest of a library."""
import ctypes
import json
import sys


def flags():
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def manifest(path):
    lib = ctypes.CDLL(path)
    start = ctypes.addressof(ctypes.c_char.in_dll(lib, "kfuse_manifest"))
    return json.loads(ctypes.cast(start, ctypes.c_char_p).value)


def lacking():
    """A CPU LLVM knows that has an x86 feature this machine lacks, and the
    features (LLVM's names, cpuinfo's in brackets) it lacks of that CPU's."""
    have = flags()
    choices = [  # (CPU, [(LLVM name, /proc/cpuinfo flag)])
        ("x86-64-v4", [("avx512bw", "avx512bw"), ("avx512cd", "avx512cd"),
                       ("avx512dq", "avx512dq"), ("avx512f", "avx512f"),
                       ("avx512vl", "avx512vl")]),
        ("sapphirerapids", [("avx512fp16", "avx512_fp16")]),
        ("znver5", [("avx512vp2intersect", "avx512_vp2intersect")]),
    ]
    for cpu, features in choices:
        missing = [llvm for llvm, flag in features if flag not in have]
        if missing:
            return cpu, missing
    return None, []


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "lacking-cpu":
        print(lacking()[0] or "none")
    elif what == "lacking-features":
        print(", ".join(lacking()[1]))
    elif what == "recorded":
        # The recorded features against /proc/cpuinfo: each vector ISA
        # level is there exactly when the CPU reports it.
        m = manifest(sys.argv[2])["host_cpu"]
        have = flags()
        for llvm, flag in [("avx", "avx"), ("avx2", "avx2"), ("fma", "fma"),
                           ("avx512f", "avx512f"), ("sse4.2", "sse4_2")]:
            if (llvm in m["features"]) != (flag in have):
                print("mismatch:", llvm, "recorded" if llvm in m["features"] else "absent",
                      "but cpuinfo says", flag in have)
        print("requested", m["requested"], "name", m["name"])
    elif what == "refusal":
        # The refusal names exactly the features lacking() predicts.
        text = open(sys.argv[2]).read()
        expected = ", ".join(lacking()[1])
        print("refused as expected" if ("this CPU lacks " + expected + ":") in text
              else "unexpected refusal: " + text.strip() + " (expected " + expected + ")")
    elif what == "model":
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                print(line.split(":", 1)[1].strip())
                break
    elif what == "other-cpu":
        # The cache's index says the program's last compile was for another
        # CPU, and its entries are gone: the next run misses, and says why.
        import glob
        import os
        cache = sys.argv[2]
        for entry in glob.glob(os.path.join(cache, "compile", "*.so")):
            os.remove(entry)
        for index in glob.glob(os.path.join(cache, "compile", "index", "*")):
            lines = open(index).read().splitlines()
            lines = ["host-cpu Other CPU #000000000000" if l.startswith("host-cpu ") else l
                     for l in lines]
            open(index, "w").write("\n".join(lines) + "\n")
