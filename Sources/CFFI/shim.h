/* libffi's types and constants (Debian libffi-dev) for calling module exports whose types are
 * known only at run time (Sources/DenHost/Exports). Not linked: den opens the library the first
 * time a module registers an export (LibFFI.swift), so nothing here may refer to its symbols. */
#include <ffi.h>

static inline ffi_abi den_ffi_default_abi(void) { return FFI_DEFAULT_ABI; }
