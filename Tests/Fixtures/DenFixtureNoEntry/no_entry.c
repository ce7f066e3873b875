/* Declares the ABI version but forgot to export den_module_entry. */
#include "den_module.h"

DEN_DEFINE_ABI_VERSION();

DEN_EXPORT int den_fixture_something_else(void) { return 1; }
