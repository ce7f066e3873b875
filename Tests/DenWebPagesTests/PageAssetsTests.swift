import DenWebPages
import Testing

@Suite("Assets: den.css and den.js")
struct PageAssetsTests {
    @Test("Both are served from /_assets and are not empty")
    func served() {
        #expect(PageAssets.stylesheetPath == "/_assets/den.css")
        #expect(PageAssets.scriptPath == "/_assets/den.js")
        #expect(PageAssets.stylesheet.count > 500)
        #expect(PageAssets.script.count > 500)
    }

    @Test("Neither refers to anything outside this server", arguments: ["den.css", "den.js"])
    func nothingExternal(name: String) {
        let asset = name == "den.css" ? PageAssets.stylesheet : PageAssets.script
        #expect(!asset.contains("http://"))
        #expect(!asset.contains("https://"))
        #expect(!asset.contains("@import"))
        #expect(!asset.contains("url("))
    }

    @Test("The stylesheet shows focus, uses system fonts and adapts to narrow screens")
    func stylesheet() {
        #expect(PageAssets.stylesheet.contains(":focus-visible"))
        #expect(PageAssets.stylesheet.contains("system-ui"))
        #expect(PageAssets.stylesheet.contains("@media (max-width:"))
        #expect(!PageAssets.stylesheet.contains("@font-face"))
    }

    @Test("The script posts live fields to the change path with the names the server reads")
    func scriptUsesTheWireNames() {
        #expect(PageAssets.script.contains("\"\(FormNames.changePath)\""))
        #expect(PageAssets.script.contains("\"\(FormNames.field)\""))
        #expect(PageAssets.script.contains("\"\(PageRenderer.mainID)\""))
        #expect(PageAssets.script.contains("data-den-change"))
    }

    @Test("The script never turns text into code or markup in the live page")
    func scriptHasNoSinks() {
        for sink in ["eval(", "innerHTML", "outerHTML", "document.write", "new Function", "insertAdjacentHTML"] {
            #expect(!PageAssets.script.contains(sink), "den.js uses \(sink)")
        }
    }
}
