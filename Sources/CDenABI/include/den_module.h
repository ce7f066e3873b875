/*
 * den_module.h — the one contract between the Den host and a module plugin.
 *
 * ABI version 1, revision 5. Everything that crosses the host/module line is a C type: integers, C strings,
 * byte buffers, function pointers and opaque pointers. Rich data (screens, events, service
 * requests) crosses as UTF-8 JSON documents described in docs/ABI.md. No Swift type ever crosses:
 * the host and each plugin carry their own copy of every Swift module, so a Swift object made on
 * one side is a stranger to the other side's casts.
 *
 * A plugin is a shared library that exports two data symbols and one function:
 *
 *     const uint32_t den_abi_version;      read from the file BEFORE any plugin code runs (rev. 0)
 *     const char     den_toolchain[];      optional; "swift <version>" for plugins that use Swift (rev. 0)
 *     const char     den_manifest[];       optional; the module's manifest, UTF-8 JSON (see below; rev. 0)
 *     int32_t den_module_entry(const den_host *host, const den_registrar *registrar);   (rev. 0)
 *
 * Every struct field, function and flag below names the revision that added it ("revision N").
 * How revisions grow (see DEN_ABI_REVISION): a host-owned struct (den_host, den_registrar) grows
 * at its end and a plugin reads den_host.abi_revision before it reads a newer field; a
 * plugin-owned table (den_instance_api) carries its own struct_size, and the host reads no field
 * past it, so a field a plugin's header did not have yet counts as NULL.
 *
 * Load sequence: the host copies the plugin file to a new unique path, reads den_abi_version
 * (refusing any other version) and den_toolchain (when present) from the copy's dynamic symbol
 * table without loading it, opens it with RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE, then calls
 * den_module_entry once. The
 * plugin describes itself and adds its routes through the registrar during that call. The host
 * never dlcloses a plugin: the Swift runtime keeps pointers into every image it has seen.
 *
 * Threading, unless a function says otherwise:
 *   - den_module_entry and every den_registrar function run on one thread, once, at load time.
 *   - A builder may be called from any thread, but never concurrently with itself for the same
 *     builder_ctx.
 *   - The functions of one module instance are called by one thread at a time (the host
 *     serialises them per instance); different instances may run concurrently.
 *   - den_host.call is thread-safe and may be called from any plugin function, re-entrantly.
 *   - Builders, handle and exports run on the thread that makes the call (a den serve session's
 *     thread, den run's session thread, or the process's main thread in den render and den
 *     call): never assume which (no dispatch to the main queue and waiting for it). A call past
 *     the host's call limit (30 s by default) is given up by the host's one watchdog thread, not
 *     by a signal: the calling thread stays in your code until it returns, and what it returns
 *     then is discarded (docs/ABI.md, "A call that never returns").
 *
 * Memory: a den_bytes is borrowed and valid only for the duration of the call that received it.
 * A den_owned is handed over with its release function; whoever receives it calls release
 * exactly once (release may be NULL when len == 0 and ptr == NULL). The host zeroes every
 * out-parameter before it calls a plugin function.
 *
 * Documents are UTF-8 JSON of exactly `len` bytes, with no NUL terminator. A document a module
 * sends never contains null (leave the key out); the host's answers may (storage.get's
 * {"value": null}: no such key). Limits: a reply 4 MiB, a service request 4 MiB, nesting 64 levels, an error message 4 KiB
 * (cut). docs/ABI.md has every rule and docs/schema/ a JSON Schema for every document.
 *
 * Undefined behaviour (the host cannot check it): NULL service/response or a NULL ptr with
 * len > 0 passed to den_host.call; releasing a den_owned twice; a den_owned with ptr != NULL and a
 * NULL release; tables, builder contexts or strings that do not live for the process lifetime;
 * calling an instance's functions yourself concurrently with the host; dlclose of any image; an
 * export whose C function does not have exactly the type its declared signature gives (revision 2);
 * a registrar ctx other than the registrar's own (NULL is refused).
 *
 * Crashing: a module that runs in the host's process (the default), so abort(), a fault, or a
 * C++ exception or Rust panic leaving any function here (an ELF constructor included) ends the
 * host. Catch them at the boundary (Rust: std::panic::catch_unwind; since Rust 1.81 a panic
 * leaving an extern "C" function aborts) and return an error status instead. Its crash report starts with a line naming the module file or the module and
 * call. A module run isolated (den --isolate, docs/ISOLATION.md) gets this same interface in a
 * worker process of its own, sandboxed: a crash there ends only the worker, which the host
 * restarts, restoring each instance from its last snapshot. There, host services answer only on
 * the thread of a builder, handle or export call, and file descriptor 3 is the worker's socket.
 *
 * den_abi_version must be exactly that: a 4-byte uint32_t object (DEN_DEFINE_ABI_VERSION), and
 * den_manifest a char array, not a pointer (DEN_DEFINE_MANIFEST): the host reads both from the
 * file's symbol table without running code.
 */
