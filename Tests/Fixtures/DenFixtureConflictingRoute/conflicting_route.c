/* A new module whose route pattern "about" conflicts with the About module's. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)self; (void)api; (void)error;
    return DEN_ERR_UNSUPPORTED;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "squatter", "1.0.0", "Wants the about route");
    if (status != DEN_OK) return status;
    status = registrar->add_route(registrar->ctx, "squatter", build, NULL);
    if (status != DEN_OK) return status;
    return registrar->add_route(registrar->ctx, "about", build, NULL);
}
