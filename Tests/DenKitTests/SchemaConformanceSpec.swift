import DenKit
import DenTestSupport
import Foundation
import Testing

/// Every document DenKit writes must validate against the published JSON Schemas
/// (docs/schema/v1), checked by `Scripts/validate-json.py` with the PyPI `jsonschema` package, and
/// every valid example in Tests/SchemaCorpus must be readable by DenKit's own types. A missing
/// python3 or jsonschema fails these tests (never skips them): run Scripts/setup.sh.
@Suite("JSON Schemas agree with DenKit's wire format")
struct SchemaConformanceSpec {
    // MARK: Documents DenKit makes

    static let elements: [Element] = [
        .heading("Currency converter"),
        .text("Rates from the ECB"),
        .text("Updated daily", style: .caption),
        .text("Look here", style: .emphasis),
        .field(Field(id: "name", label: "Name")),
        .field(Field(id: "amount", label: "Amount", value: "12,5x", kind: .number, placeholder: "0.00",
                     error: "only digits and one decimal separator")),
        .field(Field(id: "pin", label: "PIN", value: "1234", kind: .password)),
        .field(Field(id: "from", label: "From", value: "EUR", kind: .choice, options: ["EUR", "USD", "JPY"])),
        .button(Button(id: "refresh", label: "Refresh")),
        .button(Button(id: "convert", label: "Convert", role: .primary)),
        .button(Button(id: "delete", label: "Delete", role: .destructive)),
        .link(Link(label: "About Den", route: "about")),
        .list(ItemList(items: [])),
        .list(ItemList(title: "Runs", items: [.init(title: "5 km", detail: "Monday", route: "jogs/1"),
                                              .init(title: "Unlinked"), .init(title: "Detail only", detail: "x")],
                       emptyText: "No runs yet")),
        .table(Table(columns: ["Code", "Rate"], rows: [["USD", "1.08"], ["JPY", "162.5"]])),
        .table(Table(columns: [], rows: [])),
        .banner(Banner(.info, "FYI")),
        .banner(Banner(.success, "Saved")),
        .banner(Banner(.warning, "Rates are 3 days old")),
        .banner(Banner(.error, "The feed is unreadable")),
        .unsupported(type: "chart"),
    ]

    static let effects: [Effect] = [
        .navigate("convert/12.5/USD/EUR?from=home"), .back, .replace("main"),
        .openURL("https://www.ecb.europa.eu/stats/"), .openURL("mailto:support@example.com"),
    ]

    static func effectName(_ effect: Effect) -> String {
        switch effect {
        case .navigate: "navigate"
        case .back: "back"
        case .replace: "replace"
        case .openURL: "open_url"
        }
    }

    /// A document made with DenKit's types, and the schema it must (or must not) satisfy.
    struct Document {
        var schema: String
        var label: String
        var json: Data
        var expectValid = true
    }

    static func document<T: Encodable>(_ schema: String, _ label: String, _ value: T, valid: Bool = true) throws -> Document {
        Document(schema: schema, label: label, json: try WireFormat.encode(value), expectValid: valid)
    }

    /// Builder parameters as the host writes them. Decoded from JSON (rather than built with an
    /// initializer) so the document survives BuildRequest growing keys such as `queryValues`.
    static func buildRequest(_ json: String) throws -> BuildRequest {
        try WireFormat.decode(BuildRequest.self, from: Data(json.utf8))
    }

