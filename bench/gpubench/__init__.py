"""bench/gpu_bench.py's parts (that file says what the benchmark does)."""
