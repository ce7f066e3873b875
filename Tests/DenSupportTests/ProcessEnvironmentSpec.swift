import DenSupport
import Foundation
import Testing

@Suite("The environment read without ProcessInfo", .serialized)
struct ProcessEnvironmentSpec {
    @Test("every variable reads as ProcessInfo reads it; only the first '=' separates the name; empty is not unset")
    func matchesProcessInfo() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
        for (name, value) in ProcessInfo.processInfo.environment { #expect(ProcessEnvironment.value(name) == value) }
        #expect(ProcessEnvironment.value("DEN_PROCESS_ENVIRONMENT_SPEC_\(UInt32.random(in: 0...UInt32.max))") == nil)
        // An environ-shaped list of its own: setenv here raced with the tests that start
        // processes (Foundation's Process copies environ) and crashed the whole run.
        let entries = ["SPEC_SPACED=a=b c", "SPEC_EMPTY=", "SPEC_TWICE=first", "SPEC_TWICE=second", "SPEC_NO_EQUALS"]
        let pointers = entries.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let read = pointers.withUnsafeBufferPointer { buffer in
            ProcessEnvironment.current(in: UnsafeMutablePointer(mutating: buffer.baseAddress!))
        }
        #expect(read == ["SPEC_SPACED": "a=b c", "SPEC_EMPTY": "", "SPEC_TWICE": "first"])
    }

    @Test("the host's variables are exactly the DEN_ and XDG_ ones, read as every variable is")
    func hostVariablesArePrefixed() {
        // An environ-shaped list of its own: setenv here would race with tests reading environ.
        let entries = [
            "DEN_PLUGIN_PATH=/a:/b", "XDG_DATA_HOME=/x=y", "DEN_EMPTY=", "DEN_TWICE=first", "DEN_TWICE=second",
            "DE_NOT=1", "DENX_NOT=1", "X_DEN_NOT=1", "DE=1", "D=1", "HOME=/root", "xdg_lower=1", "DEN_NO_EQUALS", "",
        ]
        let pointers = entries.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let host = pointers.withUnsafeBufferPointer { buffer in
            ProcessEnvironment.hostVariables(in: UnsafeMutablePointer(mutating: buffer.baseAddress!))
        }
        #expect(host == ["DEN_PLUGIN_PATH": "/a:/b", "XDG_DATA_HOME": "/x=y", "DEN_EMPTY": "", "DEN_TWICE": "first"])
        // And the process's own: its DEN_ and XDG_ variables, as every variable reads.
        let expected = ProcessEnvironment.current().filter { $0.key.hasPrefix("DEN_") || $0.key.hasPrefix("XDG_") }
        #expect(ProcessEnvironment.hostVariables() == expected)
    }
}
