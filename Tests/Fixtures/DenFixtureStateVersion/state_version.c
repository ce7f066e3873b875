/* den_instance_api.state_version (revision 4) from plain C.
 *   versioned   "count N, snapshots M": the action "count" changes the state (and its version),
 *               any other action changes nothing; M says how often the host asked for a snapshot,
 *               so a test can tell that an unchanged screen was not asked again. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

typedef struct instance {
    long count;
    long snapshots;
    uint64_t version;
} instance;

static den_owned owned_text(const char *text) {
    size_t len = strlen(text);
    uint8_t *ptr = malloc(len);
    memcpy(ptr, text, len);
    return (den_owned){ptr, len, den_free_release};
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    instance *me = self;
    if (memmem(event.ptr, event.len, "\"count\"", 7) != NULL) {
        me->count++;
        me->version++;
    }
    char buffer[256];
    snprintf(buffer, sizeof buffer,
             "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Versioned\",\"elements\":["
             "{\"type\":\"text\",\"text\":\"count %ld, snapshots %ld\"},"
             "{\"type\":\"button\",\"id\":\"count\",\"label\":\"Count\"},"
             "{\"type\":\"button\",\"id\":\"look\",\"label\":\"Look\"}]}}", me->count, me->snapshots);
    *reply = owned_text(buffer);
    return DEN_OK;
}

static int32_t snapshot(void *self, den_owned *state) {
    instance *me = self;
    me->snapshots++;
    char buffer[32];
    snprintf(buffer, sizeof buffer, "%ld", me->count);
    *state = owned_text(buffer);
    return DEN_OK;
}

static int32_t restore(void *self, den_bytes state) {
    char buffer[32] = {0};
    if (state.len == 0 || state.len >= sizeof buffer) return DEN_ERR_VERSION;
    memcpy(buffer, state.ptr, state.len);
    instance *me = self;
    me->count = strtol(buffer, NULL, 10);
    me->version++;
    return DEN_OK;
}

static uint64_t state_version(void *self) { return ((instance *)self)->version; }

static void destroy(void *self) { free(self); }

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
