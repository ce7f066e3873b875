/// A module instance's answer to an event: what to show now, and what the host should do.
public struct ModuleReply: Codable, Sendable, Equatable {
    public var v: Int
    public var screen: Screen
    public var effects: [Effect]

    public init(screen: Screen, effects: [Effect] = []) {
        self.v = WireFormat.version
        self.screen = screen
        self.effects = effects
    }

    private enum CodingKeys: String, CodingKey { case v, screen, effects }

    /// `"v"` and `screen` are required; `effects` may be left out; an effect type this version
    /// does not know is ignored, so a newer module still shows its screen.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        screen = try container.decode(Screen.self, forKey: .screen)
        effects = (try container.decodeIfPresent([KnownEffect].self, forKey: .effects) ?? []).compactMap(\.effect)
    }
}

/// Decodes an effect, or nothing for an effect type this version does not know; a malformed
/// effect of a known type is still an error.
private struct KnownEffect: Decodable {
    private enum CodingKeys: String, CodingKey { case type }
    static let knownTypes: Set<String> = ["navigate", "back", "replace", "open_url"]

    let effect: Effect?

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
        effect = KnownEffect.knownTypes.contains(type) ? try Effect(from: decoder) : nil
    }
}

/// Navigation requested by a module's Router. Routes are strings: a module never imports another.
public enum Effect: Sendable, Equatable {
    /// Push the screen for `route` on the session's stack.
    case navigate(String)
    /// Pop this screen.
    case back
    /// Replace this screen with the one for `route`.
    case replace(String)
    /// Ask the front-end to open an external URL (the browser opens it; the terminal prints it).
    case openURL(String)
}

extension Effect: Codable {
    private enum CodingKeys: String, CodingKey { case type, route, url }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "navigate": self = .navigate(try container.decode(String.self, forKey: .route))
        case "back": self = .back
        case "replace": self = .replace(try container.decode(String.self, forKey: .route))
        case "open_url": self = .openURL(try container.decode(String.self, forKey: .url))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown effect type '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .navigate(let route):
            try container.encode("navigate", forKey: .type)
            try container.encode(route, forKey: .route)
        case .back:
            try container.encode("back", forKey: .type)
        case .replace(let route):
            try container.encode("replace", forKey: .type)
            try container.encode(route, forKey: .route)
        case .openURL(let url):
            try container.encode("open_url", forKey: .type)
            try container.encode(url, forKey: .url)
        }
    }
}
