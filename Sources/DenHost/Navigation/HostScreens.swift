import DenKit

/// The screens the host draws itself, when no module can.
enum HostScreens {
    static func notFound(_ error: RouteResolutionError, routes: [(pattern: String, moduleID: String)]) -> Screen {
        let plain = routes.filter { !$0.pattern.contains("<") }
        var elements: [Element] = [
            .banner(Banner(.error, "\(error)")),
            .text("Check the route, or run `den routes` to list every route the loaded modules serve."),
        ]
        if !plain.isEmpty {
            elements.append(.list(ItemList(title: "Available screens", items: plain.map {
                ItemList.Item(title: $0.pattern, detail: "module \($0.moduleID)", route: $0.pattern)
            })))
        }
        return Screen(title: "Not found", elements: elements)
    }

    static func failed(_ route: String, _ error: ModuleCallError) -> Screen {
        Screen(title: "Cannot open \(route)", elements: [
            .banner(Banner(.error, error.description)),
            .text("Go back, or try the route again with other values."),
        ])
    }

    /// The previous screen with an error banner on top, after an event the module failed to handle.
    static func withError(_ screen: Screen, _ message: String) -> Screen {
        var screen = screen
        screen.elements.removeAll { if case .banner(let banner) = $0 { banner.kind == .error } else { false } }
        screen.elements.insert(.banner(Banner(.error, message)), at: 0)
        return screen
    }
}
