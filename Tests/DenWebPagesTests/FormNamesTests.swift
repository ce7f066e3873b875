import DenWebPages
import Testing

@Suite("Form names")
struct FormNamesTests {
    @Test("A field's input name is its id behind the prefix, and reads back")
    func fieldNameRoundTrips() {
        #expect(FormNames.field("amount") == "f.amount")
        #expect(FormNames.fieldID(fromName: "f.amount") == "amount")
        #expect(FormNames.fieldID(fromName: "f._csrf") == "_csrf")
    }

    @Test("The page's own names are not field names")
    func ownNamesAreNotFields() {
        for name in [FormNames.csrf, FormNames.route, FormNames.action, FormNames.field] {
            #expect(FormNames.fieldID(fromName: name) == nil)
        }
    }
}

@Suite("The wire contract")
struct WireContractTests {
    @Test("Names and paths are the ones the server decodes")
    func fixedNames() {
        #expect([FormNames.csrf, FormNames.route, FormNames.action, FormNames.field] == ["_csrf", "_route", "_action", "_field"])
        #expect([FormNames.actionPath, FormNames.changePath, FormNames.backPath] == ["/_action", "/_change", "/_back"])
        #expect(PageRenderer.mainID == "den-main")
    }
}
