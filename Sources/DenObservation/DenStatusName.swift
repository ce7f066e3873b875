import CDenABI

/// A den_status as a label value: `invalid_argument`, `permission`, … (den_module.h's names).
public enum DenStatusName {
    public static func of(_ status: Int32) -> String {
        switch status {
        case Int32(DEN_OK.rawValue): "ok"
        case Int32(DEN_ERR_INVALID_ARGUMENT.rawValue): "invalid_argument"
        case Int32(DEN_ERR_NOT_FOUND.rawValue): "not_found"
        case Int32(DEN_ERR_INTERNAL.rawValue): "internal"
        case Int32(DEN_ERR_SERVICE.rawValue): "service"
        case Int32(DEN_ERR_PERMISSION.rawValue): "permission"
        case Int32(DEN_ERR_UNSUPPORTED.rawValue): "unsupported"
        case Int32(DEN_ERR_CONFLICT.rawValue): "conflict"
        case Int32(DEN_ERR_VERSION.rawValue): "version"
        default: "status_\(status)"
        }
    }
}
