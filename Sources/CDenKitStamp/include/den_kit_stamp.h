#ifndef DEN_KIT_STAMP_H
#define DEN_KIT_STAMP_H
#include <stdint.h>

/*
 * The data symbols every DenKit-based (Swift) plugin exports, defined in C because Swift cannot
 * export a plain data symbol. The host reads them with dlsym before it runs any plugin code.
 */
extern const uint32_t den_abi_version;
extern const char den_toolchain[];

/** The same values, for Swift code that wants to print or compare them. */
uint32_t den_kit_abi_version(void);
const char *den_kit_toolchain(void);

#endif
