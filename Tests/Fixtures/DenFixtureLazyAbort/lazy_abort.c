/* A module with a manifest whose library kills the process the moment it is loaded: its ELF
 * constructor calls abort(). den installs it from its manifest and must never dlopen it unless
 * its route "boom" is opened, so `den render about` beside it works, and `den render boom` or
 * `den --eager` dies. That proves lazy loading runs no code of a module whose routes are not opened. */
#include "den_module.h"
#include <stdlib.h>

DEN_DEFINE_ABI_VERSION();
DEN_DEFINE_MANIFEST("{\"v\": 1, \"id\": \"lazy-abort\", \"version\": \"1.0.0\", "
                    "\"summary\": \"Aborts when loaded\", \"routes\": [{\"pattern\": \"boom\"}]}");

__attribute__((constructor)) static void abort_when_loaded(void) { abort(); }

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host; (void)registrar;
    abort();
}
