/*
 * A Den module written in plain C against den_module.h alone: no Swift, no DenKit. It reads and
 * writes its JSON documents with cJSON (Debian: libcjson-dev) and shows, in one small module:
 *   - a manifest (den_manifest), so den knows the module without loading it and loads it lazily;
 *   - a builder that reads a typed route parameter and refuses a bad one with a message;
 *   - host calls ("log", "storage.get", "storage.set") and releasing the host's answers;
 *   - reading field values from an action event;
 *   - navigate and back effects;
 *   - snapshot/restore, so a hot swap keeps the count.
 * Routes: "counter" (starts from the saved value) and "counter/<int:start>".
 *
 * Build:  make              (or: cc -shared -fPIC -I ../../Sources/CDenABI/include counter_module.c -lcjson -o libCounterModule.so)
 * Run:    den render counter/41 --plugin-dir .
 * Export: den call --plugin-dir . counter.add 41 1   prints 42 (ABI revision 2: den_registrar.add_export)
 */
#include "den_module.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

/* What den reads from the file before loading it; den checks at load that the entry point below
 * registers exactly this (docs/ABI.md, "The manifest"). */
DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"counter\", \"version\": \"1.1.0\", "
                    "\"summary\": \"A counter written in plain C\", "
                    "\"routes\": [{\"pattern\": \"counter\"}, {\"pattern\": \"counter/<int:start>\"}], "
                    "\"exports\": [{\"name\": \"add\", \"signature\": \"(i64 value, i64 step) -> i64\"}]}");

/* The largest start a route may ask for: a builder refuses more, with a message for the user. */
#define COUNTER_MAX 1000000000L

typedef struct counter {
    const den_host *host; /* valid for the process lifetime (den_module.h) */
    long value;
    char notice[160];     /* shown once, under the number */
} counter;

/* ---- Owned buffers --------------------------------------------------------------------------- */

/* A malloc'ed copy of `text`, handed over with den_free_release. */
static den_owned owned_text(const char *text) {
    size_t len = strlen(text);
    uint8_t *ptr = malloc(len ? len : 1);
    if (ptr == NULL) return (den_owned){NULL, 0, NULL};
    memcpy(ptr, text, len);
    return (den_owned){ptr, len, den_free_release};
}

/* cJSON prints into a malloc'ed, NUL-terminated string; the document is its bytes without the NUL. */
static den_owned owned_json(cJSON *document) {
    char *text = cJSON_PrintUnformatted(document);
    if (text == NULL) return (den_owned){NULL, 0, NULL};
    return (den_owned){(uint8_t *)text, strlen(text), den_free_release};
}

/* ---- Host calls ------------------------------------------------------------------------------ */

/* Calls a host service with a JSON request and returns the parsed answer (NULL on an error, whose
 * text goes to stderr). Whatever the host answers is the host's buffer: release it exactly once. */
static cJSON *host_call(const den_host *host, const char *service, cJSON *request) {
    char *body = cJSON_PrintUnformatted(request);
    if (body == NULL) return NULL;
    den_owned response = {NULL, 0, NULL};
    int32_t status = host->call(host->ctx, service, (den_bytes){(const uint8_t *)body, strlen(body)}, &response);
    free(body);
    cJSON *answer = NULL;
    if (status == DEN_OK) {
        answer = cJSON_ParseWithLength((const char *)response.ptr, response.len);
    } else {
        fprintf(stderr, "counter: %s failed (%d): %.*s\n", service, status, (int)response.len, (const char *)response.ptr);
    }
    if (response.release != NULL) response.release(response.ptr, response.len);
    return answer;
}

static void host_log(const den_host *host, const char *level, const char *message) {
    cJSON *request = cJSON_CreateObject();
    cJSON_AddStringToObject(request, "level", level);
    cJSON_AddStringToObject(request, "message", message);
    cJSON_Delete(host_call(host, "log", request));
    cJSON_Delete(request);
}

