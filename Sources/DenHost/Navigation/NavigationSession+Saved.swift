import DenKit
import DenSupport
import FoundationEssentials

/// A session's navigation as a document, so another process can carry it on (`den serve` keeps
/// one per browser session in storage): each screen's route, module, the user a guarded screen
/// was built for, and its module's snapshot (docs/ABI.md, "snapshot and restore").
package struct SavedNavigation: Codable, Sendable, Equatable {
    package struct Screen: Codable, Sendable, Equatable {
        package var route: String
        package var moduleID: String?
        package var guardedFor: String?
        /// The instance's snapshot, base64; nil for a host screen or a module that keeps no state.
        package var snapshot: String?
        /// The screen as last shown, for the top one only: a restored session shows exactly
        /// it (with the last step's messages) instead of asking the module again.
        package var shown: DenKit.Screen?
    }

    package var stack: [Screen]

    package init(stack: [Screen] = []) {
        self.stack = stack
    }
}

extension NavigationSession {
    /// The stack as a document, each live instance's snapshot taken with the turn held (no step
    /// runs meanwhile). A snapshot is a module call: call this where module calls may block (the
    /// session's own queue). An instance whose snapshot fails is saved by its route alone.
    package func saved() -> SavedNavigation {
        let turn = takeTurn()
        defer { releaseTurn(turn) }
        let stack = committedState().stack
        return SavedNavigation(stack: stack.indices.map { index in
            let entry = stack[index]
            let snapshot = (try? entry.instance?.savedSnapshot()) ?? nil
            return SavedNavigation.Screen(route: entry.route, moduleID: entry.moduleID, guardedFor: entry.guardedFor,
                                          snapshot: snapshot.map { $0.base64EncodedString() },
                                          shown: index == stack.count - 1 ? entry.screen : nil)
        })
    }

    /// Rebuilds a saved stack in this (fresh) session: each route is opened again through the
    /// route guard, as the session's user now sees it, and given its snapshot back; the top
    /// screen shows what it showed when saved when its module took the snapshot back, else it
    /// gets `appear`. A screen whose module or route is gone, or whose snapshot the
    /// module refuses, starts fresh (the module's version may differ from the one that saved it).
    /// A guarded screen saved for another user than the session's is opened through the guard.
    /// `replacing`: the session's own screens go first (another host's newer copy of it).
    @discardableResult
    package func restore(_ saved: SavedNavigation, replacing: Bool = false) -> SessionView {
        step { state in
            if replacing { state.stack.removeAll() }
            var topRestored = false
            var topRefused: Int32?
            for screen in saved.stack {
                var (entry, _) = makeEntry(screen.route, &state)
                topRestored = false
                topRefused = nil
                if let instance = entry.instance, entry.route == screen.route, entry.moduleID == screen.moduleID,
                   entry.guardedFor == screen.guardedFor, let text = screen.snapshot, let data = Data(base64Encoded: text) {
                    switch instance.restoreOutcome(data) {
                    case .restored:
                        topRestored = true
                    case .keepsNoState:
                        break
                    case .refused(let status):
                        logger?.warning("\(screen.route) starts fresh: its module refused the saved state (\(StatusText.name(status)))",
                                        metadata: ["module": "\(screen.moduleID ?? "?")"])
                        topRefused = status
                        (entry, _) = makeEntry(screen.route, &state)
                    }
                }
                state.stack.append(entry)
            }
            if topRestored, let shown = saved.stack.last?.shown {
                state.stack[state.stack.count - 1].screen = shown
            } else {
                dispatch(.appear, &state)
            }
            // As after a hot swap: what was typed there is gone, and the visitor is told so.
            if let status = topRefused, !state.stack.isEmpty {
                state.stack[state.stack.count - 1].screen = HostScreens.withError(state.stack[state.stack.count - 1].screen,
                    "This screen starts fresh: its module could not take back what was saved (\(StatusText.name(status))).")
            }
        }
    }
}