#ifndef DEN_MODULE_H
#define DEN_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes (revision 0). Bumped on any incompatible change. */
#define DEN_ABI_VERSION 1u

/**
 * The revision of ABI version 1 this header describes. A revision only appends: new fields at the
 * end of a host-owned struct, new flags, new services, new optional JSON keys. So a plugin built against an older header
 * keeps loading and behaving as before, and a plugin reads `den_host.abi_revision` before it uses
 * anything newer than revision 0. Revisions:
 *   0  the first host (den_host.abi_revision was a reserved zero).
 *   1  den_registrar.add_route_with_flags and DEN_ROUTE_REQUIRES_LOGIN (route guards).
 *   2  den_registrar.add_export: typed functions other modules and `den call` call (see below),
 *      and the host services exports.call and exports.list.
 *   3  `fields` in a plugins.list request: only the entry fields named are answered (docs/ABI.md,
 *      "Host services"). No struct changed; an older host ignores the key and answers them all.
 *   4  den_instance_api.state_version (optional): a screen that did not change costs no snapshot.
 *      A plugin built against an older header has a smaller table (its struct_size says so) and
 *      keeps loading: the host reads no field past struct_size.
 *   5  the manifest's "permissions" key and DEN_ERR_PERMISSION: a module asks for what it may touch
 *      beyond its own data (http hosts, other modules' exports, auth, plugins.list) and the host
 *      refuses any other such call with DEN_ERR_PERMISSION (docs/PERMISSIONS.md). No struct
 *      changed. An older host ignores the key and grants every call; a module built against an
 *      older header sees the new status as an unknown error, with its message.
 */
#define DEN_ABI_REVISION 5u

/** Makes a symbol visible outside the plugin even when built with -fvisibility=hidden (revision 0). */
#if defined(__GNUC__) || defined(__clang__)
#define DEN_EXPORT __attribute__((visibility("default")))
#else
#define DEN_EXPORT
#endif

/* ---------------------------------------------------------------------------------------------
 * Status codes (revision 0). Every int32_t-returning function returns one of these. On an error the callee
 * may put a UTF-8 message (plain text, not JSON) in the den_owned out-parameter, if it has one.
 * ------------------------------------------------------------------------------------------- */
typedef enum den_status {
    DEN_OK = 0,
    DEN_ERR_INVALID_ARGUMENT = 1, /* malformed JSON, a missing field, a value out of range */
    DEN_ERR_NOT_FOUND = 2,        /* unknown service, key, route or action */
    DEN_ERR_UNSUPPORTED = 3,      /* the callee does not implement this (e.g. snapshot) */
    DEN_ERR_CONFLICT = 4,         /* duplicate module id, conflicting route pattern */
    DEN_ERR_VERSION = 5,          /* a document or ABI version the callee does not speak; from
                                     exports.call: the caller's manifest "requires" another version
                                     of the export's module than the one loaded (docs/CATALOG.md) */
    DEN_ERR_SERVICE = 6,          /* a host service failed (disk, network); message says why */
    DEN_ERR_INTERNAL = 7,         /* anything else; message says what */
    /**
     * Revision 5. The call needs a permission the module's manifest does not ask for, or one the
     * user did not grant (or revoked): an http host, another module's export, auth, plugins.list.
     * The message names the module, the permission and what to do, e.g. "permprobe may not use
     * http (127.0.0.1): its manifest does not ask for it". Nothing was done. docs/PERMISSIONS.md.
     */
    DEN_ERR_PERMISSION = 8
} den_status;

