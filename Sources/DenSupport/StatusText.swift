import CDenABI

/// What a `den_status` is called, and what it says about the module that returned it.
package enum StatusText {
    package static func name(_ status: Int32) -> String {
        let names = ["DEN_OK", "DEN_ERR_INVALID_ARGUMENT", "DEN_ERR_NOT_FOUND", "DEN_ERR_UNSUPPORTED", "DEN_ERR_CONFLICT",
                     "DEN_ERR_VERSION", "DEN_ERR_SERVICE", "DEN_ERR_INTERNAL"]
        return names.indices.contains(Int(status)) ? names[Int(status)] : "status \(status)"
    }

    package static func text(_ status: Int32) -> String {
        switch UInt32(bitPattern: status) {
        case DEN_ERR_INVALID_ARGUMENT.rawValue: "rejected the input"
        case DEN_ERR_NOT_FOUND.rawValue: "did not find what was asked for"
        case DEN_ERR_UNSUPPORTED.rawValue: "does not support this"
        case DEN_ERR_CONFLICT.rawValue: "reported a conflict"
        case DEN_ERR_VERSION.rawValue: "does not speak this version"
        case DEN_ERR_SERVICE.rawValue: "could not reach a service"
        case DEN_ERR_INTERNAL.rawValue: "failed"
        default: "failed (error \(status))"
        }
    }
}
