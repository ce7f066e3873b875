/* Claims to come from another Swift toolchain: Linux Swift has no stable ABI, so refuse it. */
#include "den_module.h"
#include <stdlib.h>

DEN_DEFINE_ABI_VERSION();
DEN_EXPORT const char den_toolchain[] = "swift-toolchain clang 1.0.0 (an older toolchain)";

/* dlopen runs constructors: reaching this would kill the test process, proving the host read the
 * toolchain from the file and refused the plugin without loading it. */
__attribute__((constructor)) static void refuse_to_be_loaded(void) { abort(); }

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host; (void)registrar;
    abort();
}
