/* A module for the requirement tests (docs/CATALOG.md, "Requirements"), compiled by the tests
 * with -D flags, plain C from den_module.h alone:
 *   MODULE_ID       its id, a C string (default "reqbase"); its one route has the same pattern
 *   MODULE_VERSION  its version, a C string (default "1.0.0")
 *   MANIFEST_EXTRA  a manifest fragment, a C string: "" or ", \"requires\": {...}, \"permissions\": {...}"
 * Its export call(service, request) calls any host service and answers "<status> <answer or
 * message>". When DEN_FIXTURE_TRACE names a file, its entry point appends "<id> <version>" to it,
 * so a test sees whether and in what order modules' code ran. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"
#include <fcntl.h>
#include <unistd.h>

#ifndef MODULE_ID
#define MODULE_ID "reqbase"
#endif
#ifndef MODULE_VERSION
#define MODULE_VERSION "1.0.0"
#endif
#ifndef MANIFEST_EXTRA
#define MANIFEST_EXTRA ""
#endif

DEN_DEFINE_ABI_VERSION();

#define COUNTER_TITLE MODULE_ID " " MODULE_VERSION
#include "../Fixtures/shared/counter_instance.h"

DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"" MODULE_ID "\", \"version\": \"" MODULE_VERSION "\", \"summary\": \"Requirement test module\","
                    " \"routes\": [{\"pattern\": \"" MODULE_ID "\"}],"
                    " \"exports\": [{\"name\": \"call\", \"signature\": \"(string service, string request) -> string\"}]"
                    MANIFEST_EXTRA "}");

#include "../Fixtures/shared/service_probe.h"

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    const char *trace = getenv("DEN_FIXTURE_TRACE");
    if (trace != NULL) {
        int fd = open(trace, O_WRONLY | O_APPEND | O_CREAT, 0600);
        if (fd >= 0) {
            const char *line = MODULE_ID " " MODULE_VERSION "\n";
            ssize_t written = write(fd, line, strlen(line));
            (void)written;
            close(fd);
        }
    }
    if (host->abi_revision < 2) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, MODULE_ID, MODULE_VERSION, "Requirement test module");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, MODULE_ID, build, NULL);
    if (status == DEN_OK)
        status = registrar->add_export(registrar->ctx, "call", "(string service, string request) -> string",
                                       "Calls a host service; answers its status and answer", (den_export_fn)probe_call);
    return status;
}