/* ---------------------------------------------------------------------------------------------
 * Byte buffers.
 * ------------------------------------------------------------------------------------------- */

/** Borrowed bytes (revision 0): valid only during the call that passed them. Never freed by the receiver. */
typedef struct den_bytes {
    const uint8_t *ptr;   /* revision 0 */
    size_t len;           /* revision 0 */
} den_bytes;

/**
 * Owned bytes (revision 0): the receiver now owns ptr and must call release(ptr, len) exactly once, from any
 * thread. The side that allocated the buffer supplies release, so host and plugin may use
 * different allocators. An empty den_owned is {NULL, 0, NULL}.
 */
typedef struct den_owned {
    uint8_t *ptr;                                 /* revision 0 */
    size_t len;                                   /* revision 0 */
    void (*release)(uint8_t *ptr, size_t len);    /* revision 0 */
} den_owned;

/* ---------------------------------------------------------------------------------------------
 * Host services, offered to plugins.
 * ------------------------------------------------------------------------------------------- */

/**
 * A host service call (revision 0; services added later name their revision in docs/ABI.md):
 * `service` names the operation ("log", "plugins.list", "storage.get",
 * "http.get" ...; docs/ABI.md lists them with their JSON), `request` is a borrowed JSON
 * document, and on return *response holds an owned JSON document (on DEN_OK) or an owned plain
 * text message (on an error). Thread-safe; may block (storage, network) and so should not be
 * called while holding a lock the host may need. The host identifies the calling module by the
 * den_host pointer it handed to that module, so a module must pass its own pointer back.
 * During den_module_entry only "log" and "settings.declare" are available: the other services
 * open once the host has installed the module (and never for a module it rejected, e.g. for a
 * duplicate id). "settings.declare" (once, during den_module_entry only) declares the module's
 * settings as JSON (docs/ABI.md, "Module settings"); a refused declaration rejects the plugin. An
 * older host answers it with an error, which a module may ignore: no struct changed for it.
 */
typedef int32_t (*den_host_call_fn)(void *ctx, const char *service, den_bytes request,
                                    den_owned *response);

/**
 * What the host gives a module (revision 0; host-owned). Valid from den_module_entry until the process exits: a module may
 * keep the pointer. Its fields never change after the host built it.
 */
typedef struct den_host {
    uint32_t abi_version;     /* revision 0: the host's DEN_ABI_VERSION */
    uint32_t abi_revision;    /* revision 1 (a reserved 0 before): the host's DEN_ABI_REVISION */
    void *ctx;                /* revision 0: opaque; pass it back as the first argument of call */
    den_host_call_fn call;    /* revision 0 */
} den_host;

/* ---------------------------------------------------------------------------------------------
 * Module instances: one live VIPER stack showing one screen in one UI session.
 * ------------------------------------------------------------------------------------------- */

/**
 * The functions of a live instance (revision 0; plugin-owned). The struct is owned by the plugin
 * and must stay valid for the process lifetime (a static const in the plugin is the usual choice).
 * Fields are only ever appended. The host accepts any struct_size from revision 0's table (40
 * bytes on 64-bit systems, up to and including destroy) upwards and reads no field past
 * struct_size: a field the plugin's header did not have yet counts as NULL. A field the host does
 * not know (a plugin built against a newer header) is never read. Fill it with designated
 * initializers ({.struct_size = sizeof(den_instance_api), .handle = ..., .destroy = ...}): a
 * field appended later is then NULL when you rebuild, where a positional initializer draws
 * -Wmissing-field-initializers (part of -Wextra).
 */
