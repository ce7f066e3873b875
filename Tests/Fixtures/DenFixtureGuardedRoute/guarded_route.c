/* Route guards from plain C (ABI revision 1): module "guarded" registers with
 * add_route_with_flags and DEN_ROUTE_REQUIRES_LOGIN
 *   vault                     a guarded screen
 *   vault/item/<int:id>       guarded, with a placeholder
 *   vault/files/<path:rest>   guarded catch-all
 * and with the revision-0 add_route
 *   lobby                     open to everyone; shows how often a guarded builder ran, so a test
 *                             can tell that the host never called it while nobody was logged in.
 * Every screen shows the route its builder was given. No module here serves "login". */
#include "den_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

/* The host never runs two builders of one plugin at once (den_module.h), so a plain counter. */
static int guarded_builds = 0;

typedef struct instance {
    const char *kind;
    char route[512]; /* the "route" of the build parameters, still JSON-escaped */
} instance;

static den_owned owned_copy(const char *bytes, size_t len) {
    uint8_t *ptr = malloc(len);
    memcpy(ptr, bytes, len);
    return (den_owned){ptr, len, den_free_release};
}

/* Copies the JSON string value of "route" (escapes kept, so it can go back into JSON as is). */
static void copy_route(den_bytes params, char *out, size_t size) {
    static const char key[] = "\"route\":\"";
    out[0] = '\0';
    for (size_t i = 0; i + sizeof key - 1 <= params.len; i++) {
        if (memcmp(params.ptr + i, key, sizeof key - 1) != 0) continue;
        size_t n = 0;
        for (size_t j = i + sizeof key - 1; j < params.len && n + 2 < size; j++) {
            char c = (char)params.ptr[j];
            if (c == '"') break;
            out[n++] = c;
            if (c == '\\' && j + 1 < params.len) out[n++] = (char)params.ptr[++j];
        }
        out[n] = '\0';
        return;
    }
}

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    (void)event;
    const instance *me = self;
    char buffer[2048]; /* room for the longest route kept */
    int len;
    if (strcmp(me->kind, "lobby") == 0) {
        len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Lobby\",\"elements\":["
                       "{\"type\":\"text\",\"text\":\"guarded builds: %d\"},"
                       "{\"type\":\"link\",\"label\":\"Vault\",\"route\":\"vault\"}]}}", guarded_builds);
    } else {
        len = snprintf(buffer, sizeof buffer,
                       "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Vault\",\"elements\":["
                       "{\"type\":\"text\",\"text\":\"secret contents of %s\"},"
                       "{\"type\":\"text\",\"text\":\"guarded builds: %d\"}]}}", me->route, guarded_builds);
    }
    *reply = owned_copy(buffer, (size_t)len);
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, NULL, NULL, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)host; (void)error;
    instance *made = malloc(sizeof *made);
    made->kind = ctx;
    copy_route(params, made->route, sizeof made->route);
    if (strcmp(made->kind, "lobby") != 0) guarded_builds++;
    *self = made;
    *out_api = &api;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    /* add_route_with_flags exists only from revision 1 on: check before reading it. */
    if (host->abi_revision < 1) return DEN_ERR_VERSION;
    static const char *guarded[] = {"vault", "vault/item/<int:id>", "vault/files/<path:rest>"};
    int32_t status = registrar->describe(registrar->ctx, "guarded", "1.0.0", "Guarded routes in plain C");
    for (size_t i = 0; status == DEN_OK && i < sizeof guarded / sizeof *guarded; i++) {
        status = registrar->add_route_with_flags(registrar->ctx, guarded[i], DEN_ROUTE_REQUIRES_LOGIN, build, (void *)"vault");
    }
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "lobby", build, (void *)"lobby");
    return status;
}
