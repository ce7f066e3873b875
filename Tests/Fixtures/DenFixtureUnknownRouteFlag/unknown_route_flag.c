/* Registers a route with a flag bit no host knows (as a plugin built against a newer header
 * might): the host must refuse it with DEN_ERR_UNSUPPORTED and reject the whole plugin, so no
 * route is ever served without a guard its module asked for. */
#include "den_module.h"

#include <stdlib.h>

DEN_DEFINE_ABI_VERSION();

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)self; (void)out_api; (void)error;
    abort(); /* never built: the plugin is rejected at load */
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_revision < 1) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, "unknown-flag", "1.0.0", "A route flag from the future");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "plain", build, NULL);
    if (status == DEN_OK) {
        status = registrar->add_route_with_flags(registrar->ctx, "future", DEN_ROUTE_REQUIRES_LOGIN | (1u << 7), build, NULL);
    }
    return status;
}
