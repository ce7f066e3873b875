/* den_instance_api.state_version (revision 4) from plain C.
 *   versioned   "count N, snapshots M": the action "count" changes the state (and its version),
 *               any other action changes nothing; M says how often the host asked for a snapshot,
 *               so a test can tell that an unchanged screen was not asked again. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"


DEN_DEFINE_ABI_VERSION();

#define COUNTER_TITLE "Versioned"
#include "../shared/counter_instance.h"

static uint64_t state_version(void *self) { return ((instance *)self)->version; }

static const den_instance_api api = {
    .struct_size = sizeof(den_instance_api),
    .handle = handle,
    .snapshot = snapshot,
    .restore = restore,
    .destroy = destroy,
    .state_version = state_version,
};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)error;
    *self = calloc(1, sizeof(instance));
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "versioned", "1.0.0", "state_version in C");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "versioned", build, NULL);
    return status;
}
