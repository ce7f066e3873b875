/* Describes itself with an id that breaks the rules (and carries an ESC sequence that would clear
 * the screen): the host must refuse it with the rule and echo the id sanitised. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    return registrar->describe(registrar->ctx, "Bad Id!\x1b[2J", "1.0.0", "An invalid module id");
}