typedef struct den_instance_api {
    /** Revision 0: sizeof(den_instance_api) as the plugin was compiled; always set it so. */
    uint32_t struct_size;
    /** Revision 0: set it to 0. */
    uint32_t reserved;

    /**
     * Revision 0, required. Handles one event (JSON, see docs/ABI.md: "appear", "action" with field values, and
     * "change" for a field whose element set "changes": true) and puts
     * the reply (JSON: "v": 1, the new screen, effects such as navigate/back/open_url) in *reply,
     * which the host zeroed before the call. A reply over 4 MiB, nested deeper than 64 levels,
     * holding null, or of another "v" is refused. On an error *reply may hold a plain-text
     * message (cut at 4 KiB); the instance stays usable. A call that runs past the host's call
     * limit (30 s by default) is given up: the instance is abandoned — never called again, never
     * destroyed — and its screen closed.
     */
    int32_t (*handle)(void *self, den_bytes event, den_owned *reply);

    /**
     * Revision 0, optional. Serialises the instance's state as opaque bytes for a hot swap; the next version of the
     * module gets them in restore. May return DEN_ERR_UNSUPPORTED, or be NULL (no state kept).
     */
    int32_t (*snapshot)(void *self, den_owned *state);

    /**
     * Revision 0, optional. Restores state written by snapshot, possibly by an older version of the module: an
     * instance that cannot read the bytes returns DEN_ERR_VERSION (any error does the same). In a
     * hot swap the host then shows that screen freshly built from its route, with a banner saying
     * its state was not kept, and the swap goes on (docs/HOT_SWAP.md). May be NULL (the instance
     * is rebuilt from its route instead).
     */
    int32_t (*restore)(void *self, den_bytes state);

    /** Revision 0, required. Frees the instance and its whole stack. `self` is invalid afterwards. */
    void (*destroy)(void *self);

    /* ---- Revision 4: absent from tables built against an older header (struct_size says so). */

    /**
     * Optional (NULL, or absent: the host snapshots whenever it needs the state). A number that
     * changes whenever the bytes snapshot would write change; a counter bumped on every change of
     * state is enough. The host calls it, serialised with the instance's other functions, before
     * it would call snapshot, and calls snapshot only when the number differs from the one it saw
     * at the instance's last snapshot (or after restore), reusing the bytes it got then. So a
     * screen that did not change costs no snapshot. Returning a number that did not change when
     * the state did loses that change at the next hot swap or session save: when in doubt, change it.
     * Without it, a hot swap always snapshots; a session save (den serve keeps each browser's
     * screens after every step) snapshots only an instance the host has called (handle, restore)
     * since that save's last snapshot of it, taking the state to change only inside calls. An
     * instance whose state changes on a thread of its own between calls provides state_version.
     */
    uint64_t (*state_version)(void *self);
} den_instance_api;

/**
 * A route's builder (revision 0). Builds an instance for a matched route. `params` is borrowed JSON: {"route": "...",
 * "pattern": "...", "parameters": {name: string}, "query": {name: string},
 * "queryValues": {name: [string]}} (`query` keeps the last value of a repeated key, `queryValues`
 * all of them). The host zeroes *self, *api and *error before the call. On DEN_OK, *self must be
 * non-NULL and *api a table with non-NULL handle and destroy; the instance is owned by the host
 * until it calls api->destroy(*self). On an error, *error may hold a plain-text message shown to
 * the user (e.g. "unknown currency"; cut at 4 KiB).
 * The host gives up on a builder call that runs past its call limit (30 s by default): it never
 * waits for that call again, and the module's other builds fail until the call returns.
 */
typedef int32_t (*den_builder_fn)(void *builder_ctx, const den_host *host, den_bytes params,
                                  void **self, const den_instance_api **api, den_owned *error);

/* ---------------------------------------------------------------------------------------------
 * Registration, during den_module_entry only.
 * ------------------------------------------------------------------------------------------- */

/**
 * Route flags for add_route_with_flags (revision 1; each flag names its revision). A host refuses bits it does not know with
 * DEN_ERR_UNSUPPORTED, so a module never believes a route is guarded when it is not.
 */
