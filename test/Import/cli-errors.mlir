// REQUIRES: torch
// A model file whose code ends the program (sys.exit, exit(), argparse) is
// an error naming the line that exited, with exit status 1: let through,
// sys.exit(0) made kfuse-import exit 0 having written and said nothing.
// RUN: rm -rf %t && mkdir %t

// sys.exit(0) at the top level of the file, while it is loaded.
// RUN: not %kfuse_import %S/Inputs/cli_exit.py -o %t/exit.mlir > %t/exit.out 2>&1
// RUN: FileCheck %s --check-prefix=LOAD < %t/exit.out
// LOAD: kfuse-import: error: {{.*}}cli_exit.py:16: the model's code exited (SystemExit with code 0) while kfuse-import was loading it; nothing was imported
// RUN: test ! -e %t/exit.mlir

// sys.exit(0) in a helper of forward(), while torch.export traces it.
// RUN: not %kfuse_import %S/Inputs/cli_exit_forward.py 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: kfuse-import: error: {{.*}}cli_exit_forward.py:10: the model's code exited (SystemExit with code 0) while kfuse-import was exporting it (torch.export runs its forward())

// An op kf lacks in a helper function: the error names the op's own line
// (not forward()'s), then the calls that led there, innermost first.
// RUN: not %kfuse_import %S/Inputs/cli_helper.py 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER:      kfuse-import: error: {{.*}}cli_helper.py:8: aten.sort.default: kf has no op for it
// HELPER-NEXT:     return torch.sort(y, dim=-1).values
// HELPER-NEXT:   called from {{.*}}cli_helper.py:13 in doubled_sorted: return ascending(y) + 1
// HELPER-NEXT:   called from {{.*}}cli_helper.py:18 in forward: return doubled_sorted(x)
// HELPER-NEXT:   called from {{.*}}cli_helper.py:27 in forward: return self.inner(x).relu()

// torch.export's own failure (a Python branch on a tensor's value) is one
// line at the model's source line, quoted, not torch's traceback.
// RUN: not %kfuse_import %S/Inputs/cli_data_branch.py 2>&1 | FileCheck %s --check-prefix=EXPORT
// EXPORT:      kfuse-import: error: {{.*}}cli_data_branch.py:7: torch.export failed while tracing forward(): GuardOnDataDependentSymNode: Could not guard on data-dependent expression
// EXPORT-NEXT:     if x.sum() > 0:
// EXPORT-NOT:  Traceback
