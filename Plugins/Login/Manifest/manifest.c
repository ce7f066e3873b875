/* The Login module's manifest, exported as den_manifest so that den reads the module's id, routes
 * and settings from the file without loading it (den_module.h, docs/ABI.md "The manifest").
 * clang's #embed puts module.json into the library at build time: one JSON file, no generator. */
#include "den_module.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
DEN_EXPORT extern const char den_manifest[];
DEN_EXPORT const char den_manifest[] = {
#embed "module.json"
    , 0};
