/* The header's structs are the ABI: a change to a size or an offset would break every built
 * plugin silently. These checks make such a change fail the host's build instead. */
#include "den_module.h"

#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
_Static_assert(sizeof(den_bytes) == 16, "den_bytes layout is ABI");
_Static_assert(sizeof(den_owned) == 24, "den_owned layout is ABI");
_Static_assert(sizeof(den_host) == 24, "den_host layout is ABI");
_Static_assert(offsetof(den_host, call) == 16, "den_host layout is ABI");
_Static_assert(offsetof(den_instance_api, destroy) == 32, "den_instance_api layout is ABI");
/* Revision 4 appended state_version; a revision-0 table (40 bytes) is still accepted. */
_Static_assert(offsetof(den_instance_api, state_version) == 40, "den_instance_api layout is ABI (revision 4)");
_Static_assert(sizeof(den_instance_api) == 48, "den_instance_api layout is ABI (revision 4)");
_Static_assert(offsetof(den_host, abi_revision) == 4, "den_host layout is ABI");
/* Revision 1 appended add_route_with_flags; the revision-0 fields keep their offsets. */
_Static_assert(offsetof(den_registrar, add_route) == 16, "den_registrar layout is ABI");
_Static_assert(offsetof(den_registrar, add_route_with_flags) == 24, "den_registrar layout is ABI (revision 1)");
/* Revision 2 appended add_export; the revision-1 fields keep their offsets. */
_Static_assert(offsetof(den_registrar, add_export) == 32, "den_registrar layout is ABI (revision 2)");
_Static_assert(sizeof(den_registrar) == 40, "den_registrar layout is ABI (revision 2)");
#endif
_Static_assert(sizeof(bool) == 1, "an export's bool is one byte (libffi: uint8)");
_Static_assert(sizeof(den_status) == sizeof(int32_t), "status codes travel as int32_t");
