import CDenABI
import DenKit
import DenSupport

/// `den --version`: what a bug report needs. Plugins must match the ABI version and (for Swift
/// plugins) the toolchain, so both are printed with den's own version.
enum VersionText {
    /// den's version (the About module states the app's version separately).
    static let version = DenRelease.version

    static var text: String {
        """
        den \(version)
        ABI version \(DenModule.abiVersion), revision \(DEN_ABI_REVISION)
        Swift toolchain: Swift \(swiftVersion) (\(DenModule.toolchain)); Swift plugins must be built with the same one
        """
    }

    /// The compiler that built den; Swift has no constant for it, only `#if compiler`.
    static var swiftVersion: String {
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3.2)
        return "6.3.2 or later"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "older than 6.3"
        #endif
    }
}
