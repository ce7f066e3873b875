import DenHost
import Foundation
import Testing

@Suite("The environment read without ProcessInfo", .serialized)
struct ProcessEnvironmentSpec {
    @Test("every variable reads as ProcessInfo reads it, and a change shows at the next read")
    func matchesProcessInfo() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
        let name = "DEN_PROCESS_ENVIRONMENT_SPEC_\(UInt32.random(in: 0...UInt32.max))"
        #expect(ProcessEnvironment.value(name) == nil)
        setenv(name, "a=b c", 1)
        defer { unsetenv(name) }
        #expect(ProcessEnvironment.value(name) == "a=b c", "only the first '=' separates the name")
        #expect(ProcessEnvironment.current()[name] == "a=b c")
        setenv(name, "", 1)
        #expect(ProcessEnvironment.value(name) == "", "set but empty is not unset")
    }

    @Test("the host's variables are exactly the DEN_ and XDG_ ones, read as every variable is")
    func hostVariablesArePrefixed() {
        let suffix = "\(UInt32.random(in: 0...UInt32.max))"
        let kept = ["DEN_HOST_VARIABLES_SPEC_\(suffix)", "XDG_HOST_VARIABLES_SPEC_\(suffix)"]
        // Names that share a prefix's first letters, or hold it later on, are not the host's.
        let left = ["DE_HOST_VARIABLES_SPEC_\(suffix)", "DENX_HOST_VARIABLES_SPEC_\(suffix)", "X_DEN_HOST_VARIABLES_SPEC_\(suffix)", "DE"]
        for name in kept + left { setenv(name, "v=\(name)", 1) }
        defer { for name in kept + left { unsetenv(name) } }

        let host = ProcessEnvironment.hostVariables()
        let expected = ProcessEnvironment.current().filter { $0.key.hasPrefix("DEN_") || $0.key.hasPrefix("XDG_") }
        #expect(host == expected)
        for name in kept { #expect(host[name] == "v=\(name)") }
        for name in left { #expect(host[name] == nil) }
    }
}
