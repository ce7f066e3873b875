/* Module "exporter": one export per type and per way an export can fail or misbehave (ABI
 * revision 2), for the loader, service, CLI and benchmark tests. Plain C against den_module.h. */
#include "den_module.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

DEN_DEFINE_ABI_VERSION();

static atomic_long touches = 0;

static den_owned owned_text(const char *text) {
    size_t len = strlen(text);
    uint8_t *ptr = malloc(len > 0 ? len : 1);
    memcpy(ptr, text, len);
    return (den_owned){ptr, len, den_free_release};
}

static int32_t add(const den_host *host, int64_t a, int64_t b, int64_t *result, den_owned *error) {
    (void)host;
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) {
        *error = owned_text("the sum does not fit in an i64");
        return DEN_ERR_INVALID_ARGUMENT;
    }
    *result = a + b;
    return DEN_OK;
}

static int32_t scale(const den_host *host, double x, double factor, double *result, den_owned *error) {
    (void)host; (void)error;
    *result = x * factor;
    return DEN_OK;
}

static int32_t negate(const den_host *host, bool value, bool *result, den_owned *error) {
    (void)host; (void)error;
    *result = !value;
    return DEN_OK;
}

static int32_t greet(const den_host *host, const char *name, den_owned *result, den_owned *error) {
    (void)host; (void)error;
    char text[512];
    snprintf(text, sizeof text, "Hello, %s!", name);
    *result = owned_text(text);
    return DEN_OK;
}

static int32_t length(const den_host *host, const char *text, int64_t *result, den_owned *error) {
    (void)host; (void)error;
    *result = (int64_t)strlen(text);
    return DEN_OK;
}

static int32_t touch(const den_host *host, den_owned *error) {
    (void)host; (void)error;
    atomic_fetch_add(&touches, 1);
    return DEN_OK;
}

static int32_t mixed(const den_host *host, int64_t a, double b, bool c, const char *d, den_owned *result,
                     den_owned *error) {
    (void)host; (void)error;
    char text[512];
    snprintf(text, sizeof text, "a=%lld b=%g c=%s d=%s", (long long)a, b, c ? "true" : "false", d);
    *result = owned_text(text);
    return DEN_OK;
}

static int32_t fail(const den_host *host, const char *why, den_owned *result, den_owned *error) {
    (void)host;
    *result = owned_text("a result that must be released, not used");
    *error = owned_text(why);
    return DEN_ERR_NOT_FOUND;
}

static int32_t fail_silently(const den_host *host, int64_t *result, den_owned *error) {
    (void)host; (void)result; (void)error;
    return 42;
}

static int32_t no_release(const den_host *host, den_owned *result, den_owned *error) {
    (void)host; (void)error;
    static uint8_t text[] = "static text";
    *result = (den_owned){text, sizeof text - 1, NULL};
    return DEN_OK;
}

static int32_t not_utf8(const den_host *host, den_owned *result, den_owned *error) {
    (void)host; (void)error;
    *result = owned_text("caf\xe9");
    return DEN_OK;
}

static int32_t not_a_number(const den_host *host, double *result, den_owned *error) {
    (void)host; (void)error;
    *result = 0.0 / 0.0;
    return DEN_OK;
}

static int32_t huge(const den_host *host, den_owned *result, den_owned *error) {
    (void)host; (void)error;
    size_t len = 5u * 1024u * 1024u;
    uint8_t *ptr = malloc(len);
    memset(ptr, 'x', len);
    *result = (den_owned){ptr, len, den_free_release};
    return DEN_OK;
}

static int32_t nap(const den_host *host, int64_t ms, den_owned *error) {
    (void)host; (void)error;
    struct timespec delay = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&delay, NULL);
    return DEN_OK;
}

/* Calls a host service and returns its answer or message as the result string, and its status. */
static int32_t service(const den_host *host, const char *name, const char *request, den_owned *result) {
    den_owned answer = {NULL, 0, NULL};
    int32_t status = host->call(host->ctx, name, (den_bytes){(const uint8_t *)request, strlen(request)}, &answer);
    *result = answer;
    return status;
}

