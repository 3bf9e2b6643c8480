// 79 invalid inputs (test/Invalid/Inputs) and 18 bad options: kfuse-opt and
// kfuse-compile exit 1 with a located error, never a signal or a crash
// report, and write no output file.
// RUN: %python %S/check_corpus.py %kfuse_obj/bin
