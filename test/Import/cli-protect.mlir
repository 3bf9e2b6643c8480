// REQUIRES: torch
// kfuse-import never deletes or writes over a file it did not write. A new
// OUT.inputs/ replaces the old one whole (no stale argN.npy), so it refuses
// to when the folder holds the model's source or a file the model read
// (not even with --force), or a file a user put into its own folder
// (without --force). Each refusal says why, exits 1, and writes nothing.
// RUN: rm -rf %t && mkdir -p %t/out.inputs && cp %S/Inputs/cli_model.py %t/out.inputs/model.py

// The source inside a folder that is not kfuse-import's: --force would
// have replaced the folder, and the source with it.
// RUN: not %kfuse_import %t/out.inputs/model.py -o %t/out.mlir --save-inputs --force 2>&1 | FileCheck %s --check-prefix=FORCED
// FORCED: kfuse-import: error: {{.*}}out.inputs: refusing to replace this folder: it holds {{.*}}out.inputs/model.py, the model's source; kfuse-import never writes or deletes it, not even with --force
// RUN: cmp %S/Inputs/cli_model.py %t/out.inputs/model.py
// RUN: test ! -e %t/out.mlir

// The source copied into a folder kfuse-import wrote (its manifest and
// argN.npy are there): refused although the folder is kfuse-import's.
// RUN: %kfuse_import %S/Inputs/cli_model.py -o %t/own.mlir --save-inputs > /dev/null
// RUN: cp %S/Inputs/cli_model.py %t/own.inputs/model.py
// RUN: not %kfuse_import %t/own.inputs/model.py -o %t/own.mlir --save-inputs 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: kfuse-import: error: {{.*}}own.inputs: refusing to replace this folder: it holds {{.*}}own.inputs/model.py, the model's source
// RUN: cmp %S/Inputs/cli_model.py %t/own.inputs/model.py
// A hard link to the source is the source too.
// RUN: ln %t/own.inputs/model.py %t/linked.py
// RUN: not %kfuse_import %t/linked.py -o %t/own.mlir --save-inputs --force 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: kfuse-import: error: {{.*}}own.inputs: refusing to replace this folder: it holds {{.*}}own.inputs/model.py (the same file as {{.*}}linked.py), the model's source
// RUN: cmp %S/Inputs/cli_model.py %t/own.inputs/model.py

// A file the model read (its example input) inside the folder.
// RUN: mkdir %t/read.inputs && cp %S/Inputs/cli_reader.py %t/reader.py
// RUN: %python -c "import numpy as np; np.save('%t/read.inputs/x.npy', np.array([1, -2, 3], np.float32))"
// RUN: cp %t/read.inputs/x.npy %t/x-before.npy
// RUN: not %kfuse_import %t/reader.py -o %t/read.mlir --save-inputs --force 2>&1 | FileCheck %s --check-prefix=READ
// READ: kfuse-import: error: {{.*}}read.inputs: refusing to replace this folder: it holds {{.*}}read.inputs/x.npy, a file the model read; kfuse-import never writes or deletes it, not even with --force
// RUN: cmp %t/x-before.npy %t/read.inputs/x.npy
// RUN: test ! -e %t/read.mlir
// The same model with its outputs elsewhere is imported.
// RUN: %kfuse_import %t/reader.py -o %t/elsewhere.mlir --save-inputs | FileCheck %s --check-prefix=ELSEWHERE
// ELSEWHERE: wrote {{.*}}elsewhere.mlir: @reader, 1 argument, inputs in

// A file the user added to kfuse-import's folder: kept unless --force.
// RUN: echo notes > %t/own.inputs/notes.txt && rm %t/own.inputs/model.py %t/linked.py
// RUN: not %kfuse_import %S/Inputs/cli_model.py -o %t/own.mlir --save-inputs 2>&1 | FileCheck %s --check-prefix=NOTES
// NOTES: kfuse-import: error: {{.*}}own.inputs holds notes.txt, which kfuse-import did not write; refusing to replace it (--force to replace it)
// RUN: FileCheck %s --check-prefix=KEPT < %t/own.inputs/notes.txt
// KEPT: notes
// RUN: %kfuse_import %S/Inputs/cli_model.py -o %t/own.mlir --save-inputs --force > /dev/null
// RUN: ls %t/own.inputs | FileCheck %s --check-prefix=REPLACED
// REPLACED:      arg0.npy
// REPLACED-NEXT: arg1.npy
// REPLACED-NEXT: arg2.npy
// REPLACED-NEXT: kfuse-import.json
// REPLACED-NOT:  notes.txt

// Loading a model leaves no __pycache__/ beside it.
// RUN: test ! -e %t/__pycache__ && test ! -e %t/out.inputs/__pycache__
