"""Helper of cuda-graph-sizes.mlir: calls add_relu of a library from
kfuse-compile --emit=lib through the runtime's C API (runtime.h), as a
program that embeds kfuse would: kfuse_rt_graph_begin/end around each
call, with the size as the key.
usage: cuda-graph-sizes.mlir.py LIBRARY CALLS
CALLS: comma-separated n or n:new (n elements; new: fresh input buffers)."""
import ctypes
import sys


class Memref1D(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("size", ctypes.c_int64),
                ("stride", ctypes.c_int64)]


def main():
    program = ctypes.CDLL(sys.argv[1])
    rt = program  # the runtime's symbols, through the library's dependency
    rt.kfuse_rt_alloc.restype = ctypes.c_void_p
    rt.kfuse_rt_alloc.argtypes = [ctypes.c_size_t]
    rt.kfuse_rt_free.argtypes = [ctypes.c_void_p]
    rt.kfuse_rt_graph_begin.argtypes = [ctypes.c_char_p]
    why = ctypes.create_string_buffer(256)
    if rt.kfuse_rt_init(b"cuda", why, 256) != 0:
        sys.exit("init: " + why.value.decode())
    if rt.kfuse_rt_set_cuda_graphs(b"on") != 0:
        sys.exit("kfuse_rt_set_cuda_graphs refused on")
    call = program._mlir_ciface_add_relu__gpu_fused
    inputs = {}
    for spec in sys.argv[2].split(","):
        n, _, fresh = spec.partition(":")
        n = int(n)
        if n not in inputs or fresh:
            inputs[n] = [rt.kfuse_rt_alloc(4 * n) for _ in range(2)]
        a, b = (Memref1D(p, p, 0, n, 1) for p in inputs[n])
        result = Memref1D()
        rt.kfuse_rt_graph_begin(f"add_relu n={n}".encode())
        call(ctypes.byref(result), ctypes.byref(a), ctypes.byref(b))
        rt.kfuse_rt_graph_end()
        rt.kfuse_rt_synchronize()
        rt.kfuse_rt_free(result.allocated)

    class Stats(ctypes.Structure):
        _fields_ = [(k, ctypes.c_uint64) for k in
                    ("captures", "updates", "replays", "uncaptured")]
    s = Stats()
    rt.kfuse_rt_graph_stats(ctypes.byref(s))
    print(f"captures {s.captures} updates {s.updates} replays {s.replays} "
          f"uncaptured {s.uncaptured}")


if __name__ == "__main__":
    main()
