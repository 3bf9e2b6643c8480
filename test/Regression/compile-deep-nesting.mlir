// Deeply nested attributes, types and regions: MLIR's parser recurses once
// per level, and 10,000 nested `[` overflowed the stack of kfuse-opt and
// kfuse-compile (a segfault). Input nested deeper than 1,000 levels is now
// refused before parsing, at the first bracket too deep: one error with
// file, line and column, exit 1. 900 levels still parse.
// The attribute starts after `func.func @f() attributes {a = ` (31
// characters, 1 level): the 1,000th `[` is level 1,001, at column 1031.
// RUN: %python -c "print('func.func @f() attributes {a = ' + '[' * 10000 + ']' * 10000 + '} { return }')" > %t.10k.mlir
// RUN: not kfuse-opt %t.10k.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not kfuse-compile %t.10k.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not kfuse-compile %t.10k.mlir --emit=lib -o %t.so 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not test -e %t.so
// DEEP: 10k.mlir:1:1031: error: nesting deeper than 1000 levels of brackets, braces, parentheses or angle brackets: refused (parsing it would overflow the stack)
// DEEP-NOT: Stack dump
// 200,000 `[`, never closed.
// RUN: %python -c "print('func.func @f() attributes {a = ' + '[' * 200000)" > %t.200k.mlir
// RUN: not kfuse-opt %t.200k.mlir 2>&1 | FileCheck %s --check-prefix=DEEP200
// RUN: not kfuse-compile %t.200k.mlir 2>&1 | FileCheck %s --check-prefix=DEEP200
// DEEP200: 200k.mlir:1:1031: error: nesting deeper than 1000 levels
// Through stdin too (kfuse-opt reads `-`).
// RUN: not kfuse-opt < %t.200k.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:1:1031: error: nesting deeper than 1000 levels
// Types (complex<complex<...>>) and regions (scf.execute_region in one
// another), on line 2.
// RUN: %python -c "print('// types\nfunc.func private @g(' + 'complex<' * 10000 + 'f32' + '>' * 10000 + ')')" > %t.types.mlir
// RUN: not kfuse-opt %t.types.mlir 2>&1 | FileCheck %s --check-prefix=TYPES
// TYPES: types.mlir:2:{{[0-9]+}}: error: nesting deeper than 1000 levels
// RUN: %python -c "print('// regions\nfunc.func @h() {\n' + '\"scf.execute_region\"() ({\n' * 10000 + '})' * 10000 + '\nreturn }')" > %t.regions.mlir
// RUN: not kfuse-opt %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// RUN: not kfuse-compile %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: regions.mlir:{{[0-9]+}}:{{[0-9]+}}: error: nesting deeper than 1000 levels
// Brackets in strings and comments and `->` count for nothing.
// RUN: %python -c "print('// ' + '[' * 5000 + '\nfunc.func @s() attributes {a = \"' + '[' * 5000 + '\"} { return }')" > %t.strings.mlir
// RUN: kfuse-opt %t.strings.mlir | FileCheck %s --check-prefix=STRINGS
// STRINGS: func.func @s() attributes {a = "{{\[+}}"}
// 900 levels parse, print and verify as before.
// RUN: %python -c "print('func.func @f() attributes {a = ' + '[' * 900 + ']' * 900 + '} { return }')" > %t.900.mlir
// RUN: kfuse-opt %t.900.mlir | FileCheck %s --check-prefix=OK
// OK: func.func @f() attributes {a = {{\[+}}]]]
