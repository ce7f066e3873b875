/* Calls a function no library defines. Loaded lazily this would kill the host at the first call
 * (exit 127); the host loads with RTLD_NOW, so dlopen itself refuses it. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

extern int32_t den_fixture_function_nobody_defines(void);

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    (void)host; (void)registrar;
    return den_fixture_function_nobody_defines();
}
