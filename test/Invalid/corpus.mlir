// 83 invalid inputs (test/Invalid/Inputs) and 22 bad options: kfuse-opt,
// kfuse-compile and kfuse-run exit 1 with a located error, never a signal
// or a crash report, and write no output file (271 checks).
// RUN: %python %S/check_corpus.py %kfuse_obj/bin