/* exports.call from C: calls `name` with one string argument, answers the host's JSON. */
static int32_t call_other(const den_host *host, const char *name, const char *argument, den_owned *result,
                          den_owned *error) {
    char request[1024];
    /* The test passes names and arguments without quotes or backslashes. */
    snprintf(request, sizeof request, "{\"name\":\"%s\",\"arguments\":[\"%s\"]}", name, argument);
    int32_t status = service(host, "exports.call", request, result);
    if (status != DEN_OK) {
        *error = *result;
        *result = (den_owned){NULL, 0, NULL};
    }
    return status;
}

/* Calls itself through the host until the host stops it. */
static int32_t recurse(const den_host *host, den_owned *error) {
    den_owned answer = {NULL, 0, NULL};
    int32_t status = service(host, "exports.call", "{\"name\":\"exporter.recurse\",\"arguments\":[]}", &answer);
    if (status != DEN_OK) *error = answer;
    else if (answer.ptr != NULL) answer.release(answer.ptr, answer.len);
    return status;
}

/* The UI session's user, or the host's refusal (no session outside a screen's call). */
static int32_t session_user(const den_host *host, den_owned *result, den_owned *error) {
    int32_t status = service(host, "session.get", "{\"key\":\"user\"}", result);
    if (status != DEN_OK) {
        *error = *result;
        *result = (den_owned){NULL, 0, NULL};
    }
    return status;
}

static int32_t leaky_error(const den_host *host, den_owned *error) {
    (void)host;
    static uint8_t text[] = "a message without release";
    *error = (den_owned){text, sizeof text - 1, NULL};
    return DEN_ERR_INTERNAL;
}

#define EXPORT(name, signature, summary, function) \
    if ((status = registrar->add_export(registrar->ctx, name, signature, summary, (den_export_fn)(function))) != DEN_OK) \
        return status

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    if (host->abi_revision < 2) return DEN_ERR_VERSION;
    int32_t status = registrar->describe(registrar->ctx, "exporter", "1.0.0", "Exports of every type (test fixture)");
    if (status != DEN_OK) return status;
    EXPORT("add", "(i64 a, i64 b) -> i64", "Adds two whole numbers", add);
    EXPORT("scale", "(f64 x, f64 factor) -> f64", "Multiplies", scale);
    EXPORT("negate", "(bool value) -> bool", "Not", negate);
    EXPORT("greet", "(string name) -> string", "Says hello", greet);
    EXPORT("length", " ( string text ) -> i64 ", "Bytes in a string", length);
    EXPORT("touch", "() -> void", "Counts calls", touch);
    EXPORT("mixed", "(i64 a, f64 b, bool c, string d) -> string", "Every type at once", mixed);
    EXPORT("fail", "(string why) -> string", "Fails with DEN_ERR_NOT_FOUND and the message given", fail);
    EXPORT("fail_silently", "() -> i64", "Fails with status 42 and no message", fail_silently);
    EXPORT("no_release", "() -> string", "Returns a string without a release function", no_release);
    EXPORT("not_utf8", "() -> string", "Returns bytes that are not UTF-8", not_utf8);
    EXPORT("not_a_number", "() -> f64", "Returns NaN", not_a_number);
    EXPORT("huge", "() -> string", "Returns 5 MiB", huge);
    EXPORT("nap", "(i64 ms) -> void", "Sleeps", nap);
    EXPORT("call_other", "(string name, string argument) -> string", "Calls another export through exports.call", call_other);
    EXPORT("recurse", "() -> void", "Calls itself through exports.call", recurse);
    EXPORT("session_user", "() -> string", "The UI session's user", session_user);
    EXPORT("leaky_error", "() -> void", "Fails with a message that has no release function", leaky_error);
    return DEN_OK;
}
