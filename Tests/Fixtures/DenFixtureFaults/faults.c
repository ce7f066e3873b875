/* A module that fails in every way an isolated worker must contain (docs/ISOLATION.md). Route
 * "faults" shows a counter, kept by snapshot/restore, and one button per fault:
 *   count    adds one to the counter (the state a crash must not lose)
 *   segv     writes through a NULL pointer          abort    calls abort()
 *   trap     executes the trap instruction Swift's fatalError, a force-unwrap of nil and an
 *            index out of range end in (ud2: SIGILL)
 *   loop     never returns                          oom      allocates until malloc fails, then writes to NULL
 *   garbage  writes bytes that are no frame on the worker's socket (fd 3)
 *   close    closes the worker's socket             fork     forks a child that sleeps, then crashes
 *   probe    tries socket(AF_INET) and open("/etc/passwd") and shows what happened
 *   log      calls the host's log service (a service call from inside a call)
 * Route "faults/big" is the same screen padded to 4 KiB (the benchmark's large screen).
 * Export faults.crash() -> i64 faults (SIGSEGV); faults.add(i64 a, i64 b) -> i64 adds.
 * Only for isolated runs: in-process, every fault but count and probe ends the host. */
#define _GNU_SOURCE
#include "den_module.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

DEN_DEFINE_ABI_VERSION();
/* A manifest gives den the module id before any code runs, which `--isolate faults` needs. */
DEN_DEFINE_MANIFEST("{\"v\":1,\"id\":\"faults\",\"version\":\"1.0.0\",\"summary\":\"Fails on purpose, for the isolation tests\","
                    "\"routes\":[{\"pattern\":\"faults\"},{\"pattern\":\"faults/big\"}],"
                    "\"exports\":[{\"name\":\"crash\",\"signature\":\"() -> i64\"},{\"name\":\"add\",\"signature\":\"(i64 a, i64 b) -> i64\"}]}");

typedef struct instance { long count; char probe[256]; const den_host *host; int big; } instance;

static den_owned text(const char *value) {
    size_t len = strlen(value);
    uint8_t *ptr = malloc(len);
    memcpy(ptr, value, len);
    return (den_owned){ptr, len, den_free_release};
}

static int is_action(den_bytes event, const char *id) {
    char needle[64];
    snprintf(needle, sizeof needle, "\"action\":\"%s\"", id);
    char *copy = strndup((const char *)event.ptr, event.len);
    /* The host writes "action" as the event's button id key; accept either spacing. */
    int found = strstr(copy, needle) != NULL;
    if (!found) { snprintf(needle, sizeof needle, "\"%s\"", id); found = strstr(copy, "\"type\":\"action\"") && strstr(copy, needle); }
    free(copy);
    return found;
}

static volatile int *nowhere = NULL;

