#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `dlopen`ed image. Never closed: the Swift runtime keeps pointers into every image it has
/// registered, and unmapping one makes the next conformance lookup crash (DESIGN §2).
package struct DynamicLibrary: @unchecked Sendable {
    package let handle: UnsafeMutableRawPointer

    package init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    /// Opens with `RTLD_NOW` (an undefined symbol fails here, not at first call, where it would
    /// kill the process), `RTLD_LOCAL` (no interposition between plugins) and `RTLD_NODELETE`.
    package static func open(_ path: String) throws(DynamicLibraryError) -> DynamicLibrary {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw DynamicLibraryError(message: lastError() ?? "dlopen failed")
        }
        return DynamicLibrary(handle: handle)
    }

    package func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}

package struct DynamicLibraryError: Error {
    package let message: String
}

extension DynamicLibrary {
    /// The process's own image: stands in for a library not loaded yet (nothing is looked up in it).
    /// Opened once: every module installed from its manifest holds it.
    package static let processImage = DynamicLibrary(handle: dlopen(nil, RTLD_NOW))
}