typedef enum den_route_flags {
    DEN_ROUTE_FLAGS_NONE = 0,                 /* revision 1 */
    /**
     * Revision 1. The route needs a logged-in user. The host checks before it calls the builder: with nobody
     * logged in in the UI session it opens the login route instead, as "login?next=<route>"
     * (percent-encoded), and the builder never runs. With no module serving "login" loaded, the
     * user gets a host screen saying so. An instance of a guarded route is shown to, and sent
     * events for, only the user it was built for: once the session's user changes, the host drops
     * it and opens its route again through the guard. The guard is the host's; a module still
     * reads the user from "session.get" {"key": "user"} for its own data (docs/ABI.md, "Route
     * guards").
     */
    DEN_ROUTE_REQUIRES_LOGIN = 1u << 0
} den_route_flags;

/**
 * An exported function as add_export takes it (revision 2). Its real C type follows from its
 * declared signature: see "Exports" below. Cast the function to this type to register it; the
 * host calls it with its real type. `void (*)(void)` is the type GCC and Clang accept a cast to
 * from any function type without -Wcast-function-type (part of -Wextra) warning.
 */
typedef void (*den_export_fn)(void);

/**
 * The registrar (revision 0; host-owned). Call describe first and exactly once, then add_route for each route, all during
 * den_module_entry. Strings are borrowed UTF-8; the host copies them. Any refused call rejects the
 * whole plugin, even if den_module_entry then returns DEN_OK. A module that keeps the pointer (or a
 * copy of the struct) and calls it after den_module_entry returned gets DEN_ERR_INVALID_ARGUMENT
 * (logged with its id; nothing changes): registration is over.
 */
typedef struct den_registrar {
    void *ctx;   /* revision 0 */

    /**
     * Revision 0. Names the module. `id`: 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or
     * digit ("about", "counter-tools"). `version`: MAJOR.MINOR.PATCH of decimal numbers, optionally
     * followed by -PRERELEASE and/or +BUILD made of A-Z, a-z, 0-9, '-' and '.', at most 64
     * characters ("1.2.0", "2.0.0-rc.1"). `summary`: one human-readable line (printed sanitised).
     * Returns DEN_ERR_INVALID_ARGUMENT for a malformed id or version, or a second call.
     */
    int32_t (*describe)(void *ctx, const char *id, const char *version, const char *summary);

    /**
     * Revision 0. Adds a route pattern served by `build` (e.g. "jogs/<int:id>"; placeholders are
     * <int:n>, <double:x>, <uuid:u>, <string:s> or <s>, and a trailing <path:rest>). The host
     * passes `builder_ctx` back to every call of `build`; it must stay valid for the process
     * lifetime. Returns DEN_ERR_INVALID_ARGUMENT for a malformed pattern (including '.' or '..'
     * segments, or one longer than the 2048-byte route limit). Conflicts with other modules are
     * detected by the host after the entry point returns.
     */
    int32_t (*add_route)(void *ctx, const char *pattern, den_builder_fn build, void *builder_ctx);

    /* ---- Revision 1: present only when den_host.abi_revision >= 1. A plugin that must run on a
     * revision-0 host checks abi_revision first (reading this field there is out of bounds). */

    /**
     * Revision 1. add_route with `flags`, a bitwise OR of den_route_flags. add_route(...) is exactly
     * add_route_with_flags(..., DEN_ROUTE_FLAGS_NONE, ...). Returns DEN_ERR_UNSUPPORTED for an
     * unknown flag bit (which rejects the plugin, like any refused registration call).
     */
    int32_t (*add_route_with_flags)(void *ctx, const char *pattern, uint32_t flags, den_builder_fn build,
                                    void *builder_ctx);

    /* ---- Revision 2: present only when den_host.abi_revision >= 2 (check it first, as above). */

    /**
     * Revision 2. Exports `function` as "<module id>.<name>" (the host adds the id given to describe), callable
     * from the command line (`den call`) and from other modules (the "exports.call" service).
     *   name       1-64 characters of a-z, 0-9 and '_', starting with a letter ("convert").
     *   signature  its parameter and result types in the notation of DEN_EXPORT_SIGNATURE below,
     *              e.g. "(f64 amount, string from, string to) -> string".
     *   summary    one line for `den exports` (printed sanitised); may be "".
     *   function   the C function, of the shape den_export_fn describes, cast to den_export_fn.
     * Call describe first. Returns DEN_ERR_INVALID_ARGUMENT for a malformed name or signature, a
     * NULL argument, or a call before describe; DEN_ERR_CONFLICT for a name this module already
     * exported. Either rejects the plugin, like any refused registration call.
     */
    int32_t (*add_export)(void *ctx, const char *name, const char *signature, const char *summary,
                          den_export_fn function);
} den_registrar;

