/* Greeter's manifest, exported as den_manifest: den reads the module's id and routes from the
 * library without loading it. clang's #embed puts module.json in at build time; DenManifestPlugin
 * generates the Swift side from the same file. */
#pragma clang diagnostic ignored "-Wc23-extensions"
__attribute__((visibility("default"))) extern const char den_manifest[];
__attribute__((visibility("default"))) const char den_manifest[] = {
#embed "module.json"
    , 0};
