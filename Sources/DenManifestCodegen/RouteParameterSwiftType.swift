import DenRouting

/// The Swift type a builder receives for a route placeholder, and how the generated code reads it
/// from the `BuildContext` (the host's router has already checked the value's shape).
extension RouteParameterType {
    var swiftType: String {
        switch self {
        case .int: "Int"
        case .double: "Double"
        // A UUID stays text: DenKit's modules need no Foundation for it, and the router checked it.
        case .uuid, .string, .path: "String"
        }
    }

    var contextReader: String {
        switch self {
        case .int: "int"
        case .double: "double"
        case .uuid, .string, .path: "string"
        }
    }
}