/* ---------------------------------------------------------------------------------------------
 * Exports (revision 2): typed functions a module offers to the command line and other modules.
 * ------------------------------------------------------------------------------------------- */

/**
 * DEN_EXPORT_SIGNATURE — the notation of add_export's `signature`:
 *
 *     signature := "(" [ param { "," param } ] ")" "->" result
 *     param     := type [ name ]            name: a-z, 0-9, '_', starting with a letter, <= 32
 *     type      := "i64" | "f64" | "bool" | "string"
 *     result    := type | "void"
 *
 * Spaces may surround every token; at most 16 parameters; at most 512 bytes. Parameter names are
 * only shown in messages ("expected (f64 amount, string from, string to) -> string").
 *
 * den_export_fn (declared above) — the calling convention. An export declared "(T1 a, ..., Tn z) -> R" is a C
 * function of exactly this type:
 *
 *     int32_t f(const den_host *host, C(T1) a, ..., C(Tn) z, R_out *result, den_owned *error);
 *
 *   type      C(T) of a parameter                      R_out (result) when R is
 *   i64       int64_t                                  int64_t
 *   f64       double (finite: never NaN or infinity)   double (must be finite)
 *   bool      bool (<stdbool.h>; 0 or 1)               bool
 *   string    const char *: UTF-8, NUL-terminated,     den_owned: UTF-8 bytes (no NUL needed),
 *             never NULL, without NUL inside;          at most 4 MiB; ptr != NULL requires a
 *             borrowed for the call only               release, which the host calls once
 *   void      (not a parameter type)                   the `result` parameter is left out:
 *                                                      f(host, args..., error)
 *
 *   host   the module's own den_host (the pointer den_module_entry got), for service calls.
 *   result the host zeroes *result before the call; set it only on DEN_OK.
 *   error  the host zeroes *error ({NULL, 0, NULL}) before the call; on failure put a plain-text
 *          UTF-8 message there, released like any den_owned (cut at 4 KiB when shown).
 *   return DEN_OK, or an error status (den_status) that says what kind of failure it was. On an
 *          error the host ignores *result (but still releases a string put there).
 *
 * Checked by the host, never a crash: a string result without a release function, over 4 MiB or
 * not UTF-8, and a non-finite f64 result, make the call fail with a message naming the export
 * (a string without release cannot be freed: it leaks). Arguments are checked against the
 * signature before the function is called, so it never sees the wrong count or type.
 *
 * Threading: an export may be called from any thread, several times at once (den serve runs many
 * sessions): make it thread-safe. Through "exports.call" it runs on the calling module's thread,
 * inside that module's builder or handle call, so "session.get" {"key": "user"} names that UI
 * session's user; from `den call` it runs on den call's own thread under the host's call limit
 * (30 s by default), with no UI session. An export must not block for long.
 */

#define DEN_EXPORT_MAX_PARAMETERS 16        /* revision 2 */
#define DEN_EXPORT_MAX_SIGNATURE_BYTES 512  /* revision 2 */

/* ---------------------------------------------------------------------------------------------
 * What a plugin exports.
 * ------------------------------------------------------------------------------------------- */

/** Type of the entry point (revision 0). Returning anything but DEN_OK rejects the plugin (and its routes). */
typedef int32_t (*den_module_entry_fn)(const den_host *host, const den_registrar *registrar);

