import CDenABI
import DenKit
import DenSupport
import FoundationEssentials

/// Reads a module's reply document, refusing — with a message that says what and why — one that
/// is too large, nested too deeply, not JSON, of a document or screen version this host does not
/// speak, or of the wrong shape.
enum ReplyReader {
    /// - Parameter length: the reply's full length, when `bytes` holds only its start (a reply
    ///   over the limit is not copied in full).
    static func read(_ bytes: Data, length: Int? = nil, moduleID: String) throws(ModuleCallError) -> ModuleReply {
        let length = length ?? bytes.count
        func fail(_ status: den_status, _ message: String) -> ModuleCallError {
            ModuleCallError(moduleID: moduleID, status: Int32(status.rawValue), message: message, isHostFinding: true)
        }
        guard length <= WireLimits.maxReplyBytes else {
            throw fail(DEN_ERR_INVALID_ARGUMENT, "sent a reply of \(WireLimits.describe(bytes: length)); replies are limited to \(WireLimits.describe(bytes: WireLimits.maxReplyBytes)) (show less at once, e.g. page a long list)")
        }
        let (parsed, findings) = JSONPreflight.read(bytes)
        if findings.tooDeep { throw fail(DEN_ERR_INVALID_ARGUMENT, JSONPreflight.tooDeep("sent a reply")) }
        let version: Int
        do {
            if case .object(let object) = parsed, case .integer(let v) = object["v"] {
                version = v
            } else {
                version = try WireFormat.decode(DocumentVersion.self, from: bytes).v
            }
        } catch {
            throw fail(DEN_ERR_INTERNAL, "sent a reply this host cannot read (\(unreadable(bytes) ?? WireFormat.describe(error)))")
        }
        // Only now is the document known to be JSON, so a "null" seen is the literal.
        if findings.hasNull { throw fail(DEN_ERR_INVALID_ARGUMENT, JSONPreflight.holdsNull("sent a reply that contains")) }
        guard version == WireFormat.version else {
            throw fail(DEN_ERR_VERSION, "sent reply document version \(version); this host reads version \(WireFormat.version)")
        }
        let reply: ModuleReply
        do {
            reply = try WireFormat.decode(ModuleReply.self, from: bytes, parsed: parsed)
        } catch {
            throw fail(DEN_ERR_INTERNAL, "sent a reply this host cannot read (\(unreadable(bytes) ?? WireFormat.describe(error)))")
        }
        guard (1...Screen.currentVersion).contains(reply.screen.v) else {
            throw fail(DEN_ERR_VERSION, "sent screen version \(reply.screen.v); this host draws up to version \(Screen.currentVersion) (versions start at 1)")
        }
        return reply
    }

    /// What is wrong with bytes that are no JSON document at all, in the module author's terms
    /// (JSONDecoder says only "not valid JSON"); nil when they are text, for the decoder to explain.
    /// Run only for a reply already refused, so a good reply pays nothing for it.
    static func unreadable(_ bytes: Data) -> String? {
        if bytes.isEmpty { return "it is empty: on DEN_OK, reply must hold a JSON document" }
        if bytes.last == 0 {
            return "it ends in a NUL byte: len counts the document's bytes only, with no terminator"
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return "it is not valid UTF-8 (at byte \(offset)): documents are UTF-8 JSON"
            case .emptyInput: return nil
            }
        }
    }
}

/// Only the document's `"v"`, read first so a newer document is refused as such rather than for
/// whatever shape change came with it.
private struct DocumentVersion: Decodable {
    let v: Int
}
