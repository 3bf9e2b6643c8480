// REQUIRES: torch
// torch.compile(model, backend="kfuse") (importer/kfuse_import/backend.py):
// each graph Dynamo captures runs as a kfuse library on the CPU, compared
// with PyTorch's own results; a graph kfuse cannot compile runs in PyTorch
// with one warning; one with an op kf lacks is split, that op left to
// PyTorch and the ops around it compiled by kfuse.
// RUN: rm -rf %t && mkdir -p %t && env KFUSE_CACHE=%t %torch-python %s.py 2>&1 | FileCheck %s

// CHECK: mlp: ok, 0 warnings, 1 library
// CHECK: tiny_gpt2: ok against float64 {{.*}}, 0 warnings
// CHECK: new inputs: ok
// Integer buffers (position ids, token types) are constants of the
// library, not a split around an i64 gather, and are checked on each call.
// CHECK: token types: ok, 1 library, 0 warnings
// CHECK: changed buffer: ok; kfuse: a buffer the library was compiled with changed its values; this graph runs in PyTorch
// The graph with an op kf lacks: linear + relu before cumprod and the ops
// after it are two kfuse libraries; cumprod runs in PyTorch.
// CHECK: cumprod: ok, 2 parts compiled by kfuse; kfuse: part of this graph runs in PyTorch: aten.cumprod.default: kf has no op for it
// A result that is an input is that input's memory (a view of it is a copy).
// CHECK: alias: ok, the returned input is x's memory: True
// dynamic=False: each new shape its own static library; 3 again is cached.
// CHECK: batch 3: ok
// CHECK: batch 5: ok
// CHECK: batch 3: ok
// CHECK: new libraries: 2; kfuse warnings in all: 2
// The cache key holds the compiler's identity: a rebuilt kfuse-compile
// compiles the same program again.
// CHECK: rebuilt compiler: ok, new libraries: 1, kfuse warnings in all: 2
