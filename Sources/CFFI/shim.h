/* libffi (Debian libffi-dev) for calling module exports whose types are known only at run time
 * (Sources/DenHost/Exports). The ffi_type globals are reached through functions so Swift never
 * takes the address of a C global itself. */
#include <ffi.h>

static inline ffi_type *den_ffi_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *den_ffi_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *den_ffi_double(void) { return &ffi_type_double; }
static inline ffi_type *den_ffi_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *den_ffi_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi den_ffi_default_abi(void) { return FFI_DEFAULT_ABI; }