/* The saved count ("storage.get" answers {"value": "12"} or {"value": null}); -1 when none. */
static long load_saved(const den_host *host) {
    cJSON *request = cJSON_CreateObject();
    cJSON_AddStringToObject(request, "key", "count");
    cJSON *answer = host_call(host, "storage.get", request);
    cJSON_Delete(request);
    long saved = -1;
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(answer, "value");
    if (cJSON_IsString(value)) saved = strtol(value->valuestring, NULL, 10);
    cJSON_Delete(answer);
    return saved;
}

static int save(const den_host *host, long value) {
    char text[32];
    snprintf(text, sizeof text, "%ld", value);
    cJSON *request = cJSON_CreateObject();
    cJSON_AddStringToObject(request, "key", "count");
    cJSON_AddStringToObject(request, "value", text);
    cJSON *answer = host_call(host, "storage.set", request);
    cJSON_Delete(request);
    int saved = answer != NULL;
    cJSON_Delete(answer);
    return saved;
}

/* ---- The screen ------------------------------------------------------------------------------ */

static cJSON *element(cJSON *elements, const char *type) {
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "type", type);
    cJSON_AddItemToArray(elements, item);
    return item;
}

static void button(cJSON *elements, const char *id, const char *label, const char *role) {
    cJSON *item = element(elements, "button");
    cJSON_AddStringToObject(item, "id", id);
    cJSON_AddStringToObject(item, "label", label);
    cJSON_AddStringToObject(item, "role", role);
}

/* The reply: the screen, and `effect` ("navigate" to `route`, or "back") when not NULL. */
static cJSON *reply_document(counter *c, const char *effect, const char *route) {
    cJSON *reply = cJSON_CreateObject();
    cJSON_AddNumberToObject(reply, "v", 1);
    cJSON *screen = cJSON_AddObjectToObject(reply, "screen");
    cJSON_AddNumberToObject(screen, "v", 1);
    cJSON_AddStringToObject(screen, "title", "Counter (C)");
    cJSON *elements = cJSON_AddArrayToObject(screen, "elements");
    cJSON *caption = element(elements, "text");
    cJSON_AddStringToObject(caption, "text", "This module is plain C.");
    cJSON_AddStringToObject(caption, "style", "caption");
    char number[32];
    snprintf(number, sizeof number, "%ld", c->value);
    cJSON_AddStringToObject(element(elements, "heading"), "text", number);
    if (c->notice[0] != '\0') {
        cJSON *banner = element(elements, "banner");
        cJSON_AddStringToObject(banner, "kind", "info");
        cJSON_AddStringToObject(banner, "text", c->notice);
        c->notice[0] = '\0';
    }
    cJSON *step = element(elements, "field");
    cJSON_AddStringToObject(step, "id", "step");
    cJSON_AddStringToObject(step, "label", "Step");
    cJSON_AddStringToObject(step, "value", "1");
    cJSON_AddStringToObject(step, "kind", "number");
    button(elements, "add", "Add step", "primary");
    button(elements, "reset", "Reset", "destructive");
    button(elements, "save", "Save", "secondary");
    button(elements, "about", "About", "secondary");
    button(elements, "close", "Back", "secondary");
    cJSON *effects = cJSON_AddArrayToObject(reply, "effects");
    if (effect != NULL) {
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "type", effect);
        if (route != NULL) cJSON_AddStringToObject(item, "route", route);
        cJSON_AddItemToArray(effects, item);
    }
    return reply;
}

