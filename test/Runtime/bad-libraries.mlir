// Libraries kfuse-run is given that are broken: one error, exit status 1,
// never a signal.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/prog.so
//
// A library cut short at every 97th byte (and one byte short): the ELF
// headers are checked against the file before dlopen, which would map
// pages past the end and die of SIGBUS touching them.
// RUN: %python %s.py --kfuse-run %kfuse_obj/bin/kfuse-run --library %t/prog.so --dir %t \
// RUN:   | FileCheck %s --check-prefix=CUT
// CUT: cuts of {{[0-9]+}} bytes: exit 1 and one error each
// CUT: last: kfuse-run: error: cannot load {{.*}}cut.so: {{.*}} lies beyond the end of the file ({{[0-9]+}} bytes): it is truncated
// The same for the CUDA driver (KFUSE_CUDA_DRIVER, a path).
// RUN: %python %s.py --kfuse-run %kfuse_obj/bin/kfuse-run --library %fake-cuda --driver \
// RUN:   --program %t/prog.so --dir %t | FileCheck %s --check-prefix=DRIVER
// DRIVER: cuts of {{[0-9]+}} bytes: exit 1 and one error each
// DRIVER: last: kfuse-run: error: cannot use the device: no CUDA driver: cannot open {{.*}}cut.so ({{.*}} lies beyond the end of the file ({{[0-9]+}} bytes): it is truncated)
// Not ELF at all; a directory.
// RUN: not kfuse-run %s.py 2>&1 | FileCheck %s --check-prefix=NOTELF
// NOTELF: kfuse-run: error: cannot load {{.*}}bad-libraries.mlir.py: it is not an ELF file
// RUN: not kfuse-run %t 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: kfuse-run: error: cannot load {{.*}}: it is a directory
//
// A manifest of 200,000 nested '[' (the JSON reader recursed until the
// stack overflowed): refused at a depth of 256.
// RUN: %python -c "open('%t/deep.h', 'w').write('#define MANIFEST \"' + '[' * 200000 + '\"\n')"
// RUN: cc -shared -fPIC -include %t/deep.h %S/Inputs/fake-program.c -o %t/deep.so
// RUN: not kfuse-run %t/deep.so 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: kfuse-run: error: {{.*}}deep.so: the manifest does not parse: arrays and objects nested deeper than 256
//
// A manifest shape that is no shape.
// RUN: echo '#define MANIFEST "{\"functions\": [{\"name\": \"ident\", \"args\": [{\"dtype\": \"f32\", \"shape\": [-5]}], \"results\": []}]}"' > %t/shape.h
// RUN: cc -shared -fPIC -include %t/shape.h %S/Inputs/fake-program.c -o %t/shape.so
// RUN: not kfuse-run %t/shape.so 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: kfuse-run: error: {{.*}}shape.so: the manifest gives ident a bad shape [?]
//
// A function that returns a null buffer for a result of 4 elements: the
// descriptor is checked before the result is read.
// RUN: cc -shared -fPIC -DNULL_RESULT %S/Inputs/fake-program.c -o %t/null.so
// RUN: not kfuse-run %t/null.so --output=%t/null.npy 2>&1 | FileCheck %s --check-prefix=NULL
// NULL: kfuse-run: error: result0 of ident came back as a null buffer
// RUN: test ! -e %t/null.npy
// The same library without the null result runs (it returns its argument).
// RUN: cc -shared -fPIC %S/Inputs/fake-program.c -o %t/ident.so
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, -2, 3, -4], np.float32))"
// RUN: kfuse-run %t/ident.so --input arg0=%t/x.npy --output=%t/ident.npy --repeat=1 --quiet
// RUN: %python -c "import numpy as np; print(np.load('%t/ident.npy').tolist())" \
// RUN:   | FileCheck %s --check-prefix=IDENT
// IDENT: [1.0, -2.0, 3.0, -4.0]
func.func @add(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = kf.add %a, %b : tensor<16xf32>, tensor<16xf32>
  return %0 : tensor<16xf32>
}
