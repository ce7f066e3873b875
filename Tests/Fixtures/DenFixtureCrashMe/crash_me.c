/* A module without a manifest whose builder crashes: den can learn its id ("crashme") only by
 * running its code, so `--isolate crashme` must learn it in a worker, never in den's process.
 *   crashme       its builder writes through a NULL pointer (SIGSEGV)
 *   crashme/pid   "pid N": the process the module runs in, so a test can tell den's from a worker */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

DEN_DEFINE_ABI_VERSION();

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    (void)self; (void)event;
    char buffer[160];
    int len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Crash me\",\"elements\":[{\"type\":\"text\",\"text\":\"pid %ld\"}]}}",
                       (long)getpid());
    uint8_t *ptr = malloc((size_t)len);
    memcpy(ptr, buffer, (size_t)len);
    *reply = (den_owned){ptr, (size_t)len, den_free_release};
    return DEN_OK;
}

static void destroy(void *self) { (void)self; }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};

static int32_t build_crash(void *ctx, const den_host *host, den_bytes params, void **self,
                           const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)self; (void)out_api; (void)error;
    volatile int *nothing = NULL;
    *nothing = 1;
    return DEN_ERR_INTERNAL;
}

static int32_t build_pid(void *ctx, const den_host *host, den_bytes params, void **self,
                         const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)error;
    static int instance;
    *self = &instance;
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "crashme", "1.0.0", "Crashes in its builder; no manifest");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "crashme", build_crash, NULL);
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "crashme/pid", build_pid, NULL);
    return status;
}
