"""Helper of host-cpu.mlir: what this machine's CPU has, from /proc/cpuinfo
(not from kfuse or LLVM), and what a library needs, from its kfuse_manifest.

A library compiled for another CPU is refused for the features LLVM gave
that CPU (recorded in the library) that the runtime checks (the names of
kFeatures in runtime/HostCpu.h) and this CPU lacks: the prediction below is
made from the same three, never from a list of what a CPU is expected to
have. KFUSE_PRETEND_HOST_FEATURES, when set, is this CPU's features, for
the helper as for the runtime (runtime/HostCpu.h)."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRETEND = "KFUSE_PRETEND_HOST_FEATURES"

# LLVM's name -> /proc/cpuinfo's (Linux's arch/x86/include/asm/cpufeatures.h);
# None where Linux does not list the feature (KVM-only leaves), so that
# cpuinfo cannot say whether the CPU has it.
CPUINFO = {
    "cmov": "cmov", "cx8": "cx8", "mmx": "mmx", "fxsr": "fxsr", "sse": "sse",
    "sse2": "sse2", "sse3": "pni", "pclmul": "pclmulqdq", "ssse3": "ssse3",
    "fma": "fma", "cx16": "cx16", "sse4.1": "sse4_1", "sse4.2": "sse4_2",
    "crc32": "sse4_2", "movbe": "movbe", "popcnt": "popcnt", "aes": "aes",
    "xsave": "xsave", "avx": "avx", "f16c": "f16c", "rdrnd": "rdrand",
    "fsgsbase": "fsgsbase", "bmi": "bmi1", "avx2": "avx2", "bmi2": "bmi2",
    "avx512f": "avx512f", "avx512dq": "avx512dq", "rdseed": "rdseed",
    "adx": "adx", "avx512ifma": "avx512ifma", "clflushopt": "clflushopt",
    "clwb": "clwb", "avx512cd": "avx512cd", "sha": "sha_ni",
    "avx512bw": "avx512bw", "avx512vl": "avx512vl",
    "avx512vbmi": "avx512vbmi", "avx512vbmi2": "avx512_vbmi2", "gfni": "gfni",
    "vaes": "vaes", "vpclmulqdq": "vpclmulqdq", "avx512vnni": "avx512_vnni",
    "avx512bitalg": "avx512_bitalg", "avx512vpopcntdq": "avx512_vpopcntdq",
    "avx512vp2intersect": "avx512_vp2intersect", "avx512fp16": "avx512_fp16",
    "avxvnni": "avx_vnni", "avx512bf16": "avx512_bf16", "avxifma": "avx_ifma",
    "avxvnniint8": None, "avxneconvert": None, "sahf": "lahf_lm",
    "lzcnt": "abm", "sse4a": "sse4a", "prfchw": "3dnowprefetch", "xop": "xop",
    "fma4": "fma4", "tbm": "tbm",
}

# CPUs LLVM knows, tried in turn for one with a feature this CPU lacks: an
# x86-64 without AVX-512 lacks x86-64-v4's, an AMD with AVX-512 lacks
# sapphirerapids' AVX512-FP16 and an Intel lacks znver5's SSE4A. Only the
# choice is made here; what it lacks is computed.
CANDIDATES = ["x86-64-v4", "sapphirerapids", "znver5"]


def flags():
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def checked():
    """The features the runtime checks: the names of HostCpu.h's kFeatures."""
    text = open(os.path.join(ROOT, "runtime", "HostCpu.h")).read()
    table = text[text.index("kFeatures[] = {"):]
    names = re.findall(r'\{"([^"]+)",', table[:table.index("};")])
    unknown = [n for n in names if n not in CPUINFO]
    if unknown:  # the table grew: say which cpuinfo flag each one is above
        sys.exit("host-cpu.mlir.py: no /proc/cpuinfo name for " + ", ".join(unknown))
    return names


def has(feature):
    """Whether this CPU has `feature` (LLVM's name); None: cannot tell."""
    if PRETEND in os.environ:
        return feature in [f[1:] for f in os.environ[PRETEND].split(",")]
    flag = CPUINFO[feature]
    return None if flag is None else flag in flags()


def manifest(path):
    """A library's kfuse_manifest, read from the file (loading a library
    for another CPU would be refused): the symbol's bytes in its section."""
    data = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] not in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            continue
        strtab = sections[sh[6]]
        for at in range(sh[4], sh[4] + sh[5], 24):
            name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, at)
            end = data.index(b"\0", strtab[4] + name)
            if data[strtab[4] + name:end] == b"kfuse_manifest":
                owner = sections[shndx]
                start = owner[4] + value - owner[3]
                return json.loads(data[start:data.index(b"\0", start)])
    sys.exit(path + ": no kfuse_manifest")


def compiled(compiler, program, directory, cpu):
    """The library of `program` for `cpu` in `directory`, compiled once."""
    path = os.path.join(directory, "cpu-" + cpu + ".so")
    if not os.path.exists(path):
        subprocess.run([compiler, program, "--emit=lib", "--host-cpu=" + cpu,
                        "-o", path], check=True)
    return path


def lacking(compiler, program, directory, output):
    """The first candidate CPU with a feature the runtime checks that this
    CPU lacks (its library copied to `output`), and those features, in the
    library's order (the runtime's). A candidate needing a feature that
    cpuinfo cannot tell about is passed over: its refusal is not known."""
    table = checked()
    for cpu in CANDIDATES:
        library = compiled(compiler, program, directory, cpu)
        needed = [f for f in manifest(library)["host_cpu"]["features"] if f in table]
        if any(has(f) is None for f in needed):
            continue
        missing = [f for f in needed if not has(f)]
        if missing:
            shutil.copyfile(library, output)
            return cpu, missing
    sys.exit("no CPU in " + ", ".join(CANDIDATES) + " has a feature this one lacks")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "lacking":
        # lacking COMPILER PROGRAM DIR OUTPUT.so: the prediction, one line.
        cpu, missing = lacking(*sys.argv[2:6])
        print("compiled for", cpu, "lacks", ", ".join(missing))
    elif what == "features":
        # features COMPILER PROGRAM DIR CPU: what LLVM gives CPU, as a
        # library records it (the form KFUSE_PRETEND_HOST_FEATURES takes).
        library = compiled(*sys.argv[2:6])
        print(",".join("+" + f for f in manifest(library)["host_cpu"]["features"]))
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
        # refusal REFUSED.txt PREDICTED.txt: the refusal names exactly the
        # CPU and features predicted.
        text = open(sys.argv[2]).read()
        cpu, expected = open(sys.argv[3]).read().strip().split(" lacks ")
        cpu = cpu.split()[-1]
        wanted = "compiled for the CPU '" + cpu + "'"
        ok = wanted in text and ("this CPU lacks " + expected + ":") in text
        print("refused as expected" if ok else "unexpected refusal: " + text.strip()
              + " (expected " + cpu + " lacking " + expected + ")")
    elif what == "model":
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                print(line.split(":", 1)[1].strip())
                break
    elif what == "other-cpu":
        # The cache's index says the program's last compile was for another
        # CPU, and its entries are gone: the next run misses, and says why.
        import glob
        cache = sys.argv[2]
        for entry in glob.glob(os.path.join(cache, "compile", "*.so")):
            os.remove(entry)
        for index in glob.glob(os.path.join(cache, "compile", "index", "*")):
            lines = open(index).read().splitlines()
            lines = ["host-cpu Other CPU #000000000000" if l.startswith("host-cpu ") else l
                     for l in lines]
            open(index, "w").write("\n".join(lines) + "\n")
