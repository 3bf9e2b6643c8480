// The fusion rule switches are spelled once in C++ (passes/fusion/
// FusionRules.def: FusionOptions, --fusion, the named pipelines' options)
// and once in TableGen (Passes.td's KfFusionOptions: kf-form-kernels and
// kf-kernel-report). This checks that the two lists agree, names and
// descriptions, in every place a user meets them: a switch added to one
// list only, or spelled differently, fails here.
// RUN: kfuse-opt --help > %t.help
// RUN: not kfuse-compile --fusion=no-such-rule %s -o /dev/null 2> %t.err
// RUN: %python %s.py %t.help %t.err | FileCheck %s
// CHECK: 15 rule switches agree across kf-form-kernels, kf-kernel-report, kf-cpu-pipeline, kf-gpu-pipeline, kf-gpu-emulation-pipeline, kf-host-runtime-pipeline and --fusion
