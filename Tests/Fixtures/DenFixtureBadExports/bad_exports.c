/* Module "badexports": declares one broken export, chosen by the environment variable
 * DEN_FIXTURE_BAD_EXPORT, so every refusal of add_export is tested through the real loader:
 *   duplicate  the same name twice          malformed   a signature the notation refuses
 *   void_param a void parameter            bad_name    "Convert!" as a name
 *   null_fn    a NULL function              early       add_export before describe
 *   late       add_export after den_module_entry returned (through a kept registrar copy)
 * Unset, it declares one good export, "ok". */
#include "den_module.h"

#include <stdlib.h>
#include <string.h>

DEN_DEFINE_ABI_VERSION();

static den_registrar kept;

static int32_t ok(const den_host *host, int64_t *result, den_owned *error) {
    (void)host; (void)error;
    *result = 1;
    /* Uses the registrar after registration ended: the host must refuse it. */
    const char *mode = getenv("DEN_FIXTURE_BAD_EXPORT");
    if (mode != NULL && strcmp(mode, "late") == 0)
        *result = kept.add_export(kept.ctx, "later", "() -> i64", "", (den_export_fn)ok);
    return DEN_OK;
}

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    const char *mode = getenv("DEN_FIXTURE_BAD_EXPORT");
    if (mode == NULL) mode = "";
    kept = *registrar;
    den_export_fn function = (den_export_fn)ok;
    if (strcmp(mode, "early") == 0) registrar->add_export(registrar->ctx, "ok", "() -> i64", "", function);
    registrar->describe(registrar->ctx, "badexports", "1.0.0", "Broken export declarations (test fixture)");
    if (strcmp(mode, "duplicate") == 0) {
        registrar->add_export(registrar->ctx, "twice", "() -> i64", "", function);
        registrar->add_export(registrar->ctx, "twice", "() -> i64", "", function);
    } else if (strcmp(mode, "malformed") == 0) {
        registrar->add_export(registrar->ctx, "convert", "(f64 amount, text from) -> string", "", function);
    } else if (strcmp(mode, "void_param") == 0) {
        registrar->add_export(registrar->ctx, "convert", "(void) -> i64", "", function);
    } else if (strcmp(mode, "bad_name") == 0) {
        registrar->add_export(registrar->ctx, "Convert!", "() -> i64", "", function);
    } else if (strcmp(mode, "null_fn") == 0) {
        registrar->add_export(registrar->ctx, "nothing", "() -> i64", "", NULL);
    } else {
        registrar->add_export(registrar->ctx, "ok", "() -> i64", "Returns 1", function);
    }
    /* Returns DEN_OK whatever happened: a refused call must reject the plugin by itself. */
    return DEN_OK;
}
