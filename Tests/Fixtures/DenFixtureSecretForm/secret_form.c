/* A form with a password field, for the terminal's "never echo a password" tests (route
 * `secret-form`). Pressing Show answers with the length of the password it received (never the
 * password itself), so a test can tell the value arrived without it being drawn. Route
 * `slow-form` has a button Wait whose action takes 3 s and then answers, for the progress notice
 * and for typed input during a wait. With DEN_FIXTURE_RELEASE set to a path, the action waits
 * instead until that file exists (at most 60 s) and removes it: a test then decides when the wait
 * ends, however slow the machine. */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

DEN_DEFINE_ABI_VERSION();

typedef struct instance { const char *kind; } instance;

static den_owned owned_copy(const char *bytes, size_t len) {
    uint8_t *ptr = malloc(len);
    memcpy(ptr, bytes, len);
    return (den_owned){ptr, len, den_free_release};
}

/* The length of the string value of "pin" in an action event, or -1 (no escapes expected). */
static int pin_length(den_bytes event) {
    static const char key[] = "\"pin\":\"";
    const char *start = NULL;
    for (size_t i = 0; i + sizeof key - 1 <= event.len; i++) {
        if (memcmp(event.ptr + i, key, sizeof key - 1) == 0) { start = (const char *)event.ptr + i + sizeof key - 1; break; }
    }
    if (!start) return -1;
    const char *end = memchr(start, '"', (size_t)((const char *)event.ptr + event.len - start));
    return end ? (int)(end - start) : -1;
}

/* The slow action's wait: 3 s, or until the test creates the release file. */
static void slow_wait(void) {
    const char *release = getenv("DEN_FIXTURE_RELEASE");
    if (!release || !*release) { sleep(3); return; }
    for (int waited = 0; waited < 6000 && access(release, F_OK) != 0; waited++) usleep(10000);
    unlink(release);
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    const char *kind = ((instance *)self)->kind;
    int is_action = event.len > 0 && memmem(event.ptr, event.len, "\"action\"", 8) != NULL;
    char buffer[1024];
    int len;
    if (strcmp(kind, "slow-form") == 0) {
        if (is_action) slow_wait();
        len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Slow form\",\"elements\":["
                       "{\"type\":\"text\",\"text\":\"%s\"},"
                       "{\"type\":\"button\",\"id\":\"wait\",\"label\":\"Wait\"},"
                       "{\"type\":\"button\",\"id\":\"other\",\"label\":\"Other\"}]}}",
                       is_action ? "The wait is over." : "Press Wait.");
    } else {
        char message[64] = "Type a PIN.";
        if (is_action) snprintf(message, sizeof message, "Received a PIN of %d characters.", pin_length(event));
        len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Secret form\",\"elements\":["
                       "{\"type\":\"text\",\"text\":\"%s\"},"
                       "{\"type\":\"field\",\"id\":\"pin\",\"label\":\"PIN\",\"kind\":\"password\"},"
                       "{\"type\":\"button\",\"id\":\"show\",\"label\":\"Show\"}]}}", message);
    }
    *reply = owned_copy(buffer, (size_t)len);
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)host; (void)params; (void)error;
    instance *made = malloc(sizeof *made);
    made->kind = ctx;
    *self = made;
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "secret-form", "1.0.0", "A password field and a slow action");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "secret-form", build, (void *)"secret-form");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "slow-form", build, (void *)"slow-form");
    return status;
}
