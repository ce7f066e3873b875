/* Describes itself with an id that breaks the rules: the host must refuse it with the rule. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host;
    return registrar->describe(registrar->ctx, "Bad Id!", "1.0.0", "An invalid module id");
}
