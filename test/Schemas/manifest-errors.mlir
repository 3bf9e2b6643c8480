// The manifest embedded in a library is parsed by nlohmann/json: what is
// not JSON is refused with one error naming the line, column and what was
// expected (exit status 1, never a crash); too deep a nesting is refused
// before it is built (test/Runtime/bad-libraries.mlir).
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '#define MANIFEST "{\"functions\": [1, }"' > %t/comma.h
// RUN: cc -shared -fPIC -include %t/comma.h %S/../Runtime/Inputs/fake-program.c -o %t/comma.so
// RUN: not kfuse-run %t/comma.so 2>&1 | FileCheck %s --check-prefix=COMMA
// COMMA: kfuse-run: error: {{.*}}comma.so: the manifest does not parse: parse error at line 1, column 19: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal
// RUN: echo '#define MANIFEST "{\"functions\": []} trailing"' > %t/trail.h
// RUN: cc -shared -fPIC -include %t/trail.h %S/../Runtime/Inputs/fake-program.c -o %t/trail.so
// RUN: not kfuse-run %t/trail.so 2>&1 | FileCheck %s --check-prefix=TRAIL
// TRAIL: kfuse-run: error: {{.*}}trail.so: the manifest does not parse: parse error at line 1, column 21: syntax error while parsing value - invalid literal; last read: '"functions": []} tra'; expected end of input
// An empty manifest.
// RUN: echo '#define MANIFEST ""' > %t/empty.h
// RUN: cc -shared -fPIC -include %t/empty.h %S/../Runtime/Inputs/fake-program.c -o %t/empty.so
// RUN: not kfuse-run %t/empty.so 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kfuse-run: error: {{.*}}empty.so: the manifest does not parse: {{.*}}unexpected end of input
