import CDenABI
@testable import DenHost
import DenKit
import Foundation
import Testing

/// `settings.declare`: once, during den_module_entry, and only a well-formed declaration.
@Suite("Settings declared while a plugin loads")
struct SettingsRecorderSpec {
    let good = #"{"v":1,"settings":[{"name":"fetch_timeout","type":"integer","default":"10","help":"h","min":1,"max":60}]}"#

    @Test("a good declaration is recorded and answered {}")
    func records() {
        let recorder = SettingsRecorder()
        let (status, body) = recorder.declare(Data(good.utf8))
        #expect(status == DEN_OK)
        #expect(String(decoding: body, as: UTF8.self) == "{}")
        #expect(recorder.settings.map(\.name) == ["fetch_timeout"])
        #expect(recorder.problem == nil)
    }

    @Test("a bad declaration is refused and recorded as the plugin's problem", arguments: [
        #"{"v":1,"settings":[{"name":"n","type":"integer","default":"99","help":"h","max":60}]}"#,
        #"{"v":1,"settings":[{"name":"a","type":"string","default":"","help":"h"}]}"#,
        #"{"v":2,"settings":[]}"#, "not json",
    ])
    func refuses(document: String) {
        let recorder = SettingsRecorder()
        #expect(recorder.declare(Data(document.utf8)).status == DEN_ERR_INVALID_ARGUMENT)
        #expect(recorder.problem?.hasPrefix("settings.declare: ") == true)
        #expect(recorder.settings.isEmpty)
    }

    @Test("a second declaration, or one after den_module_entry returned, is refused")
    func onceDuringEntry() {
        let recorder = SettingsRecorder()
        _ = recorder.declare(Data(good.utf8))
        #expect(recorder.declare(Data(good.utf8)).status == DEN_ERR_INVALID_ARGUMENT)
        let late = SettingsRecorder()
        late.close()
        let (status, body) = late.declare(Data(good.utf8))
        #expect(status == DEN_ERR_INVALID_ARGUMENT)
        #expect(String(decoding: body, as: UTF8.self).contains("during den_module_entry only"))
        #expect(late.problem == nil, "a late call changes nothing, like a late registrar call")
    }
}
