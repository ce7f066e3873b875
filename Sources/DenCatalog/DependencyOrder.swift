/// Dependencies before the modules that need them, and otherwise by id, so that the same modules
/// always come out in the same order (Kahn's algorithm, the smallest ready id first).
enum DependencyOrder {
    /// `ids` ordered so each comes after its `dependencies` among `ids`; ids caught in a cycle are
    /// left out (the callers refuse cycles before they ask).
    static func sorted(_ ids: Set<String>, dependencies: (String) -> [String]) -> [String] {
        var waitingOn: [String: Int] = [:]
        var dependents: [String: [String]] = [:]
        for id in ids {
            let inside = Set(dependencies(id)).filter { ids.contains($0) && $0 != id }
            waitingOn[id] = inside.count
            for dependency in inside { dependents[dependency, default: []].append(id) }
        }
        // Ready ids kept sorted descending, so the smallest is popped from the end.
        var ready = ids.filter { waitingOn[$0] == 0 }.sorted(by: >)
        var order: [String] = []
        order.reserveCapacity(ids.count)
        while let id = ready.popLast() {
            order.append(id)
            for dependent in dependents[id] ?? [] {
                waitingOn[dependent, default: 0] -= 1
                if waitingOn[dependent] == 0 {
                    let index = ready.firstIndex { $0 < dependent } ?? ready.endIndex
                    ready.insert(dependent, at: index)
                }
            }
        }
        return order
    }
}

/// Lists as a sentence says them: `a`, `a and b`, `a, b and c`.
enum EnglishList {
    static func and(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }
}
