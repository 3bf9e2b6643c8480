// kfuse-run --input-dir DIR: argument N from DIR/argN.npy where that file
// exists (kfuse-import --save-inputs writes them); --input argN=FILE wins;
// an argument with no file is random; a file for an argument the function
// lacks is an error. bf16 arguments come from f32 files, as with --input.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %s.py make %t/all
// RUN: kfuse-run %s --input-dir %t/all --device=cpu --warmup=0 --repeat=1 --output result0=%t/sum.npy --output result1=%t/neg.npy > /dev/null
// RUN: %python %s.py check %t/sum.npy 11,22,33,44 | FileCheck %s --check-prefix=SUM
// RUN: %python %s.py check %t/neg.npy -1.5,2 | FileCheck %s --check-prefix=NEG
// SUM: sum.npy = 11,22,33,44
// NEG: neg.npy = -1.5,2

// --input wins over the directory's file.
// RUN: %python -c "import numpy as np; np.save('%t/b.npy', np.array([100, 200, 300, 400], np.float32))"
// RUN: kfuse-run %s --input-dir %t/all --input arg1=%t/b.npy --device=cpu --warmup=0 --repeat=1 --output result0=%t/sum3.npy > /dev/null
// RUN: %python %s.py check %t/sum3.npy 101,202,303,404 | FileCheck %s --check-prefix=SUM3
// SUM3: sum3.npy = 101,202,303,404

// A directory with arg1.npy only: arg0 from --input, arg2 random.
// RUN: %python %s.py make %t/part 1
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.array([5, 5, 5, 5], np.float32))"
// RUN: kfuse-run %s --input-dir %t/part --input arg0=%t/a.npy --device=cpu --warmup=0 --repeat=1 --output result0=%t/sum4.npy > /dev/null
// RUN: %python %s.py check %t/sum4.npy 15,25,35,45 | FileCheck %s --check-prefix=SUM4
// SUM4: sum4.npy = 15,25,35,45

// Refused, with one error and exit status 1, and no output written.
// RUN: %python %s.py make %t/extra 0 1 2 3
// RUN: not kfuse-run %s --input-dir %t/extra --device=cpu --output result0=%t/no.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: kfuse-run: error: --input-dir {{.*}}extra has arg3.npy but f takes arg0 .. arg2
// RUN: test ! -e %t/no.npy
// RUN: not kfuse-run %s --input-dir %t/missing --device=cpu 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kfuse-run: error: --input-dir {{.*}}missing: not a directory
// RUN: not kfuse-run %s --input-dir %t/all --input-dir %t/part --device=cpu 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: kfuse-run: error: --input-dir is given twice ({{.*}}all and {{.*}}part)
// RUN: mkdir %t/wrong && cp %t/all/arg2.npy %t/wrong/arg0.npy
// RUN: not kfuse-run %s --input-dir %t/wrong --device=cpu 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: kfuse-run: error: --input-dir {{.*}}wrong/arg0.npy has shape [2]; f takes [4]

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %h: tensor<2xbf16>) -> (tensor<4xf32>, tensor<2xbf16>) {
  %s = kf.add %a, %b : tensor<4xf32>, tensor<4xf32>
  %n = kf.neg %h : tensor<2xbf16>
  return %s, %n : tensor<4xf32>, tensor<2xbf16>
}
