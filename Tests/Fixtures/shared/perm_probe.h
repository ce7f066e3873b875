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

#include "service_probe.h"

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_revision < 2) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, "permprobe", PROBE_VERSION, "Calls host services (test fixture)");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "permprobe", build, NULL);
    if (status == DEN_OK)
        status = registrar->add_export(registrar->ctx, "call", "(string service, string request) -> string",
                                       "Calls a host service; answers its status and answer", (den_export_fn)probe_call);
    return status;
}
