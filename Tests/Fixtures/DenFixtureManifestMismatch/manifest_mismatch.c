/* A module whose registration does not match its manifest: the manifest says version 1.0.0,
 * routes "mismatch" and "mismatch/extra", and exports "twice" (i64 -> i64) and "listed_only";
 * den_module_entry registers version 1.0.1, route "mismatch" guarded, a route "mismatch/other"
 * the manifest lacks, "twice" as (f64) -> i64, and an export "registered_only". The host must
 * refuse it at load, naming each difference. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();
DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"mismatch\", \"version\": \"1.0.0\", \"summary\": \"Says one thing\", "
                    "\"routes\": [{\"pattern\": \"mismatch\"}, {\"pattern\": \"mismatch/extra\"}], "
                    "\"exports\": [{\"name\": \"twice\", \"signature\": \"(i64 n) -> i64\"}, {\"name\": \"listed_only\"}]}");

static int32_t twice(const den_host *host, double n, int64_t *result, den_owned *error) {
    (void)host; (void)error;
    *result = (int64_t)(2 * n);
    return DEN_OK;
}

static int32_t one(const den_host *host, int64_t *result, den_owned *error) {
    (void)host; (void)error;
    *result = 1;
    return DEN_OK;
}

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self, const den_instance_api **api,
                     den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)self; (void)api; (void)error;
    return DEN_ERR_UNSUPPORTED;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    int32_t status = registrar->describe(registrar->ctx, "mismatch", "1.0.1", "Says one thing");
    if (status != DEN_OK) return status;
    status = registrar->add_route_with_flags(registrar->ctx, "mismatch", DEN_ROUTE_REQUIRES_LOGIN, build, NULL);
    if (status != DEN_OK) return status;
    status = registrar->add_route(registrar->ctx, "mismatch/other", build, NULL);
    if (status != DEN_OK || host->abi_revision < 2) return status;
    status = registrar->add_export(registrar->ctx, "twice", "(f64 n) -> i64", "Doubles", (den_export_fn)twice);
    if (status != DEN_OK) return status;
    return registrar->add_export(registrar->ctx, "registered_only", "() -> i64", "Not listed", (den_export_fn)one);
}
