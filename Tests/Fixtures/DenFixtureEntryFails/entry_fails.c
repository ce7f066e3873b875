/* An entry point that describes itself, says in the log why it cannot work, then reports an
 * error: what a module missing its configuration does. */
#include <string.h>
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *registrar) {
    registrar->describe(registrar->ctx, "failing", "0.1.0", "Fails during registration");
    static const char line[] = "{\"level\":\"error\",\"message\":\"FAILING_API_KEY is not set; set it and start den again\"}";
    den_bytes request = { (const uint8_t *)line, strlen(line) };
    den_owned response = { 0 };
    host->call(host->ctx, "log", request, &response);
    if (response.release) response.release(response.ptr, response.len);
    return DEN_ERR_SERVICE;
}
