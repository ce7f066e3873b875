import DenKit
import Foundation

/// One UI session's navigation: a stack of screens, each backed by a live module instance. The
/// front-end turns user input into `open`, `back`, `replace` and `send`; effects in a module's
/// reply (`navigate`, `back`, `replace`, `open_url`) drive the same operations. Thread-safe.
public final class NavigationSession: @unchecked Sendable {
    /// How many navigations one step may chain before the host stops a redirect loop.
    static let maxChainedEffects = 16

    private struct Entry {
        var route: String
        var moduleID: String?
        var instance: ModuleInstanceHandle?
        var screen: Screen
    }

    private let registry: ModuleRegistry
    private let lock = NSLock()
    private var stack: [Entry] = []
    private var openedURLs: [String] = []
    private var notices: [String] = []
    private var errors: [String] = []
    /// Set when a step used up its navigation budget: the step is then undone.
    private var overflowed = false

    public init(registry: ModuleRegistry) {
        self.registry = registry
    }

    /// The top of the stack, or nil before the first `open`.
    public var current: SessionView? {
        lock.withLock { stack.isEmpty ? nil : view() }
    }

    /// Pushes the screen for `route`.
    public func open(_ route: String) -> SessionView {
        step { _ = push(route, budget: &$0) }
    }

    /// Replaces the top screen with the one for `route`.
    public func replace(_ route: String) -> SessionView {
        step { _ = replaceTop(route, budget: &$0) }
    }

    /// Pops the top screen; at the bottom of the stack nothing changes.
    public func back() -> SessionView {
        step { pop(budget: &$0) }
    }

    /// Sends an action (a button's id and the form's values) to the top screen's module.
    public func send(action: String, fields: [String: String]) -> SessionView {
        step { dispatch(.action(id: action, fields: fields), budget: &$0) }
    }

    /// Runs one user step. A step that chains more navigations than the budget allows (a module
    /// that navigates on every appear) is undone, so the user is never trapped in the loop.
    private func step(_ body: (inout Int) -> Void) -> SessionView {
        lock.withLock {
            openedURLs = []
            notices = []
            errors = []
            overflowed = false
            let saved = stack
            var budget = NavigationSession.maxChainedEffects
            body(&budget)
            if overflowed {
                // Keep the screen the user asked for when there was nothing before it.
                stack = saved.isEmpty ? Array(stack.prefix(1)) : saved
                openedURLs = []
                let message = "more than \(NavigationSession.maxChainedEffects) navigations were chained in one step (a redirect loop?); the host stopped them and stayed here"
                errors.append(message)
                if let top = stack.indices.last {
                    stack[top].screen = HostScreens.withError(stack[top].screen, message)
                }
            }
            return view()
        }
    }

    private func view() -> SessionView {
        guard let top = stack.last else {
            return SessionView(route: "", screen: Screen(title: "Den", elements: [.text("Nothing is open yet.")]),
                               moduleID: nil, backStack: [], openURLs: openedURLs, notices: notices, errors: errors,
                               isHostScreen: true)
        }
        return SessionView(route: top.route, screen: top.screen, moduleID: top.moduleID,
                           backStack: stack.dropLast().map(\.route), openURLs: openedURLs, notices: notices,
                           errors: errors, isHostScreen: top.instance == nil)
    }

    private func push(_ route: String, budget: inout Int) -> Bool {
        stack.append(makeEntry(route))
        dispatch(.appear, budget: &budget)
        return true
    }

    private func replaceTop(_ route: String, budget: inout Int) -> Bool {
        if !stack.isEmpty { stack.removeLast() }
        return push(route, budget: &budget)
    }

    private func pop(budget: inout Int) {
        guard stack.count > 1 else {
            notices.append("This is the first screen: there is nothing to go back to.")
            return
        }
        stack.removeLast()
        // The screen below may show data the popped one changed (e.g. after a login).
        dispatch(.appear, budget: &budget)
    }

    /// Builds the instance for a route, or a host screen saying why there is none.
    private func makeEntry(_ route: String) -> Entry {
        switch registry.resolve(route) {
        case .failure(let error):
            return Entry(route: route, moduleID: nil, instance: nil, screen: HostScreens.notFound(error, routes: registry.routes))
        case .success(let match):
            let request = BuildRequest(route: route, pattern: match.pattern, parameters: match.parameters, query: match.query)
            do {
                let instance = try ModuleInstanceHandle.build(match.value, request: request)
                return Entry(route: route, moduleID: match.value.moduleID, instance: instance,
                             screen: Screen(title: route, elements: []))
            } catch {
                return Entry(route: route, moduleID: match.value.moduleID, instance: nil,
                             screen: HostScreens.failed(route, error))
            }
        }
    }

    /// Sends an event to the top instance, shows its reply and applies its effects.
    private func dispatch(_ event: ModuleEvent, budget: inout Int) {
        guard !overflowed, let top = stack.last, let instance = top.instance else { return }
        let reply: ModuleReply
        do {
            reply = try instance.handle(event)
        } catch {
            errors.append(error.description)
            stack[stack.count - 1].screen = HostScreens.withError(top.screen, error.description)
            return
        }
        stack[stack.count - 1].screen = reply.screen
        for effect in reply.effects {
            if case .openURL(let url) = effect {
                openedURLs.append(url)
                continue
            }
            // Only navigations count against the budget.
            guard budget > 0 else {
                overflowed = true
                return
            }
            budget -= 1
            switch effect {
            case .navigate(let route): _ = push(route, budget: &budget)
            case .replace(let route): _ = replaceTop(route, budget: &budget)
            case .back: pop(budget: &budget)
            case .openURL: break
            }
            if overflowed { return }
        }
    }
}
