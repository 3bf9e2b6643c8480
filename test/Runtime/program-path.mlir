// `kfuse-run prog.so` runs the file ./prog.so, as the README says: the
// argument is a path, not a name for dlopen to search the library path
// with (which found another prog.so first, or none at all).
// RUN: rm -rf %t && mkdir -p %t/here %t/elsewhere
// RUN: cc -shared -fPIC -DNAME=from_here %S/Inputs/fake-program.c -o %t/here/prog.so
// RUN: cc -shared -fPIC -DNAME=from_elsewhere %S/Inputs/fake-program.c -o %t/elsewhere/prog.so
// RUN: cd %t/here && env LD_LIBRARY_PATH=%t/elsewhere kfuse-run prog.so --device=cpu --repeat=0 \
// RUN:   | FileCheck %s
// RUN: cd %t/here && kfuse-run prog.so --device=cpu --repeat=0 | FileCheck %s
// CHECK: kfuse-run: prog.so, function from_here, fusion on
// A name that is no file here is not looked for elsewhere.
// RUN: cd %t && not env LD_LIBRARY_PATH=%t/elsewhere kfuse-run prog.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: kfuse-run: error: cannot read prog.so
