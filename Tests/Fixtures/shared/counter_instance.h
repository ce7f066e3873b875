/* The counter instance the ABI-growth fixtures share (DenFixtureOldLayout, DenFixtureStateVersion):
 * "count N, snapshots M", the action "count" adds one, snapshot and restore keep the count, and M
 * says how often the host asked for a snapshot. Include it after den_module.h, with _GNU_SOURCE
 * defined (memmem), and define COUNTER_TITLE first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct instance {
    long count;
    long snapshots;
    uint64_t version; /* changes with the state (state_version, revision 4) */
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
             "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"" COUNTER_TITLE "\",\"elements\":["
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

static void destroy(void *self) { free(self); }
