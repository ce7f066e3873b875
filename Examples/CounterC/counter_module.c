/*
 * A Den module written in plain C against den_module.h alone: no Swift, no DenKit.
 * It serves the route "counter" (and "counter/<int:start>"): a number and two buttons.
 *
 * Build:  cc -shared -fPIC -O2 -I ../../Sources/CDenABI/include counter_module.c -o libCounterModule.so
 * Run:    den render counter/41 --plugin-dir .
 * Export: den call --plugin-dir . counter.add 41 1   prints 42 (ABI revision 2: den_registrar.add_export)
 */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

typedef struct counter {
    long value;
} counter;

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

/* Finds "key": in a small JSON document and returns a pointer just past the colon. Enough for the
 * flat documents this module reads; a real module would use a JSON library. */
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
    counter *c = self;
    const char *json = (const char *)event.ptr;
    const char *id = find_key(json, event.len, "id");
    if (id != NULL) {
        if (strncmp(id, "\"add\"", 5) == 0) c->value += 1;
        else if (strncmp(id, "\"reset\"", 7) == 0) c->value = 0;
    }
    char body[1024];
    snprintf(body, sizeof body,
             "{\"v\":1,\"effects\":[],\"screen\":{\"v\":1,\"title\":\"Counter (C)\",\"elements\":["
             "{\"type\":\"text\",\"text\":\"This module is plain C.\",\"style\":\"caption\"},"
             "{\"type\":\"heading\",\"text\":\"%ld\"},"
             "{\"type\":\"button\",\"id\":\"add\",\"label\":\"Add one\",\"role\":\"primary\"},"
             "{\"type\":\"button\",\"id\":\"reset\",\"label\":\"Reset\",\"role\":\"destructive\"}]}}",
             c->value);
    *reply = owned_text(body);
    return reply->ptr != NULL ? DEN_OK : DEN_ERR_INTERNAL;
}

static int32_t snapshot(void *self, den_owned *state) {
    char body[32];
    snprintf(body, sizeof body, "%ld", ((counter *)self)->value);
    *state = owned_text(body);
    return DEN_OK;
}

static int32_t restore(void *self, den_bytes state) {
    char text[32] = {0};
    if (state.len == 0 || state.len >= sizeof text) return DEN_ERR_VERSION;
    memcpy(text, state.ptr, state.len);
    ((counter *)self)->value = strtol(text, NULL, 10);
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, snapshot, restore, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx; (void)host;
    counter *c = calloc(1, sizeof *c);
    if (c == NULL) {
        *error = owned_text("out of memory");
        return DEN_ERR_INTERNAL;
    }
    /* "parameters":{"start":"41"} for the route counter/<int:start>. */
    const char *start = find_key((const char *)params.ptr, params.len, "start");
    if (start != NULL && *start == '"') c->value = strtol(start + 1, NULL, 10);
    *self = c;
    *out_api = &api;
    return DEN_OK;
}

/* The export "counter.add", declared "(i64 value, i64 step) -> i64": the module's host first, the
 * declared parameters, a pointer for the result, then a den_owned for an error message. */
static int32_t add_export(const den_host *host, int64_t value, int64_t step, int64_t *result, den_owned *error) {
    (void)host;
    if ((step > 0 && value > INT64_MAX - step) || (step < 0 && value < INT64_MIN - step)) {
        *error = owned_text("the counter would overflow: the sum does not fit in an i64");
        return DEN_ERR_INVALID_ARGUMENT;
    }
    *result = value + step;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_version != DEN_ABI_VERSION) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, "counter", "1.0.0", "A counter written in plain C");
    if (status != DEN_OK) return status;
    status = registrar->add_route(registrar->ctx, "counter", build, NULL);
    if (status != DEN_OK) return status;
    status = registrar->add_route(registrar->ctx, "counter/<int:start>", build, NULL);
    if (status != DEN_OK) return status;
    /* Exports arrived in revision 2: on an older host the counter still works, without them. */
    if (host->abi_revision < 2) return DEN_OK;
    return registrar->add_export(registrar->ctx, "add", "(i64 value, i64 step) -> i64",
                                 "Adds step to value, refusing an overflow", (den_export_fn)add_export);
}
