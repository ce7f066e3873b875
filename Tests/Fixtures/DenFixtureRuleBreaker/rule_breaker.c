/* A module that breaks the ABI's rules in the ways outside authors did, each on its own route:
 *   late-registrar     keeps the registrar (pointer and a copy) and calls it after entry returned
 *   forged-log         logs a message with newlines and escape sequences
 *   huge-reply         answers with a 50 MB (valid) reply
 *   deep-reply         answers with a valid reply nested 600 levels deep
 *   future-reply       answers with a document "v" of 999
 *   unversioned-reply  answers without a document "v"
 *   javascript-url     asks the host to open a javascript: URL
 *   long-error         fails with a 100 KB error message
 *   huge-request       sends a 5 MB storage.set request and shows what the host answered
 *   deep-request       sends a storage.get request nested 600 levels deep
 *   hangs              never returns from handle (appear)
 *   hangs-on-tap       draws a screen, then never returns from handle (action)
 *   build-hangs        its builder never returns
 *   build-faults       its builder dereferences NULL (den dies: in-process code cannot be survived)
 *   no-instance        its builder returns DEN_OK without setting *self or *api
 *   old-table          its builder returns an instance API table whose struct_size is 8
 *   no-handle          its builder returns an instance API table without handle
 * Its summary carries escape sequences (clear screen, set window title). Every reply buffer is
 * released with den_free_release, which the header offers to plugins. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

DEN_DEFINE_ABI_VERSION();

static const den_registrar *kept_registrar;
static den_registrar kept_copy;
static const den_host *kept_host;

typedef struct instance { const char *kind; } instance;

static den_owned owned_copy(const char *bytes, size_t len) {
    uint8_t *ptr = malloc(len);
    memcpy(ptr, bytes, len);
    return (den_owned){ptr, len, den_free_release};
}

static den_owned text(const char *value) { return owned_copy(value, strlen(value)); }

static den_owned screen_saying(const char *message) {
    char buffer[4096];
    int len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Rule breaker\",\"elements\":["
                       "{\"type\":\"text\",\"text\":\"%s\"},"
                       "{\"type\":\"button\",\"id\":\"tap\",\"label\":\"Tap\"}]}}", message);
    return owned_copy(buffer, (size_t)len);
}

static void never_return(void) {
    for (;;) sleep(3600);
}

/* Calls a host service and describes the outcome as "status N: first words of the message". */
static void call_and_describe(const char *service, const char *request, size_t len, char *out, size_t size) {
    den_owned response = {0};
    int32_t status = kept_host->call(kept_host->ctx, service, (den_bytes){(const uint8_t *)request, len}, &response);
    size_t shown = response.len < 300 ? response.len : 300;
    char message[301] = {0};
    if (response.ptr) memcpy(message, response.ptr, shown);
    for (size_t i = 0; i < shown; i++) if (message[i] == '"' || message[i] == '\\' || message[i] < 0x20) message[i] = '\'';
    snprintf(out, size, "status %d: %s", status, message);
    if (response.release) response.release(response.ptr, response.len);
}

static char *nested(const char *prefix, const char *middle, const char *suffix, int depth, size_t *len) {
    size_t total = strlen(prefix) + strlen(middle) + strlen(suffix) + 2 * (size_t)depth + 1;
    char *out = malloc(total), *p = out;
    p += sprintf(p, "%s", prefix);
    for (int i = 0; i < depth; i++) *p++ = '[';
    p += sprintf(p, "%s", middle);
    for (int i = 0; i < depth; i++) *p++ = ']';
    p += sprintf(p, "%s", suffix);
    *len = (size_t)(p - out);
    return out;
}