static int32_t handle(void *self, den_bytes event, den_owned *reply) {
    instance *me = self;
    if (is_action(event, "count")) me->count++;
    if (is_action(event, "segv")) *nowhere = 1;
    if (is_action(event, "abort")) abort();
    if (is_action(event, "trap")) __builtin_trap();
    if (is_action(event, "loop")) for (;;) pause();
    if (is_action(event, "oom")) {
        for (;;) {
            char *block = malloc(16 << 20);
            if (block == NULL) { *nowhere = 2; }
            else memset(block, 1, 16 << 20);
        }
    }
    if (is_action(event, "garbage")) { (void)!write(3, "\xff\xff\xff\x7fgarbage!", 12); }
    if (is_action(event, "close")) close(3);
    if (is_action(event, "fork")) {
        pid_t child = fork();
        if (child == 0) { sleep(1); *nowhere = 3; }
        snprintf(me->probe, sizeof me->probe, "fork: %s", child < 0 ? strerror(errno) : "a child started");
    }
    if (is_action(event, "probe")) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        int socket_errno = errno;
        int file = open("/etc/passwd", O_RDONLY);
        int file_errno = errno;
        snprintf(me->probe, sizeof me->probe, "socket: %s; open /etc/passwd: %s",
                 fd < 0 ? strerror(socket_errno) : "allowed", file < 0 ? strerror(file_errno) : "allowed");
        if (fd >= 0) close(fd);
        if (file >= 0) close(file);
    }
    if (is_action(event, "log")) {
        den_owned answer = {0};
        const char *request = "{\"level\":\"warning\",\"message\":\"faults says hello\"}";
        int32_t status = me->host->call(me->host->ctx, "log", (den_bytes){(const uint8_t *)request, strlen(request)}, &answer);
        snprintf(me->probe, sizeof me->probe, "log: status %d", status);
        if (answer.release) answer.release(answer.ptr, answer.len);
    }
    char padding[3800];
    memset(padding, 'x', sizeof padding - 1);
    padding[me->big ? sizeof padding - 1 : 0] = 0;
    char screen[5120];
    snprintf(screen, sizeof screen,
             "{\"v\":1,\"screen\":{\"v\":1,\"title\":\"Faults\",\"elements\":["
             "{\"type\":\"text\",\"text\":\"count %ld\"},{\"type\":\"text\",\"text\":\"probe: %s\"},"
             "{\"type\":\"text\",\"text\":\"%s\"},"
             "{\"type\":\"button\",\"id\":\"count\"},{\"type\":\"button\",\"id\":\"segv\"},{\"type\":\"button\",\"id\":\"abort\"},{\"type\":\"button\",\"id\":\"trap\"},"
             "{\"type\":\"button\",\"id\":\"loop\"},{\"type\":\"button\",\"id\":\"oom\"},{\"type\":\"button\",\"id\":\"garbage\"},"
             "{\"type\":\"button\",\"id\":\"close\"},{\"type\":\"button\",\"id\":\"fork\"},{\"type\":\"button\",\"id\":\"probe\"},"
             "{\"type\":\"button\",\"id\":\"log\"}]}}",
             me->count, me->probe[0] ? me->probe : "none", padding);
    *reply = text(screen);
    return DEN_OK;
}

static int32_t snapshot(void *self, den_owned *state) {
    char bytes[32];
    snprintf(bytes, sizeof bytes, "%ld", ((instance *)self)->count);
    *state = text(bytes);
    return DEN_OK;
}

static int32_t restore(void *self, den_bytes state) {
    char bytes[32] = {0};
    if (state.len == 0 || state.len >= sizeof bytes) return DEN_ERR_VERSION;
    memcpy(bytes, state.ptr, state.len);
    ((instance *)self)->count = atol(bytes);
    return DEN_OK;
}

static void destroy(void *self) { free(self); }

static const den_instance_api api = {sizeof(den_instance_api), 0, handle, snapshot, restore, destroy};

static int32_t build(void *ctx, const den_host *host, den_bytes params, void **self,
                     const den_instance_api **out_api, den_owned *error) {
    (void)params; (void)error;
    instance *made = calloc(1, sizeof *made);
    made->host = host;
    made->big = ctx != NULL;
    *self = made;
    *out_api = &api;
    return DEN_OK;
}

static int32_t crash(const den_host *host, int64_t *result, den_owned *error) {
    (void)host; (void)result; (void)error;
    *nowhere = 4;
    return DEN_OK;
}

static int32_t add(const den_host *host, int64_t a, int64_t b, int64_t *result, den_owned *error) {
    (void)host; (void)error;
    *result = a + b;
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    int32_t status = registrar->describe(registrar->ctx, "faults", "1.0.0", "Fails on purpose, for the isolation tests");
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "faults", build, NULL);
    if (status == DEN_OK) status = registrar->add_route(registrar->ctx, "faults/big", build, (void *)"big");
    if (status == DEN_OK && host->abi_revision >= 2) {
        status = registrar->add_export(registrar->ctx, "crash", "() -> i64", "Faults", (den_export_fn)crash);
        if (status == DEN_OK) status = registrar->add_export(registrar->ctx, "add", "(i64 a, i64 b) -> i64", "Adds", (den_export_fn)add);
    }
    return status;
}
