import DenHost
import DenLibraryClients
import DenSupport
import FoundationEssentials

/// Which trust policy a den runs under: `--trust-policy`, else `DEN_TRUST_POLICY`, else the
/// word in `<config>/trust-policy` (`den keys policy`), else the default — `require-signature`
/// for an installed den, whose bundled modules `Scripts/install.sh` signed, and `allow` for a den
/// run from a build folder, whose modules were just built from source (`den dev` always defaults
/// to `allow`: it rebuilds the module it runs). docs/SIGNING.md, "Policies".
package enum TrustPolicySetting {
    package static let fileName = "trust-policy"

    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    package static func file(configDirectory: URL) -> URL { configDirectory.appendingPathComponent(fileName) }

    package static func parse(_ text: String) -> TrustPolicy? { TrustPolicy(rawValue: text.trimmingWhitespace().lowercased()) }

    package static var names: String { TrustPolicy.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The policy and where it came from, or what is wrong with the value that names it.
    package static func resolve(option: String?, environment: [String: String], fallback: TrustPolicy? = nil,
                                installed: @autoclosure () -> Bool = InstallLayout.current?.isInstalled ?? false) -> Result<(TrustPolicy, String), TrustPolicySetting.Problem> {
        func named(_ text: String, _ source: String) -> Result<(TrustPolicy, String), TrustPolicySetting.Problem> {
            guard let policy = parse(text) else {
                return .failure(Problem(description: "unknown trust policy '\(text.trimmingWhitespace())' (\(source)); use \(names)"))
            }
            return .success((policy, source))
        }
        if let option { return named(option, "--trust-policy") }
        if let value = environment["DEN_TRUST_POLICY"], !value.trimmingWhitespace().isEmpty { return named(value, "DEN_TRUST_POLICY") }
        let file = file(configDirectory: TrustStore.configDirectory(environment: environment))
        if let bytes = FileBytes.read(atPath: file.filePath, limit: 4096) {
            return named(String(decoding: bytes, as: UTF8.self), file.path)
        }
        if let fallback { return .success((fallback, "the default of this command")) }
        return installed() ? .success((.requireSignature, "the default of an installed den"))
            : .success((.allow, "the default of a den run from a build folder"))
    }

    /// The trust files a den reads: the user's, then the install's.
    package static func trustFiles(environment: [String: String]) -> [URL] {
        [TrustStore.userFile(configDirectory: TrustStore.configDirectory(environment: environment))] + [TrustStore.installFile()].compactMap { $0 }
    }
}
