#include "den_kit_stamp.h"
#include "den_module.h"

/*
 * Linux Swift has no stable ABI: a plugin must be built by the host's toolchain. The Swift
 * toolchain compiles this file with its own clang, whose version string names the toolchain.
 */
DEN_EXPORT const uint32_t den_abi_version = DEN_ABI_VERSION;
DEN_EXPORT const char den_toolchain[] = "swift-toolchain clang " __clang_version__;

uint32_t den_kit_abi_version(void) { return den_abi_version; }
const char *den_kit_toolchain(void) { return den_toolchain; }
