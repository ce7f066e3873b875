/* An entry point that describes itself, adds a route, then reports an error. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    registrar->describe(registrar->ctx, "failing", "0.1.0", "Fails during registration");
    return DEN_ERR_SERVICE;
}