static int32_t noop_build(void *ctx, const den_host *host, den_bytes params, void **self,
                          const den_instance_api **api, den_owned *error) {
    (void)ctx; (void)host; (void)params; (void)self; (void)api; (void)error;
    return DEN_ERR_UNSUPPORTED;
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    const char *kind = ((instance *)self)->kind;
    int is_action = event.len > 0 && memmem(event.ptr, event.len, "\"action\"", 8) != NULL;
    char message[1024];
    if (strcmp(kind, "late-registrar") == 0) {
        int32_t a = kept_registrar->add_route(kept_registrar->ctx, "late", noop_build, NULL);
        int32_t b = kept_copy.add_route(kept_copy.ctx, "late-copy", noop_build, NULL);
        int32_t c = kept_registrar->describe(kept_registrar->ctx, "late", "1.0.0", "late");
        snprintf(message, sizeof message, "late calls answered %d %d %d", a, b, c);
        *reply = screen_saying(message);
    } else if (strcmp(kind, "forged-log") == 0) {
        const char *line = "{\"level\":\"warning\",\"message\":\"real line\\n2026-01-01T00:00:00 error den : forged line\\u001b[2J\"}";
        call_and_describe("log", line, strlen(line), message, sizeof message);
        *reply = screen_saying(message);
    } else if (strcmp(kind, "huge-reply") == 0) {
        size_t size = 50u * 1024 * 1024;
        char *big = malloc(size);
        const char *head = "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Huge\",\"elements\":[{\"type\":\"text\",\"text\":\"";
        const char *tail = "\"}]}}";
        memset(big, 'x', size);
        memcpy(big, head, strlen(head));
        memcpy(big + size - strlen(tail), tail, strlen(tail));
        *reply = (den_owned){(uint8_t *)big, size, den_free_release};
    } else if (strcmp(kind, "deep-reply") == 0) {
        size_t len;
        char *doc = nested("{\"v\":1,\"extra\":", "", ",\"screen\":{\"v\":1,\"title\":\"Deep\",\"elements\":[]}}", 600, &len);
        *reply = (den_owned){(uint8_t *)doc, len, den_free_release};
    } else if (strcmp(kind, "future-reply") == 0) {
        *reply = text("{\"v\":999,\"screen\":{\"v\":1,\"title\":\"Future\",\"elements\":[]}}");
    } else if (strcmp(kind, "unversioned-reply") == 0) {
        *reply = text("{\"screen\":{\"v\":1,\"title\":\"Unversioned\",\"elements\":[]}}");
    } else if (strcmp(kind, "javascript-url") == 0) {
        *reply = text("{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Links\",\"elements\":[]},"
                      "\"effects\":[{\"type\":\"open_url\",\"url\":\"javascript:alert(1)\"},"
                      "{\"type\":\"open_url\",\"url\":\"https://example.org/ok\"}]}");
    } else if (strcmp(kind, "long-error") == 0) {
        size_t size = 100 * 1024;
        char *big = malloc(size);
        memset(big, 'e', size);
        memcpy(big, "first words of a long error ", 28);
        *reply = (den_owned){(uint8_t *)big, size, den_free_release};
        return DEN_ERR_INTERNAL;
    } else if (strcmp(kind, "huge-request") == 0) {
        size_t size = 5u * 1024 * 1024;
        char *request = malloc(size);
        const char *head = "{\"key\":\"big\",\"value\":\"";
        memset(request, 'v', size);
        memcpy(request, head, strlen(head));
        memcpy(request + size - 2, "\"}", 2);
        call_and_describe("storage.set", request, size, message, sizeof message);
        free(request);
        *reply = screen_saying(message);
    } else if (strcmp(kind, "deep-request") == 0) {
        size_t len;
        char *request = nested("{\"key\":\"k\",\"extra\":", "", "}", 600, &len);
        call_and_describe("storage.get", request, len, message, sizeof message);
        free(request);
        *reply = screen_saying(message);
    } else if (strcmp(kind, "hangs") == 0 || (strcmp(kind, "hangs-on-tap") == 0 && is_action)) {
        never_return();
    } else {
        *reply = screen_saying(kind);
    }
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};

/* Tables the host must refuse: too small for this header, and without a handle function. */
static const den_instance_api old_api = {8, 0, handle, NULL, NULL, destroy};
static const den_instance_api handleless_api = {sizeof(den_instance_api), 0, NULL, NULL, NULL, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)host; (void)params; (void)error;
    const char *kind = ctx;
    if (strcmp(kind, "build-hangs") == 0) never_return();
    if (strcmp(kind, "build-faults") == 0) {
        volatile int *nowhere = NULL;
        return *nowhere;
    }
    if (strcmp(kind, "no-instance") == 0) return DEN_OK;
    instance *made = malloc(sizeof *made);
    made->kind = kind;
    *self = made;
    *out_api = strcmp(kind, "old-table") == 0 ? &old_api : strcmp(kind, "no-handle") == 0 ? &handleless_api : &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    static const char *kinds[] = {"late-registrar", "forged-log", "huge-reply", "deep-reply", "future-reply",
                                  "unversioned-reply", "javascript-url", "long-error", "huge-request",
                                  "deep-request", "hangs", "hangs-on-tap", "build-hangs", "build-faults", "no-instance", "old-table",
                                  "no-handle"};
    kept_host = host;
    kept_registrar = registrar;
    kept_copy = *registrar;
    int32_t status = registrar->describe(registrar->ctx, "rule-breaker", "1.0.0",
                                         "Breaks rules \x1b[2J\x1b]0;pwned\x07 on purpose");
    for (size_t i = 0; status == DEN_OK && i < sizeof kinds / sizeof *kinds; i++) {
        status = registrar->add_route(registrar->ctx, kinds[i], build, (void *)kinds[i]);
    }
    return status;
}
