/*
 * The hot-swap test module, compiled by the tests with cc in several versions (-D flags):
 *   SWAP_VERSION=n     the version: its screen says "swap vN" and "add" adds n (default 1)
 *   MODULE_ID="id"     the module id (default "swap"); its routes are <id> and <id>/<int:start>
 *   EXTRA_ROUTE        also registers <id>/extra
 *   NO_START_ROUTE     leaves out <id>/<int:start>
 *   CONFLICT_ROUTE="r" also registers route r (to clash with another module's)
 *   BAD_ABI            exports ABI version 99
 *   ENTRY_FAILS        den_module_entry returns an error
 *   RESTORE_FAILS      restore refuses every state
 *   NO_STATE           the instance API has no snapshot/restore
 *   BUILD_FAILS        every builder call fails
 *   CRASH_ON_ADD       "add" writes through a NULL pointer (an isolated version that crashes)
 * Not a SwiftPM target: Tests/DenHostTests/HotSwap/SwapFixture.swift builds it.
 */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SWAP_VERSION
#define SWAP_VERSION 1
#endif
#ifndef MODULE_ID
#define MODULE_ID "swap"
#endif

#ifdef BAD_ABI
DEN_EXPORT const uint32_t den_abi_version = 99u;
#else
DEN_DEFINE_ABI_VERSION();
#endif

typedef struct swap_instance {
    long count;
} swap_instance;

static void release(uint8_t *ptr, size_t len) {
    (void)len;
    free(ptr);
}

static den_owned owned_text(const char *text) {
    size_t len = strlen(text);
    uint8_t *ptr = malloc(len);
    if (ptr == NULL) return (den_owned){NULL, 0, NULL};
    memcpy(ptr, text, len);
    return (den_owned){ptr, len, release};
}

static const char *find_key(const char *json, size_t len, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    size_t plen = strlen(pattern);
    for (size_t i = 0; i + plen <= len; i++) {
        if (memcmp(json + i, pattern, plen) == 0) return json + i + plen;
    }
    return NULL;
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    swap_instance *s = self;
    const char *id = find_key((const char *)event.ptr, event.len, "id");
    if (id != NULL && strncmp(id, "\"add\"", 5) == 0) s->count += SWAP_VERSION;
#ifdef CRASH_ON_ADD
    if (id != NULL && strncmp(id, "\"add\"", 5) == 0) *(volatile int *)NULL = 1;
#endif
    char body[1024];
    snprintf(body, sizeof body,
             "{\"v\":1,\"effects\":[],\"screen\":{\"v\":1,\"title\":\"Swap\",\"elements\":["
             "{\"type\":\"text\",\"text\":\"swap v%d\"},"
             "{\"type\":\"heading\",\"text\":\"count %ld\"},"
             "{\"type\":\"button\",\"id\":\"add\",\"label\":\"Add\",\"role\":\"primary\"}]}}",
             SWAP_VERSION, s->count);
    *reply = owned_text(body);
    return reply->ptr != NULL ? DEN_OK : DEN_ERR_INTERNAL;
}

static int32_t snapshot(void *self, den_owned *state) {
    char body[64];
    snprintf(body, sizeof body, "{\"count\":%ld}", ((swap_instance *)self)->count);
    *state = owned_text(body);
    return DEN_OK;
}

static int32_t restore(void *self, den_bytes state) {
#ifdef RESTORE_FAILS
    (void)self; (void)state;
    return DEN_ERR_VERSION;
#else
    const char *count = find_key((const char *)state.ptr, state.len, "count");
    if (count == NULL) return DEN_ERR_VERSION;
    ((swap_instance *)self)->count = strtol(count, NULL, 10);
    return DEN_OK;
#endif
}

static void destroy(void *self) { free(self); }

#ifdef NO_STATE
static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};
#else
static const den_instance_api api = {sizeof(den_instance_api), 0, handle, snapshot, restore, destroy};
#endif

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host;
#ifdef BUILD_FAILS
    (void)params; (void)self; (void)out_api;
    *error = owned_text("this version cannot build any screen");
    return DEN_ERR_INTERNAL;
#else
    swap_instance *s = calloc(1, sizeof *s);
    if (s == NULL) {
        *error = owned_text("out of memory");
        return DEN_ERR_INTERNAL;
    }
    const char *start = find_key((const char *)params.ptr, params.len, "start");
    if (start != NULL && *start == '"') s->count = strtol(start + 1, NULL, 10);
    *self = s;
    *out_api = &api;
    return DEN_OK;
#endif
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_version != DEN_ABI_VERSION) return DEN_ERR_VERSION;
#ifdef ENTRY_FAILS
    (void)registrar;
    return DEN_ERR_INTERNAL;
#else
    char version[16];
    snprintf(version, sizeof version, "%d.0.0", SWAP_VERSION);
    int32_t status = registrar->describe(registrar->ctx, MODULE_ID, version, "The hot-swap test module");
    if (status != DEN_OK) return status;
    status = registrar->add_route(registrar->ctx, MODULE_ID, build, NULL);
    if (status != DEN_OK) return status;
#ifndef NO_START_ROUTE
    status = registrar->add_route(registrar->ctx, MODULE_ID "/<int:start>", build, NULL);
    if (status != DEN_OK) return status;
#endif
#ifdef EXTRA_ROUTE
    status = registrar->add_route(registrar->ctx, MODULE_ID "/extra", build, NULL);
    if (status != DEN_OK) return status;
#endif
#ifdef CONFLICT_ROUTE
    status = registrar->add_route(registrar->ctx, CONFLICT_ROUTE, build, NULL);
    if (status != DEN_OK) return status;
#endif
    return DEN_OK;
#endif
}
