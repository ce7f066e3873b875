import CDenABI

/// A plugin's `den_instance_api`, read field by field. The table is the plugin's and only ever
/// grows at its end, so one built against an older den_module.h is smaller: the host accepts any
/// table from revision 0's size up, and never reads a field past its `struct_size` (such a field
/// counts as NULL). Reading `pointee` whole would read past the end of an older plugin's table.
package struct InstanceFunctions: @unchecked Sendable {
    package typealias Handle = @convention(c) (UnsafeMutableRawPointer?, den_bytes, UnsafeMutablePointer<den_owned>?) -> Int32
    package typealias Snapshot = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<den_owned>?) -> Int32
    package typealias Restore = @convention(c) (UnsafeMutableRawPointer?, den_bytes) -> Int32
    package typealias Destroy = @convention(c) (UnsafeMutableRawPointer?) -> Void
    package typealias StateVersion = @convention(c) (UnsafeMutableRawPointer?) -> UInt64

    /// Revision 0's table, `struct_size` through `destroy`: the smallest a plugin may hand over.
    package static let firstRevisionSize = MemoryLayout<den_instance_api>.offset(of: \den_instance_api.destroy)! + MemoryLayout<Destroy?>.size

    /// The plugin's table itself: the isolated module's stand-in is recognised by it.
    package let table: UnsafePointer<den_instance_api>
    package let handle: Handle
    package let snapshot: Snapshot?
    package let restore: Restore?
    package let destroy: Destroy
    /// Revision 4.
    package let stateVersion: StateVersion?

    /// Why a table cannot be used, in words that follow "returned an instance API table".
    package enum Refusal: Error, Equatable {
        case tooSmall(UInt32)
        case missingRequired

        package var text: String {
            switch self {
            case .tooSmall(let size):
                "whose struct_size (\(size)) is below revision 0's \(InstanceFunctions.firstRevisionSize) bytes (set struct_size to sizeof(den_instance_api) and build against den_module.h)"
            case .missingRequired:
                "without a handle or destroy function (both are required)"
            }
        }
    }

    /// Reads `table`, touching no byte past the plugin's `struct_size`.
    package static func read(_ table: UnsafePointer<den_instance_api>) throws(Refusal) -> InstanceFunctions {
        let size = table.pointer(to: \.struct_size)!.pointee // the first field of every revision
        guard Int(size) >= firstRevisionSize else { throw .tooSmall(size) }
        guard let handle = field(\.handle, of: table), let destroy = field(\.destroy, of: table) else { throw .missingRequired }
        return InstanceFunctions(table: table, handle: handle, snapshot: field(\.snapshot, of: table),
                                 restore: field(\.restore, of: table), destroy: destroy, stateVersion: field(\.state_version, of: table))
    }

    /// One function of `table`; nil when it is NULL or lies past the table's `struct_size`.
    package static func field<T>(_ key: KeyPath<den_instance_api, T?>, of table: UnsafePointer<den_instance_api>) -> T? {
        let size = Int(table.pointer(to: \.struct_size)!.pointee)
        guard let offset = MemoryLayout<den_instance_api>.offset(of: key), offset + MemoryLayout<T?>.size <= size else { return nil }
        return UnsafeRawPointer(table).load(fromByteOffset: offset, as: T?.self)
    }
}
