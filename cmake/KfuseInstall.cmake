# What `cmake --install build --prefix P` puts in place, and kfuse's CMake
# package (find_package(kfuse CONFIG), see kfuseConfig.cmake.in):
#   P/bin                the tools: kfuse-opt, kfuse-compile, kfuse-run
#   P/lib                libkfuse_runtime.so, libKfDialect.a, libKfusePasses.a
#   P/include/kfuse      runtime.h, and dialect/ and passes/ as in the
#                        source tree (headers, .td, generated .h.inc)
#   P/lib/cmake/kfuse    kfuseConfig.cmake, its version file, the targets
#
# The installed tree has the build tree's shape, fixed names rather than
# GNUInstallDirs' lib64 or multiarch directories: kfuse-run runs the
# kfuse-compile beside it, and kfuse-compile links programs against the
# runtime in ../lib next to its bin/.
set(KFUSE_INSTALL_BINDIR bin)
set(KFUSE_INSTALL_LIBDIR lib)
set(KFUSE_INSTALL_INCLUDEDIR include)
set(KFUSE_INSTALL_PACKAGEDIR lib/cmake/kfuse)

# Installed tools find kfuse's libraries in ../lib and MLIR's and LLVM's
# shared libraries where kfuse was built against them (Debian's
# /usr/lib/llvm-22/lib is not on the loader's path). kfuse-run and the
# runtime set their own: they need no MLIR.
set(CMAKE_INSTALL_RPATH "\$ORIGIN/../${KFUSE_INSTALL_LIBDIR}" "${LLVM_LIBRARY_DIR}")

# Installs the headers of the source folder `dir` (the .h, .def and .td files,
# recursively) and the .h.inc files tablegen generated for it, under
# include/kfuse/<dir>, where `#include "<dir>/..."` finds them.
function(kfuse_install_headers dir)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
    DESTINATION ${KFUSE_INSTALL_INCLUDEDIR}/kfuse/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
  install(DIRECTORY ${PROJECT_BINARY_DIR}/${dir}/
    DESTINATION ${KFUSE_INSTALL_INCLUDEDIR}/kfuse/${dir}
    FILES_MATCHING PATTERN "*.h.inc"
    PATTERN "CMakeFiles" EXCLUDE)
endfunction()

# Called once every target is declared: the package config, its version
# file and the two export sets. kfuseRuntimeTargets (the runtime and
# kfuse-run) needs nothing else; kfuseTargets (dialect, passes, kfuse-opt,
# kfuse-compile) needs MLIR, which the config finds first.
function(kfuse_install_package)
  include(CMakePackageConfigHelpers)
  set(dir ${PROJECT_BINARY_DIR}/${KFUSE_INSTALL_PACKAGEDIR})
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/kfuseConfig.cmake.in ${dir}/kfuseConfig.cmake
    INSTALL_DESTINATION ${KFUSE_INSTALL_PACKAGEDIR}
    PATH_VARS KFUSE_INSTALL_INCLUDEDIR KFUSE_INSTALL_BINDIR)
  # 0.x: a new minor version may change the API.
  write_basic_package_version_file(${dir}/kfuseConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${dir}/kfuseConfig.cmake ${dir}/kfuseConfigVersion.cmake
    DESTINATION ${KFUSE_INSTALL_PACKAGEDIR})
  install(EXPORT kfuseRuntimeTargets NAMESPACE kfuse::
    DESTINATION ${KFUSE_INSTALL_PACKAGEDIR})
  install(EXPORT kfuseTargets NAMESPACE kfuse::
    DESTINATION ${KFUSE_INSTALL_PACKAGEDIR})
endfunction()
