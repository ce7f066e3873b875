import DenHost
import Foundation
import Testing

@Suite("The environment read without ProcessInfo")
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
}
