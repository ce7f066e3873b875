/* Module "permprobe": an export that calls any host service and answers "<status> <answer or
 * message>", so a test sees exactly what the host refused or allowed, and a screen ("permprobe")
 * titled "Probe <version>", so a test sees which version serves (docs/PERMISSIONS.md). The
 * fixtures that include this differ only in their version and manifest: DenFixturePermProbe
 * (1.0.0) asks for nothing, DenFixturePermProbeGranted (2.0.0) for every permission,
 * DenFixturePermProbeRequires (3.0.0) requires main ^1 (docs/CATALOG.md). Define
 * PROBE_VERSION and PROBE_PERMISSIONS (a manifest fragment: "" or ", \"permissions\": {...}")
 * first. Plain C, den_module.h only. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

#define COUNTER_TITLE "Probe " PROBE_VERSION
#include "counter_instance.h"

DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"permprobe\", \"version\": \"" PROBE_VERSION "\", \"summary\": \"Calls host services (test fixture)\","
                    " \"routes\": [{\"pattern\": \"permprobe\"}],"
                    " \"exports\": [{\"name\": \"call\", \"signature\": \"(string service, string request) -> string\"}]"
                    PROBE_PERMISSIONS "}");

/* call(service, request): the host's status, a space, then its answer or message. */
static int32_t probe_call(const den_host *host, const char *service, const char *request, den_owned *result,
                          den_owned *error) {
    (void)error;
    den_owned answer = {NULL, 0, NULL};
    int32_t status = host->call(host->ctx, service, (den_bytes){(const uint8_t *)request, strlen(request)}, &answer);
    size_t len = answer.len + 16;
    uint8_t *text = malloc(len);
    int head = snprintf((char *)text, len, "%d ", status);
    if (answer.len > 0) memcpy(text + head, answer.ptr, answer.len);
    if (answer.release != NULL) answer.release(answer.ptr, answer.len);
    *result = (den_owned){text, (size_t)head + answer.len, den_free_release};
    return DEN_OK;
}

static const den_instance_api api = {
    .struct_size = sizeof(den_instance_api),
    .handle = handle,
    .snapshot = snapshot,
    .restore = restore,
    .destroy = destroy,
};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)error;
    *self = calloc(1, sizeof(instance));
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_revision < 2) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, "permprobe", PROBE_VERSION, "Calls host services (test fixture)");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "permprobe", build, NULL);
    if (status == DEN_OK)
        status = registrar->add_export(registrar->ctx, "call", "(string service, string request) -> string",
                                       "Calls a host service; answers its status and answer", (den_export_fn)probe_call);
    return status;
}
