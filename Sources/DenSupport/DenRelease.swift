/// den's own version: `den --version` prints it, and a module's `"den": ">=1.1 <2"` requirement
/// is held to it (docs/CATALOG.md, "Requirements").
package enum DenRelease {
    package static let version = "1.0.0"
}