    static func everyDocument() throws -> [Document] {
        var documents: [Document] = []
        func add<T: Encodable>(_ schema: String, _ label: String, _ value: T) throws {
            documents.append(try document(schema, label, value))
        }

        try add("event", "appear event", ModuleEvent.appear)
        try add("event", "action event", ModuleEvent.action(id: "convert", fields: ["amount": "12.5", "from": "USD"]))
        try add("event", "action event without fields", ModuleEvent.action(id: "refresh", fields: [:]))

        for (index, element) in elements.enumerated() {
            try add("element", "element[\(index)] \(element.typeName)", element)
            if case .unsupported = element { continue }
            try add("element/\(element.typeName)", "element[\(index)] as \(element.typeName)", element)
        }
        for effect in effects {
            try add("effect", "effect \(effectName(effect))", effect)
            try add("effect/\(effectName(effect))", "effect as \(effectName(effect))", effect)
        }

        let screen = Screen(title: "Everything", elements: elements)
        try add("screen", "screen with every element", screen)
        try add("screen", "empty screen", Screen(title: "Nothing here", elements: []))
        try add("reply", "reply with every effect", ModuleReply(screen: screen, effects: effects))
        try add("reply", "reply without effects", ModuleReply(screen: Screen(title: "About", elements: [.heading("Den")])))

        try add("build-params", "build params", try buildRequest(
            #"{"route":"convert/12.5/USD/EUR?from=home","pattern":"convert/<double:amount>/<string:from>/<string:to>","parameters":{"amount":"12.5","from":"USD","to":"EUR"},"query":{"from":"home"}}"#))
        try add("build-params", "build params with queryValues", try buildRequest(
            #"{"route":"jogs?tag=a&tag=b","pattern":"jogs","parameters":{},"query":{"tag":"b"},"queryValues":{"tag":["a","b"]}}"#))

        for level in LogLevel.allCases {
            try add("service/log.request", "log \(level.rawValue)", LogRequest(level: level, message: "rates refreshed"))
        }
        try add("service/log.response", "log answer", Empty())
        try add("service/plugins.list.request", "plugins.list request", Empty())
        try add("service/plugins.list.request", "plugins.list request for some fields",
                PluginListRequest(fields: [.id, .version, .summary, .generation, .loadedAt]))
        try add("service/plugins.list.request", "plugins.list request for no field", PluginListRequest(fields: []))
        try add("service/plugins.list.response", "plugins.list answer", PluginListResponse(plugins: [
            PluginSummary(id: "about", version: "1.0.0", summary: "What Den is", file: "libAboutModule.so",
                          routes: ["about"], status: .active),
            PluginSummary(id: nil, version: nil, summary: nil, file: "libBroken.so", routes: [], status: .failed,
                          error: "built for ABI version 2"),
        ]))
        try add("service/plugins.list.response", "plugins.list answer with some fields", PluginListResponse(plugins: [
            PluginSummary(id: "jogs", version: "1.0.0", summary: "A jogging log", file: "libJogsModule.so",
                          routes: ["jogs"], requiresLogin: ["jogs"], status: .active),
            PluginSummary(id: nil, version: nil, summary: nil, file: "libBroken.so", routes: [], status: .failed, error: "no entry point"),
        ], fields: PluginSummary.Fields([.id, .generation])))
        try add("service/plugins.list.response", "plugins.list answer with guarded routes", PluginListResponse(plugins: [
            PluginSummary(id: "jogs", version: "1.0.0", summary: "A jogging log", file: "libJogsModule.so",
                          routes: ["jogs", "jogs/<int:id>", "jogs/about"], requiresLogin: ["jogs", "jogs/<int:id>"], status: .active),
        ]))
        try add("service/session.get.request", "session.get request", SessionGetRequest(key: "user"))
        try add("service/session.get.response", "session.get answer, nobody", SessionGetAnswer(value: nil))
        try add("service/session.set.request", "session.set request", SessionSetRequest(key: "draft", value: "5 km"))
        try add("service/session.delete.request", "session.delete request", SessionDeleteRequest(key: "draft"))
        try add("service/session.delete.response", "session.delete answer", SessionDeleteAnswer(deleted: false))
        try add("service/auth.register.request", "auth.register request", AuthCredentials(username: "Alice", password: "correct horse"))
        try add("service/auth.login.request", "auth.login request", AuthCredentials(username: "alice", password: "correct horse"))
        try add("service/auth.logout.request", "auth.logout request", AuthLogoutRequest())
        try add("service/auth.change_password.request", "auth.change_password request",
                AuthChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple"))
        try add("service/auth.reset_password.request", "auth.reset_password request",
                AuthResetPasswordRequest(token: "0123456789abcdef0123456789abcdef", newPassword: "battery staple"))
        try add("service/auth.login.response", "auth.login answer, locked",
                AuthAnswer(outcome: .locked, message: "Try again in 15 minutes.", retryAfter: "2026-11-22T21:40:00Z"))
        try add("service/auth.register.response", "auth.register answer", AuthAnswer(outcome: .ok, username: "alice"))
        try add("service/storage.get.request", "storage.get request", StorageGetRequest(key: "settings"))
        try add("service/storage.get.response", "storage.get answer", StorageGetAnswer(value: "{\"currency\":\"EUR\"}"))
        try add("service/storage.get.response", "storage.get answer, absent", StorageGetAnswer(value: nil))
        try add("service/storage.set.request", "storage.set request", StorageSetRequest(key: "jogs/41", value: "{\"km\":5}"))
        try add("service/storage.set.response", "storage.set answer", Empty())
        try add("service/storage.delete.request", "storage.delete request", StorageDeleteRequest(key: "jogs/41"))
        try add("service/storage.delete.response", "storage.delete answer", StorageDeleteAnswer(deleted: true))
        try add("service/storage.list.request", "storage.list request", StorageListRequest(prefix: "jogs/"))
        try add("service/storage.list.request", "storage.list request, every key", StorageListRequest())
        try add("service/storage.list.response", "storage.list answer", StorageListAnswer(entries: [
            StorageEntry(key: "jogs/1", value: "5 km"), StorageEntry(key: "jogs/2", value: "10 km"),
        ]))
        var batch = StorageBatch()
        batch.set("42", forKey: "jogs/next-id")
        batch.delete("draft")
        try add("service/storage.transaction.request", "storage.transaction request",
                StorageTransactionRequest(operations: batch.operations))
        try add("service/storage.transaction.response", "storage.transaction answer", Empty())
        try add("service/storage.increment.request", "storage.increment request", StorageIncrementRequest(key: "user/alice/jogs-last-id"))
        try add("service/storage.increment.response", "storage.increment answer", StorageIncrementAnswer(value: 42))
        try add("service/http.get.request", "http.get request, url only",
                HTTPGetRequest(url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"))
        try add("service/http.get.request", "http.get request, every option",
                HTTPGetRequest(url: "http://localhost:8080/rates", timeoutMilliseconds: HTTPLimits.maxTimeoutMilliseconds,
                               maxBytes: HTTPLimits.maxMaxBytes, headers: ["Accept": "application/xml"]))
        try add("service/http.get.response", "http.get answer",
                HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello, world".utf8)))
        try add("service/http.get.response", "http.get answer, empty body", HTTPResponse(status: 404))
        try add("service/exports.call.request", "exports.call request", ExportCallRequest(name: "main.convert", arguments: [.f64(12.5), .string("USD"), .string("EUR")]))
        try add("service/exports.call.request", "exports.call request, no arguments", ExportCallRequest(name: "main.rates_date", arguments: []))
        for value in [ExportValue.i64(-3), .f64(0.5), .bool(true), .string("89.08"), .void] {
            try add("service/exports.call.response", "exports.call answer, \(value.type)", ExportCallAnswer(result: value))
        }
        try add("service/exports.list.request", "exports.list request", Empty())
        try add("service/exports.list.response", "exports.list answer", ExportListAnswer(exports: [
            ExportSummary(name: "main.convert", module: "main", signature: "(f64 amount, string from, string to) -> string", summary: "Converts"),
        ]))
        return documents
    }

    /// Documents DenKit's types will happily write but the host refuses: the schema must refuse
    /// them too, which also proves the validator really looks at what it is sent.
    static func refusedDocuments() throws -> [Document] {
        var future = Screen(title: "From the future", elements: [])
        future.v = 2
        var replyV999 = ModuleReply(screen: Screen(title: "T", elements: []))
        replyV999.v = 999
        return [
            try document("screen", "screen v 2", future, valid: false),
            try document("reply", "reply whose screen is v 2", ModuleReply(screen: future), valid: false),
            try document("reply", "reply v 999", replyV999, valid: false),
            try document("service/exports.call.response", "exports.call answer, i64 without result",
                         ExportCallAnswer(result: .i64(1)).withoutResult, valid: false),
            try document("service/exports.call.request", "exports.call request, name without module",
                         ExportCallRequest(name: "convert", arguments: []), valid: false),
            try document("effect", "open_url javascript:", Effect.openURL("javascript:alert(1)"), valid: false),
            try document("reply", "reply opening javascript:",
                         ModuleReply(screen: Screen(title: "T", elements: []), effects: [.openURL("javascript:alert(1)")]),
                         valid: false),
            try document("service/storage.set.request", "storage.set with an empty key",
                         StorageSetRequest(key: "", value: "x"), valid: false),
            try document("service/storage.increment.request", "storage.increment with an empty key",
                         StorageIncrementRequest(key: ""), valid: false),
            try document("service/http.get.request", "http.get with timeout_ms 0",
                         HTTPGetRequest(url: "https://example.com", timeoutMilliseconds: 0), valid: false),
        ]
    }

    // MARK: Tests

    @Test("every document DenKit writes validates against its schema")
    func denKitDocumentsValidate() throws {
        let documents = try Self.everyDocument()
        let run = try SchemaValidator.validate(documents)

        #expect(run.status == 0, "validate-json.py refused DenKit documents:\n\(run.failures)")
        #expect(run.summary == "\(documents.count) passed, 0 failed", "\(run.output)")
    }

    @Test("documents DenKit can write but the host refuses are refused by the schemas")
    func refusedDocumentsAreRefused() throws {
        let documents = try Self.refusedDocuments()
        let run = try SchemaValidator.validate(documents)

        #expect(run.status == 0, "a document the host refuses passed its schema:\n\(run.failures)")
        #expect(run.summary == "\(documents.count) passed, 0 failed", "\(run.output)")
    }

    @Test("the pipe is live: a DenKit screen with v 2 sent as valid makes the validator fail")
    func invalidDocumentFailsTheRun() throws {
        var future = Screen(title: "From the future", elements: [.heading("Hi")])
        future.v = 2
        let documents = [try Self.document("screen", "good screen", Screen(title: "Now", elements: [])),
                         try Self.document("screen", "screen v 2", future)]
        let run = try SchemaValidator.validate(documents)

        #expect(run.status == 1, "\(run.output)")
        #expect(run.summary == "1 passed, 1 failed", "\(run.output)")
        #expect(run.failures.contains("screen v 2") && run.failures.contains("v: 1 was expected"), "\(run.output)")
    }

    @Test("every example in Tests/SchemaCorpus is validated (valid ones pass, invalid ones are refused)")
    func corpus() throws {
        let run = try SchemaValidator.run(["--corpus", SchemaRepository.corpus.path])

        #expect(run.status == 0, "Tests/SchemaCorpus does not match the schemas:\n\(run.failures)")
        let counts = run.summary.split(separator: " ")
        #expect(counts.count == 4 && (Int(counts[0]) ?? 0) > 100 && counts[2] == "0", "\(run.output)")
    }

    /// The other direction: what the schemas call valid, DenKit must be able to read.
    @Test("every valid example in Tests/SchemaCorpus decodes with DenKit's types")
    func corpusDecodesWithDenKit() throws {
        let valid = SchemaRepository.corpus.appendingPathComponent("valid").resolvingSymlinksInPath()
        let files = try #require(FileManager.default.enumerator(at: valid, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
        #expect(files.count > 50, "Tests/SchemaCorpus/valid has only \(files.count) examples")
        for file in files {
            let folder = file.resolvingSymlinksInPath().deletingLastPathComponent().pathComponents
            let schema = folder.dropFirst(valid.pathComponents.count).joined(separator: "/")
            guard let decode = Self.decoders[schema] else {
                Issue.record("Tests/SchemaCorpus/valid/\(schema) has no DenKit type in SchemaConformanceSpec.decoders")
                continue
            }
            do {
                try decode(try Data(contentsOf: file))
            } catch {
                Issue.record("\(schema)/\(file.lastPathComponent) is valid by the schema but DenKit cannot read it: \(WireFormat.describe(error))")
            }
        }
    }

    static let decoders: [String: @Sendable (Data) throws -> Void] = {
        func reading<T: Decodable & Sendable>(_ type: T.Type) -> @Sendable (Data) throws -> Void {
            { _ = try WireFormat.decode(T.self, from: $0) }
        }
        /// An effect alone may be of an unknown type, which only a reply tolerates.
        let effectInReply: @Sendable (Data) throws -> Void = { effect in
            var reply = Data(#"{"v":1,"screen":{"v":1,"title":"T","elements":[]},"effects":["#.utf8)
            reply.append(effect)
            reply.append(Data("]}".utf8))
            _ = try WireFormat.decode(ModuleReply.self, from: reply)
        }
        var table: [String: @Sendable (Data) throws -> Void] = [
            "event": { data in // a change event has its own type (FieldChange); the others are ModuleEvents
                if (try? WireFormat.decode(FieldChange.self, from: data)) == nil { _ = try WireFormat.decode(ModuleEvent.self, from: data) }
            }, "reply": reading(ModuleReply.self), "screen": reading(Screen.self),
            "element": reading(Element.self), "effect": effectInReply, "build-params": reading(BuildRequest.self),
            "service/log.request": reading(LogRequest.self), "service/log.response": reading(Empty.self),
            "service/plugins.list.request": reading(PluginListRequest.self),
            "service/plugins.list.response": reading(PluginListResponse.self),
            "service/storage.get.request": reading(StorageGetRequest.self),
            "service/storage.get.response": reading(StorageGetAnswer.self),
            "service/storage.set.request": reading(StorageSetRequest.self),
            "service/storage.set.response": reading(Empty.self),
            "service/storage.delete.request": reading(StorageDeleteRequest.self),
            "service/storage.delete.response": reading(StorageDeleteAnswer.self),
            "service/storage.list.request": reading(StorageListRequest.self),
            "service/storage.list.response": reading(StorageListAnswer.self),
            "service/storage.transaction.request": reading(StorageTransactionRequest.self),
            "service/storage.transaction.response": reading(Empty.self),
            "service/storage.increment.request": reading(StorageIncrementRequest.self),
            "service/storage.increment.response": reading(StorageIncrementAnswer.self),
            "service/http.get.request": reading(HTTPGetRequest.self),
            "service/http.get.response": reading(HTTPResponse.self),
            "service/settings.declare.request": reading(SettingsDeclaration.self),
            "service/settings.declare.response": reading(Empty.self),
            "service/session.get.request": reading(SessionGetRequest.self),
            "service/session.get.response": reading(SessionGetAnswer.self),
            "service/session.set.request": reading(SessionSetRequest.self),
            "service/session.set.response": reading(Empty.self),
            "service/session.delete.request": reading(SessionDeleteRequest.self),
            "service/session.delete.response": reading(SessionDeleteAnswer.self),
            "service/auth.register.request": reading(AuthCredentials.self),
            "service/auth.login.request": reading(AuthCredentials.self),
            "service/auth.logout.request": reading(AuthLogoutRequest.self),
            "service/auth.change_password.request": reading(AuthChangePasswordRequest.self),
            "service/auth.reset_password.request": reading(AuthResetPasswordRequest.self),
            "service/auth.register.response": reading(AuthAnswer.self),
            "service/auth.login.response": reading(AuthAnswer.self),
            "service/auth.logout.response": reading(AuthAnswer.self),
            "service/auth.change_password.response": reading(AuthAnswer.self),
            "service/auth.reset_password.response": reading(AuthAnswer.self),
            "manifest": reading(ModuleManifest.self),
        ]
        for type in ["heading", "text", "field", "button", "link", "list", "table", "banner"] {
            table["element/\(type)"] = reading(Element.self)
        }
        for type in ["navigate", "back", "replace", "open_url"] {
            table["effect/\(type)"] = reading(Effect.self)
        }
        return table
    }()
}

// MARK: - Running Scripts/validate-json.py

private enum SchemaRepository {
    /// The package root: this file is Tests/DenKitTests/SchemaConformanceSpec.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("Scripts/validate-json.py")
    static let corpus = root.appendingPathComponent("Tests/SchemaCorpus")
}

private struct SchemaValidatorUnavailable: Error, CustomStringConvertible {
    var description: String
}

private enum SchemaValidator {
    struct Run {
        var status: Int32
        var output: String
        /// The last line: "N passed, M failed".
        var summary: String { output.split(separator: "\n").last.map(String.init) ?? "" }
        var failures: String { output.split(separator: "\n").filter { !$0.hasPrefix("pass") }.joined(separator: "\n") }
    }

    /// Runs `python3 Scripts/validate-json.py <arguments>` in the repository, `input` on stdin.
    static func run(_ arguments: [String], input: Data = Data()) throws -> Run {
        try requirePython()
        return try execute(["python3", SchemaRepository.script.path] + arguments, input: input)
    }

    static func validate(_ documents: [SchemaConformanceSpec.Document]) throws -> Run {
        var lines = Data()
        for document in documents {
            lines.append(Data(#"{"schema":"\#(escaped(document.schema))","label":"\#(escaped(document.label))","expect":"\#(document.expectValid ? "valid" : "invalid")","document":"#.utf8))
            lines.append(document.json) // WireFormat writes no newlines: one document per line
            lines.append(Data("}\n".utf8))
        }
        return try run(["--stdin"], input: lines)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private static let setupAdvice = "run Scripts/setup.sh (it installs python3 and the jsonschema package) and test again"

    /// Fails, never skips, when python3 or jsonschema is missing.
    private static func requirePython() throws {
        let probe: Run
        do {
            probe = try execute(["python3", "-c", "import jsonschema, referencing; from jsonschema import Draft202012Validator"])
        } catch {
            throw SchemaValidatorUnavailable(description: "cannot run python3 (\(error)); \(setupAdvice)")
        }
        guard probe.status == 0 else {
            let what = probe.status == 127 ? "python3 is not installed" : "the Python package jsonschema (4.18+) is not installed"
            throw SchemaValidatorUnavailable(description: "\(what): \(probe.output.split(separator: "\n").last.map(String.init) ?? ""); \(setupAdvice)")
        }
    }

    private static func execute(_ arguments: [String], input: Data = Data()) throws -> Run {
        // posix_spawn (ProcessRunner), not Foundation's Process, which now and then crashes the
        // test process on Linux; `env -C` runs it in the repository.
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["-C", SchemaRepository.root.path] + arguments,
                                           input: String(decoding: input, as: UTF8.self), timeout: 300)
        return Run(status: result.status, output: result.stdout + result.stderr)
    }
}

extension ExportCallAnswer {
    /// The same answer with its value dropped: invalid for every type but void.
    var withoutResult: ExportCallAnswer {
        var copy = self
        copy.result = nil
        return copy
    }
}
