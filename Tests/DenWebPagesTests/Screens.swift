import DenKit
import DenWebPages

/// Inputs for the tests: a page for a screen, with the host's parts left empty unless given.
enum Screens {
    static let token = "token-123"

    static func input(_ elements: [Element], title: String = "A screen", route: String = "jogs/3",
                      notices: [String] = [], errors: [String] = [], openURLs: [String] = [],
                      backRoute: String? = nil, moduleID: String? = "jogs") -> PageInput {
        PageInput(route: route, screen: Screen(title: title, elements: elements), notices: notices, errors: errors,
                  openURLs: openURLs, backRoute: backRoute, csrfToken: token, moduleID: moduleID)
    }

    static func page(_ elements: [Element], backRoute: String? = nil) throws -> PageTree {
        try PageTree(PageRenderer.page(input(elements, backRoute: backRoute)))
    }

    static func main(_ elements: [Element]) throws -> PageTree {
        try PageTree(PageRenderer.main(input(elements)))
    }
}