/* ---- The instance ---------------------------------------------------------------------------- */

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    counter *c = self;
    cJSON *document = cJSON_ParseWithLength((const char *)event.ptr, event.len);
    if (document == NULL) {
        *reply = owned_text("the event is not JSON");
        return DEN_ERR_INVALID_ARGUMENT;
    }
    const char *effect = NULL, *route = NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(document, "type");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(document, "id");
    if (cJSON_IsString(type) && strcmp(type->valuestring, "action") == 0 && cJSON_IsString(id)) {
        /* Field values arrive as strings in "fields", keyed by the field's id. */
        const cJSON *fields = cJSON_GetObjectItemCaseSensitive(document, "fields");
        const cJSON *step_text = cJSON_GetObjectItemCaseSensitive(fields, "step");
        if (strcmp(id->valuestring, "add") == 0) {
            char *end = NULL;
            long step = cJSON_IsString(step_text) ? strtol(step_text->valuestring, &end, 10) : 1;
            if (cJSON_IsString(step_text) && (end == step_text->valuestring || *end != '\0' || step < 1 || step > 1000)) {
                snprintf(c->notice, sizeof c->notice, "Step must be a whole number from 1 to 1000; the count stays %ld.", c->value);
            } else if (c->value > COUNTER_MAX - step) {
                snprintf(c->notice, sizeof c->notice, "The count stops at %ld.", COUNTER_MAX);
            } else {
                c->value += step;
            }
        } else if (strcmp(id->valuestring, "reset") == 0) {
            c->value = 0;
        } else if (strcmp(id->valuestring, "save") == 0) {
            snprintf(c->notice, sizeof c->notice, save(c->host, c->value) ? "Saved %ld." : "Could not save %ld (see the log).", c->value);
        } else if (strcmp(id->valuestring, "about") == 0) {
            effect = "navigate"; /* modules meet only through route strings */
            route = "about";
        } else if (strcmp(id->valuestring, "close") == 0) {
            effect = "back";
        }
    }
    cJSON_Delete(document);
    cJSON *answer = reply_document(c, effect, route);
    *reply = owned_json(answer);
    cJSON_Delete(answer);
    return reply->ptr != NULL ? DEN_OK : DEN_ERR_INTERNAL;
}

static int32_t snapshot(void *self, den_owned *state) {
    char body[32];
    snprintf(body, sizeof body, "%ld", ((counter *)self)->value);
    *state = owned_text(body);
    return state->ptr != NULL ? DEN_OK : DEN_ERR_INTERNAL;
}

static int32_t restore(void *self, den_bytes state) {
    char text[32] = {0};
    if (state.len == 0 || state.len >= sizeof text) return DEN_ERR_VERSION;
    memcpy(text, state.ptr, state.len);
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (*end != '\0' || value < 0 || value > COUNTER_MAX) return DEN_ERR_VERSION;
    ((counter *)self)->value = value;
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

/* Designated initializers: a field a later den_module.h appends is then NULL, with no warning. */
static const den_instance_api api = {
    .struct_size = sizeof(den_instance_api),
    .handle = handle,
    .snapshot = snapshot,
    .restore = restore,
    .destroy = destroy,
};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)ctx;
    cJSON *document = cJSON_ParseWithLength((const char *)params.ptr, params.len);
    /* {"route": ..., "parameters": {"start": "41"}, ...}: the router already checked it is an int. */
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(document, "parameters"), "start");
    long value = 0;
    if (cJSON_IsString(start)) {
        char *end = NULL;
        value = strtol(start->valuestring, &end, 10);
        if (*end != '\0' || value < 0 || value > COUNTER_MAX) {
            char message[160];
            snprintf(message, sizeof message, "the counter starts from 0 to %ld, not %s", COUNTER_MAX, start->valuestring);
            cJSON_Delete(document);
            *error = owned_text(message); /* shown on den's "Cannot open" screen */
            return DEN_ERR_INVALID_ARGUMENT;
        }
    } else {
        long saved = load_saved(host);
        if (saved >= 0 && saved <= COUNTER_MAX) value = saved;
    }
    cJSON_Delete(document);
    counter *c = calloc(1, sizeof *c);
    if (c == NULL) {
        *error = owned_text("out of memory");
        return DEN_ERR_INTERNAL;
    }
    c->host = host;
    c->value = value;
    host_log(host, "debug", "counter built");
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
    int32_t status = registrar->describe(registrar->ctx, "counter", "1.1.0", "A counter written in plain C");
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
