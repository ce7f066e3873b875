/* A plugin built against a future ABI: the host must refuse it before running any of its code. */
#include "den_module.h"
#include <stdlib.h>

DEN_EXPORT const uint32_t den_abi_version = 999;

/* dlopen runs constructors: reaching this would kill the test process, proving the host read the
 * ABI version from the file and refused the plugin without loading it. */
__attribute__((constructor)) static void refuse_to_be_loaded(void) { abort(); }

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host; (void)registrar;
    abort(); /* proves the host never called the entry point */
}
