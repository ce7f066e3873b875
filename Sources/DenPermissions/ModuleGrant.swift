import DenKit
import FoundationEssentials

/// What the user agreed a module may touch, kept per data folder (`PermissionBook`): the
/// permissions of its manifest they accepted, and hosts an operator added for `http` beyond the
/// manifest (`den modules grant <id> --http <host>`, e.g. a mirror a setting points to).
package struct ModuleGrant: Codable, Sendable, Equatable {
    package var permissions: ModulePermissions
    /// Hosts `http.get` may also fetch from, added by an operator (host patterns).
    package var addedHosts: [String]
    /// The module version the grant was last given for (shown by `den modules permissions`).
    package var version: String
    /// How it was given: "install" (den modules install), "grant" (den modules grant), or
    /// "first-load" (a module found in a folder with no grant yet: the operator placed it).
    package var how: String
    /// When (ISO 8601, UTC).
    package var at: String

    /// `how` of a record that could not be read: it grants nothing.
    package static let unreadable = "unreadable"

    package init(permissions: ModulePermissions, addedHosts: [String] = [], version: String, how: String, at: String) {
        self.permissions = permissions
        self.addedHosts = addedHosts
        self.version = version
        self.how = how
        self.at = at
    }

    /// Whether this grant lets a module whose manifest asks for `declared` have `permission`.
    package func allows(_ permission: Permission, declared: ModulePermissions) -> Bool {
        if declared.allows(permission) && permissions.allows(permission) { return true }
        if case .http(let host) = permission { return addedHosts.contains { HostPattern.matches($0, host: host) } }
        return false
    }
}

extension ModuleGrant: WireDocument {
    package init(wire value: JSONValue) throws(JSONMiss) {
        let object = try value.object()
        self.init(permissions: try ModulePermissions(wire: try object.required("permissions")),
                  addedHosts: try object.optionalStrings("addedHosts") ?? [],
                  version: try object.optionalString("version") ?? "", how: try object.optionalString("how") ?? "",
                  at: try object.optionalString("at") ?? "")
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if !addedHosts.isEmpty { writer.member("addedHosts", strings: addedHosts) }
        writer.member("at", at)
        writer.member("how", how)
        writer.key("permissions")
        permissions.write(to: &writer)
        writer.member("version", version)
        writer.endObject()
    }
}
