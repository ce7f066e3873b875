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
                    // Binary search: a module many others require readies them all at once.
                    var low = 0, high = ready.count
                    while low < high {
                        let middle = (low + high) / 2
                        if ready[middle] > dependent { low = middle + 1 } else { high = middle }
                    }
                    ready.insert(dependent, at: low)
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

/// A cycle as `a -> b -> a`; a long one shortened to its first and last steps, so a ring of
/// thousands of modules does not become a message of thousands of ids.
enum CycleText {
    static func describe(_ path: [String]) -> String {
        guard path.count > 10 else { return path.joined(separator: " -> ") }
        return (path.prefix(4) + ["…"] + path.suffix(2)).joined(separator: " -> ") + " (\(path.count - 1) modules)"
    }
}

/// Groups of modules that all require one another, directly or not: the cycles' places.
enum StronglyConnected {
    /// The strongly connected components of more than one module (Tarjan, iterative: a chain of
    /// thousands must not grow the thread's stack), visited in id order.
    static func components(_ edges: [String: [String]]) -> [[String]] {
        var counter = 0
        var index: [String: Int] = [:]
        var low: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var components: [[String]] = []
        for root in edges.keys.sorted() where index[root] == nil {
            var work: [(id: String, next: Int)] = [(root, 0)]
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(root)
            onStack.insert(root)
            while let (id, next) = work.last {
                let out = edges[id] ?? []
                if next < out.count {
                    work[work.count - 1].next += 1
                    let target = out[next]
                    if index[target] == nil {
                        index[target] = counter
                        low[target] = counter
                        counter += 1
                        stack.append(target)
                        onStack.insert(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        low[id] = min(low[id]!, index[target]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.id] = min(low[parent.id]!, low[id]!) }
                guard low[id] == index[id] else { continue }
                var component: [String] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.append(member)
                    if member == id { break }
                }
                if component.count > 1 { components.append(component) }
            }
        }
        return components
    }
}
