// The references in docs/reference/ are the ones ODS generates now. If this
// fails, run `ninja -C build kfuse-doc` and commit docs/reference/.
// RUN: diff %kfuse_obj/docs/Dialects/KfDialect.md %kfuse_src/docs/reference/KfDialect.md
// RUN: diff %kfuse_obj/docs/KfusePasses.md %kfuse_src/docs/reference/KfusePasses.md
