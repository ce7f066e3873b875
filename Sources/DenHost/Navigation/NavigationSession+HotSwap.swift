import DenRouting
import DenKit
import DenSupport
import FoundationEssentials

/// One session's part of a hot swap, prepared before the registry switches versions and
/// applied right after, both with the session's turn held (so no step of the session runs between).
package struct SessionSwapPlan {
    package let session: NavigationSession
    /// The stack positions whose instance the new version replaces, with their new entries.
    package var replacements: [(index: Int, entry: NavigationSession.Entry)] = []
    /// Instances whose state came across.
    package var statesKept = 0
    /// Routes whose instance was built fresh, each with why its state did not come across.
    package var rebuiltFresh: [(route: String, reason: String)] = []
}

extension NavigationSession {
    /// For every live instance of `moduleID` on the stack: `snapshot` → build the same route
    /// with the new version (resolved by `router`, the table as it will be) → `restore`. Call
    /// with the turn held (`takeTurn`). Nothing on the stack changes here; on a throw the
    /// instances built so far are simply dropped (destroyed through the new version's `destroy`).
    package func planSwap(of moduleID: String, router: CompiledRouter<RouteTarget>,
                  policy: HotSwapPolicy) throws(HotSwapError.Cause) -> SessionSwapPlan {
        var plan = SessionSwapPlan(session: self)
        let stack = committedState().stack
        for index in stack.indices {
            let old = stack[index]
            guard old.moduleID == moduleID, let instance = old.instance, !instance.isAbandoned else { continue }
            let match: RouteMatch<RouteTarget>
            switch router.resolve(old.route) {
            case .success(let found) where found.value.moduleID == moduleID:
                match = found
            case .success, .failure:
                // The new version dropped this route: the screen says so, the user goes on from it.
                let screen = HostScreens.withError(Screen(title: old.route, elements: []),
                    "The new version of module '\(moduleID)' no longer serves '\(ModuleText.singleLine(old.route, limit: 200))'. Go back or open another route.")
                plan.replacements.append((index, Entry(route: old.route, moduleID: moduleID, instance: nil, screen: screen)))
                continue
            }
            var state: Data?
            var stateProblem: String?
            do { state = try instance.snapshot() } catch { stateProblem = "the old version could not save it (\(error.description))" }
            var built = try build(old.route, match, moduleID: moduleID)
            var restored = false
            if let state {
                switch built.restoreOutcome(state) {
                case .restored:
                    restored = true
                case .keepsNoState:
                    break // a version that keeps no state is built from its route, as it is now
                case .refused(let status):
                    if policy.onRestoreFailure == .refuseSwap { throw .restoreFailed(route: old.route) }
                    // The half-restored instance may be inconsistent: build the route once more, fresh.
                    stateProblem = "the new version could not restore it (status \(status))"
                    built = try build(old.route, match, moduleID: moduleID)
                }
            }
            if let stateProblem {
                plan.rebuiltFresh.append((old.route, stateProblem))
                logger?.warning("hot swap of \(moduleID): \(old.route) starts fresh: \(stateProblem)", metadata: ["module": "\(moduleID)"])
            } else if restored {
                plan.statesKept += 1
            }
            plan.replacements.append((index, Entry(route: old.route, moduleID: moduleID, instance: built,
                                                   screen: old.screen, guardedFor: old.guardedFor)))
        }
        return plan
    }

    /// Puts the new instances on the stack and redraws the top one if it was swapped. Call with
    /// the turn held, after the registry switched. The old instances are destroyed once the new
    /// state is committed, outside its lock (by their own version's code, which stays mapped).
    package func applySwap(_ plan: SessionSwapPlan, turn: UInt64) {
        var state = committedState()
        state.stepID = turn
        state.unrecovered = true // nobody recovers a swap stuck in a call: it goes on once the call returns
        let top = state.stack.count - 1
        for (index, entry) in plan.replacements where index < state.stack.count { state.stack[index] = entry }
        if plan.replacements.contains(where: { $0.index == top }) {
            // The redraw is not a user step: it leaves the last step's messages alone.
            let saved = (state.notices, state.errors, state.openedURLs)
            state.budget = NavigationSession.maxChainedEffects
            dispatch(.appear, &state)
            if let problem = plan.rebuiltFresh.first(where: { $0.route == state.stack.last?.route }), !state.stack.isEmpty {
                state.stack[state.stack.count - 1].screen = HostScreens.withError(state.stack[state.stack.count - 1].screen,
                    "Module updated, but this screen starts fresh: \(problem.reason).")
            }
            (state.notices, state.errors, state.openedURLs) = saved
        }
        commit(state)
    }

    /// Number of live instances of `moduleID` in this session (for reports and tests).
    package func liveInstances(of moduleID: String) -> Int {
        committedState().stack.filter { $0.moduleID == moduleID && $0.instance != nil }.count
    }

    private func build(_ route: String, _ match: RouteMatch<RouteTarget>,
                       moduleID: String) throws(HotSwapError.Cause) -> ModuleInstanceHandle {
        let request = BuildRequest(route: route, pattern: match.pattern, parameters: match.parameters, query: match.query,
                                   queryValues: match.queryValues)
        do {
            // No hand-off: nobody recovers a stuck swap; it goes on, refused, once the call returns.
            return try ModuleInstanceHandle.build(match.value, request: request, runner: runner.unrecovered)
        } catch {
            throw .rebuildFailed(route: route, detail: error.description)
        }
    }
}
