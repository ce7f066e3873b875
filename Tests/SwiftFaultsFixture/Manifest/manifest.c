/* The swift-faults module's manifest (den_manifest): den reads its id from the file without
 * loading it, which `--isolate swift-faults` needs. */
#include "den_module.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
DEN_EXPORT extern const char den_manifest[];
DEN_EXPORT const char den_manifest[] = {
#embed "module.json"
    , 0};
