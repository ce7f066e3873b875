import CDenABI
@testable import DenHost
import DenKit
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// The host refuses what docs/schema refuses, and accepts what it accepts: every document of
/// Tests/SchemaCorpus that a module sends (replies and their parts, service requests) goes
/// through the host's real readers. Scripts/validate-json.py checks the same corpus against the
/// schemas, so the two cannot drift apart silently.
@Suite("The host agrees with the published JSON Schemas")
struct SchemaCorpusHostSpec {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SchemaCorpus")

    /// Every `.json` file under `corpus/<validity>/<schema>` (sub-schemas like `element/heading` included).
    static func files(_ validity: String, _ schema: String) -> [URL] {
        let folder = corpus.appendingPathComponent(validity).appendingPathComponent(schema)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    static func text(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// A reply document around a module-sent part, the way the part reaches the host.
    static func reply(around file: URL, as schema: String) -> Data {
        let part = text(file)
        let screen = #"{"v":1,"title":"T","elements":[]}"#
        let document: String = switch schema {
        case "screen": #"{"v":1,"screen":\#(part)}"#
        case "element": #"{"v":1,"screen":{"v":1,"title":"T","elements":[\#(part)]}}"#
        case "effect": #"{"v":1,"screen":\#(screen),"effects":[\#(part)]}"#
        default: part
        }
        return Data(document.utf8)
    }

    /// nil when the host takes the reply as it is, else why it refuses it (or one of its effects).
    static func refusal(_ bytes: Data) -> String? {
        do {
            let reply = try ReplyReader.read(bytes, moduleID: "corpus")
            for case .openURL(let url) in reply.effects {
                if let refusal = ExternalURLPolicy.refusal(for: url) { return refusal }
            }
            return nil
        } catch {
            return error.description
        }
    }

    static let replyParts = ["reply", "screen", "element", "effect"]
    static let invalidReplyCases = replyParts.flatMap { schema in files("invalid", schema).map { ($0, schema) } }
    static let validReplyCases = replyParts.flatMap { schema in files("valid", schema).map { ($0, schema) } }

    @Test("the corpus is there", arguments: ["valid", "invalid"])
    func corpusPresent(validity: String) {
        #expect(Self.replyParts.allSatisfy { !Self.files(validity, $0).isEmpty }, "\(Self.corpus.path) has no \(validity) documents")
    }

    @Test("every reply part the schema refuses, the host refuses", arguments: invalidReplyCases)
    func invalidReplyPart(file: URL, schema: String) {
        #expect(Self.refusal(Self.reply(around: file, as: schema)) != nil, "the host took \(schema) \(file.lastPathComponent)")
    }

    @Test("every reply part the schema accepts, the host accepts", arguments: validReplyCases)
    func validReplyPart(file: URL, schema: String) {
        let refusal = Self.refusal(Self.reply(around: file, as: schema))
        #expect(refusal == nil, "the host refused \(schema) \(file.lastPathComponent): \(refusal ?? "")")
    }

    static func serviceCases(_ validity: String) -> [(URL, String)] {
        let folder = corpus.appendingPathComponent(validity).appendingPathComponent("service")
        let schemas = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return schemas.filter { $0.hasSuffix(".request") }.sorted().flatMap { schema in
            files(validity, "service/\(schema)").map { ($0, String(schema.dropLast(".request".count))) }
        }
    }

    func call(_ operation: String, _ file: URL) throws -> (status: den_status, body: String) {
        // Answered by the loading plugin's endpoint during den_module_entry, not by the hub.
        if operation == SettingsDeclaration.operation {
            let (status, body) = SettingsRecorder().declare(Data(Self.text(file).utf8))
            return (status, String(decoding: body, as: UTF8.self))
        }
        let temp = try TemporaryDirectory("den-schema")
        var configuration = HostConfiguration(bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth.hashParameters = .testing // the real scrypt cost takes a second per hash in debug
        let runtime = DenRuntime(configuration: configuration)
        // As from inside a builder or handle call: session.* and auth.login need a UI session.
        let (status, body) = runtime.services.call(operation, request: Data(Self.text(file).utf8),
                                                   caller: ServiceCaller(moduleID: "corpus", session: runtime.sessions.makeSessionID()))
        return (status, String(decoding: body, as: UTF8.self))
    }

    @Test("every service request the schema refuses, the host refuses before doing anything", arguments: serviceCases("invalid"))
    func invalidRequest(file: URL, operation: String) throws {
        let (status, body) = try call(operation, file)
        #expect(status == DEN_ERR_INVALID_ARGUMENT, "\(operation) \(file.lastPathComponent) answered \(status.rawValue): \(body)")
    }

    @Test("every service request the schema accepts, the host accepts",
          arguments: serviceCases("valid").filter { $0.1 != "http.get" }) // a valid http.get would reach the network
    func validRequest(file: URL, operation: String) throws {
        let (status, body) = try call(operation, file)
        #expect(status == DEN_OK, "\(operation) \(file.lastPathComponent) answered \(status.rawValue): \(body)")
    }
}