/* The exported symbols' names (revision 0). */
#define DEN_ABI_VERSION_SYMBOL "den_abi_version"
#define DEN_TOOLCHAIN_SYMBOL "den_toolchain"
#define DEN_ENTRY_SYMBOL "den_module_entry"
#define DEN_MANIFEST_SYMBOL "den_manifest"

/**
 * For plugins written in C (revision 0): defines the ABI-version symbol. Put `DEN_DEFINE_ABI_VERSION();`
 * in exactly one source file of the plugin. (Swift plugins get it from DenKit.)
 */
#define DEN_DEFINE_ABI_VERSION() \
    DEN_EXPORT extern const uint32_t den_abi_version; \
    DEN_EXPORT const uint32_t den_abi_version = DEN_ABI_VERSION

/**
 * The manifest (optional; revision 0, its "exports" key revision 2): what the module is, readable from the file without
 * running any of its code. A NUL-terminated UTF-8 JSON document of at most 64 KiB exported as
 * `const char den_manifest[]` (docs/ABI.md "The manifest", docs/schema/v1/manifest.json):
 *
 *     {"v": 1, "id": "counter", "version": "1.0.0", "summary": "Counts",
 *      "routes": [{"pattern": "counter/<int:start>"}, {"pattern": "vault", "requiresLogin": true}],
 *      "settings": [...as in settings.declare...],
 *      "exports": [{"name": "add", "signature": "(i64 value, i64 step) -> i64"}],
 *      "navigation": [{"title": "Counter", "route": "counter/0", "order": 50}],
 *      "permissions": {"http": ["api.example.org"], "exports": ["main.convert"]}}
 *
 * "permissions" (optional, revision 5) is all a module may touch beyond its own storage
 * namespace, its session values, the user's id and name, log and its own settings, which every
 * module gets. Its keys: "http" (hosts http.get may fetch from: "api.example.org",
 * "*.example.org" for any host under it, "*" for any host; lower-case ASCII, an IDN in its
 * xn-- form, an IPv6 address in brackets), "exports" (other modules' exports exports.call may
 * call: "main.convert", "main.*"), "auth" (true: the auth.* services) and "plugins" (true:
 * plugins.list). A key this host does not know rejects the plugin. `den modules install` shows
 * them and asks the user; an upgrade that asks for more than was granted is held until
 * `den modules grant <id>`. Any other such call fails with DEN_ERR_PERMISSION.
 *
 * "navigation" (optional) puts the module in the app's navigation (the browser's app bar, the
 * terminal's menu); it is read from the manifest only, never registered through this header.
 *
 * The host reads it with den_abi_version and den_toolchain from the dynamic symbol table. With a
 * manifest, a module is loaded lazily: den builds its route table from manifests (cached by path,
 * size, mtime and inode) and dlopens the file only when one of its routes is first opened. At
 * load the host checks that den_module_entry registered exactly the manifest's id, version,
 * summary, routes (with their flags) and settings — and, when the manifest has an "exports" key
 * (even []), exactly those export names, with the same parameter and result types where a
 * signature in the notation of add_export is given (other text there is documentation) — and
 * rejects the plugin, naming the difference, when it did not. A malformed manifest rejects the plugin too. Without one, the plugin loads at
 * start as before. Put `DEN_DEFINE_MANIFEST("{...}");` in one source file, or, with clang,
 * `DEN_EXPORT const char den_manifest[] = {
 * #embed "module.json"
 * , 0};` to keep the JSON in its own file.
 */
#define DEN_DEFINE_MANIFEST(json) \
    DEN_EXPORT extern const char den_manifest[]; \
    DEN_EXPORT const char den_manifest[] = json

/* ---------------------------------------------------------------------------------------------
 * Helpers for either side.
 * ------------------------------------------------------------------------------------------- */

/**
 * A release function that calls free() (revision 0): pair it with buffers allocated by malloc. It is
 * `static inline`, so every image that uses it (the host, or a plugin in C or Swift) compiles its
 * own copy and no image has to export it: a plugin may use it freely.
 */
static inline void den_free_release(uint8_t *ptr, size_t len) {
    (void)len;
    free(ptr);
}

#ifdef __cplusplus
}
#endif
#endif /* DEN_MODULE_H */
