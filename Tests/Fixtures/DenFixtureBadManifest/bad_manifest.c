/* A module whose manifest is not valid: "routes" is missing and the id breaks the id rule. The
 * host must refuse the file with a message about its manifest, before running any of its code:
 * the constructor aborts, so reaching it would kill the process. */
#include "den_module.h"
#include <stdlib.h>

DEN_DEFINE_ABI_VERSION();
DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"Bad Id\", \"version\": \"1.0.0\"}");

__attribute__((constructor)) static void abort_when_loaded(void) { abort(); }

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host; (void)registrar;
    abort();
}
