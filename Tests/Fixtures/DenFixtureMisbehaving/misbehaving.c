/* A module whose instances misbehave in every way the host must survive:
 *   loop           navigates to "loop" on every event (a redirect loop)
 *   garbage-reply  answers with bytes that are not JSON
 *   future-screen  answers with a screen version the host does not know
 *   build-fails    its builder refuses with a message
 *   fails-on-tap   draws a screen, then returns an error for any action
 */
#define _GNU_SOURCE /* memmem */
#include "den_module.h"

#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

typedef struct instance { const char *kind; } instance;

static void release(uint8_t *ptr, size_t len) { (void)len; free(ptr); }

static den_owned text(const char *value) {
    size_t len = strlen(value);
    uint8_t *ptr = malloc(len);
    memcpy(ptr, value, len);
    return (den_owned){ptr, len, release};
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    const char *kind = ((instance *)self)->kind;
    int is_action = event.len > 0 && memmem(event.ptr, event.len, "\"action\"", 8) != NULL;
    if (strcmp(kind, "loop") == 0) {
        *reply = text("{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Loop\",\"elements\":[]},"
                      "\"effects\":[{\"type\":\"navigate\",\"route\":\"loop\"}]}");
    } else if (strcmp(kind, "garbage-reply") == 0) {
        *reply = text("this is not JSON");
    } else if (strcmp(kind, "future-screen") == 0) {
        *reply = text("{\"v\":1,\"screen\":{\"v\":99,\"title\":\"From the future\",\"elements\":[]},\"effects\":[]}");
    } else if (is_action) {
        *reply = text("the tap handler fell over");
        return DEN_ERR_INTERNAL;
    } else {
        /* Lenient wire: no "effects", unknown element, field without kind/value, unknown enum values. */
        *reply = text("{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Fragile\",\"elements\":["
                      "{\"type\":\"text\",\"text\":\"Tap me\",\"style\":\"sparkly\"},"
                      "{\"type\":\"hologram\",\"text\":\"?\"},"
                      "{\"type\":\"field\",\"id\":\"name\",\"label\":\"Name\"},"
                      "{\"type\":\"button\",\"id\":\"tap\",\"label\":\"Tap\",\"role\":\"glowing\"}]}}");
    }
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)host; (void)params;
    const char *kind = ctx;
    if (strcmp(kind, "build-fails") == 0) {
        *error = text("the widget factory is closed today");
        return DEN_ERR_INVALID_ARGUMENT;
    }
    instance *made = malloc(sizeof *made);
    made->kind = kind;
    *self = made;
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    static const char *kinds[] = {"loop", "garbage-reply", "future-screen", "build-fails", "fails-on-tap"};
    int32_t status = registrar->describe(registrar->ctx, "misbehaving", "1.0.0", "Tests the host's defences");
    for (size_t i = 0; status == DEN_OK && i < sizeof kinds / sizeof *kinds; i++) {
        status = registrar->add_route(registrar->ctx, kinds[i], build, (void *)kinds[i]);
    }
    return status;
}
