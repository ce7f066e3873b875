import DenRouting
@_spi(Internal) import Hummingbird
import RoutingKit

/// Figure 2: route resolution on a 1,000-route table, Den's `CompiledRouter` against RoutingKit's
/// `TrieRouter`, on the same requests.
///
/// The table: 100 resources × 10 shapes (literal, typed placeholders, a string placeholder that
/// shares its position with an int one, a UUID, catch-alls), registered in both routers with
/// equivalent syntax (`<int:id>` → `:id`, `<path:rest>` → `**`). RoutingKit has no typed
/// placeholders, so the requests are chosen so that typing never changes the answer; the
/// benchmark checks that both routers pick the same route for every request before timing.
///
/// Each side gets the request in its natural form:
/// - Den: the route string (`res17/42/edit`, sometimes with `?page=2&sort=name`), which
///   `resolve` validates, splits, percent-decodes, matches, and then parses the query and builds
///   a `RouteMatch` with its parameter dictionaries;
/// - RoutingKit (pre-split): the path already split into `[String]`, as Vapor hands it over, plus
///   a `Parameters` value to fill (copied from one made up front: `Parameters()` creates a
///   `Logger`, which Vapor does once per request, not per route lookup);
/// - RoutingKit (split included): the same with `path.split(separator: "/").map(String.init)`
///   inside the timed loop;
/// - Hummingbird: its `RouterTrie` (the trie behind Hummingbird 2's router, reached as its own
///   benchmarks do, through `@_spi(Internal)`) resolving the path string `/res17/42/edit`, which
///   it splits itself and answers with its `Parameters`; `:id` for a placeholder, `**` for a
///   catch-all.
struct RouterBench {
    struct Result {
        var routeCount = 0
        var requestCount = 0
        var mismatches = 0
        var firstMismatches: [String] = []
        var mix: [String: Int] = [:]
        var den = Samples()           // ns per pass over all requests
        var routingKit = Samples()
        var routingKitSplit = Samples()
        var hummingbird = Samples()
        var hummingbirdMismatches = 0
        var firstHummingbirdMismatches: [String] = []
    }

    let resources = 100
    let requestCount: Int
    let rounds: Int

    // MARK: The table

    /// Den pattern and RoutingKit components of shape `shape` for resource `n`.
    static func route(_ n: Int, _ shape: Int) -> (den: String, kit: [PathComponent]) {
        let r = "res\(n)"
        switch shape {
        case 0: return (r, [.constant(r)])
        case 1: return ("\(r)/new", [.constant(r), .constant("new")])
        case 2: return ("\(r)/<int:id>", [.constant(r), .parameter("id")])
        case 3: return ("\(r)/<int:id>/edit", [.constant(r), .parameter("id"), .constant("edit")])
        case 4: return ("\(r)/<int:id>/items/<int:item>", [.constant(r), .parameter("id"), .constant("items"), .parameter("item")])
        case 5: return ("\(r)/<string:id>/items", [.constant(r), .parameter("id"), .constant("items")])
        case 6: return ("\(r)/search/<string:q>", [.constant(r), .constant("search"), .parameter("q")])
        case 7: return ("\(r)/files/<path:rest>", [.constant(r), .constant("files"), .catchall])
        case 8: return ("\(r)/<int:id>/comments/<uuid:comment>", [.constant(r), .parameter("id"), .constant("comments"), .parameter("comment")])
        default:
            return n % 2 == 0
                ? ("\(r)/<path:rest>", [.constant(r), .catchall])
                : ("\(r)/archive/<int:year>/<int:month>", [.constant(r), .constant("archive"), .parameter("year"), .parameter("month")])
        }
    }

    // MARK: The requests

    struct Request {
        var den: String          // the route string Den resolves
        var path: String         // the path alone (what a web server would route)
        var components: [String] // the path pre-split, for RoutingKit
    }

    static func requests(count: Int, resources: Int) -> [Request] {
        var random = SplitMix64(seed: 0xDE11)
        func pick(_ range: Range<Int>) -> Int { Int(random.next() % UInt64(range.count)) + range.lowerBound }
        func uuid() -> String {
            let hex = Array("0123456789abcdef")
            let groups = [8, 4, 4, 4, 12]
            return groups.map { length in String((0..<length).map { _ in hex[pick(0..<16)] }) }.joined(separator: "-")
        }
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var result: [Request] = []
        result.reserveCapacity(count)
        for _ in 0..<count {
            let n = pick(0..<resources)
            let r = "res\(n)"
            let id = pick(1..<100_000)
            let roll = pick(0..<100)
            let path: String
            switch roll {
            case 0..<15: path = r                                                   // literal
            case 15..<25: path = "\(r)/new"                                         // literal, 2 segments
            case 25..<40: path = "\(r)/\(id)"                                       // int
            case 40..<50: path = "\(r)/\(id)/edit"
            case 50..<58: path = "\(r)/\(id)/items/\(pick(1..<500))"
            case 58..<61: path = "\(r)/\(words[pick(0..<10)])-\(id)/items"          // string beside int
            case 61..<63: path = "\(r)/\(id)/items"                                 // int branch dead-ends: backtracks to string
            case 63..<66: path = "\(r)/search/\(words[pick(0..<10)])"
            case 66..<67: path = "\(r)/search/\(words[pick(0..<10)])%20\(words[pick(0..<10)])"  // percent-encoded
            case 67..<70: path = "\(r)/\(id)/comments/\(uuid())"                    // uuid
            case 70..<75: path = "\(r)/files/docs/\(words[pick(0..<10)])/\(id).txt" // catch-all
            case 75..<80:                                                           // catch-all (even) / archive (odd)
                path = n % 2 == 0 ? "\(r)/\(words[pick(0..<10)])/\(id)/x" : "\(r)/archive/20\(pick(10..<30))/\(pick(1..<13))"
            case 80..<88: path = "unknown\(n)/\(id)"                                // miss: no such resource
            case 88..<94: path = "\(r)/\(id)/edit/extra"                            // miss (odd) / catch-all (even)
            default: path = "\(r)/\(id)/nothing"                                    // miss (odd) / catch-all (even)
            }
            // One request in 20 carries a query, as Den route strings may (`login?next=jogs`).
            let den = pick(0..<20) == 0 ? "\(path)?page=\(pick(1..<10))&sort=name" : path
            result.append(Request(den: den, path: path, components: path.split(separator: "/").map(String.init)))
        }
        return result
    }

    // MARK: Running

    func run() throws -> Result {
        var table = RouteTable<Int>()
        let kit = TrieRouter(Int.self)
        let birdBuilder = RouterPathTrieBuilder<Int>()
        var index = 0
        for n in 0..<resources {
            for shape in 0..<10 {
                let (pattern, components) = Self.route(n, shape)
                try table.add(pattern, owner: "module\(n / 10)", value: index)
                kit.register(index, at: components)
                birdBuilder.addEntry(RouterPath(Self.hummingbirdPath(components)), value: index)
                index += 1
            }
        }
        let den = table.compile()
        let bird = birdBuilder.build()
        let requests = Self.requests(count: requestCount, resources: resources)
        var result = Result()
        result.routeCount = table.count
        result.requestCount = requests.count
        let template = RoutingKit.Parameters()

        // Same answer from both, for every request, before any timing.
        for request in requests {
            let denAnswer: Int? = switch den.resolve(request.den) {
            case .success(let match): match.value
            case .failure: nil
            }
            var parameters = template
            let kitAnswer = kit.route(path: request.components, parameters: &parameters)
            if denAnswer != kitAnswer {
                result.mismatches += 1
                if result.firstMismatches.count < 5 {
                    result.firstMismatches.append("\(request.den): Den \(denAnswer.map { table.routes[$0].pattern.text } ?? "none"), RoutingKit \(kitAnswer.map { table.routes[$0].pattern.text } ?? "none")")
                }
            }
            let birdAnswer = bird.resolve("/" + request.path)?.value
            if denAnswer != birdAnswer {
                result.hummingbirdMismatches += 1
                if result.firstHummingbirdMismatches.count < 5 {
                    result.firstHummingbirdMismatches.append("\(request.den): Den \(denAnswer.map { table.routes[$0].pattern.text } ?? "none"), Hummingbird \(birdAnswer.map { table.routes[$0].pattern.text } ?? "none")")
                }
            }
            let kind: String
            if let denAnswer {
                let pattern = table.routes[denAnswer].pattern
                if pattern.parameterNames.isEmpty { kind = "literal" }
                else if pattern.segments.last.map({ if case .parameter(_, .path) = $0 { true } else { false } }) == true { kind = "catch-all" }
                else { kind = "placeholder" }
            } else {
                kind = "miss"
            }
            result.mix[kind, default: 0] += 1
        }

        @inline(never) func denPass() -> UInt64 {
            var checksum = 0
            let start = nowNanoseconds()
            for request in requests {
                switch den.resolve(request.den) {
                case .success(let match): checksum &+= match.value
                case .failure: checksum &+= 1
                }
            }
            let elapsed = nowNanoseconds() - start
            blackHole(checksum)
            return elapsed
        }
        @inline(never) func kitPass() -> UInt64 {
            var checksum = 0
            let start = nowNanoseconds()
            for request in requests {
                var parameters = template
                checksum &+= kit.route(path: request.components, parameters: &parameters) ?? 1
            }
            let elapsed = nowNanoseconds() - start
            blackHole(checksum)
            return elapsed
        }
        @inline(never) func kitSplitPass() -> UInt64 {
            var checksum = 0
            let start = nowNanoseconds()
            for request in requests {
                var parameters = template
                let components = request.path.split(separator: "/").map(String.init)
                checksum &+= kit.route(path: components, parameters: &parameters) ?? 1
            }
            let elapsed = nowNanoseconds() - start
            blackHole(checksum)
            return elapsed
        }

        let birdPaths = requests.map { "/" + $0.path }
        @inline(never) func birdPass() -> UInt64 {
            var checksum = 0
            let start = nowNanoseconds()
            for path in birdPaths {
                checksum &+= bird.resolve(path)?.value ?? 1
            }
            let elapsed = nowNanoseconds() - start
            blackHole(checksum)
            return elapsed
        }

        for _ in 0..<5 { _ = denPass(); _ = kitPass(); _ = kitSplitPass(); _ = birdPass() }
        let orders = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2], [0, 2, 1, 3], [3, 1, 2, 0]]
        for round in 0..<rounds {
            for side in orders[round % orders.count] {
                switch side {
                case 0: result.den.add(denPass())
                case 1: result.routingKit.add(kitPass())
                case 2: result.routingKitSplit.add(kitSplitPass())
                default: result.hummingbird.add(birdPass())
                }
            }
        }
        return result
    }
}

extension RouterBench {
    /// The same route in Hummingbird's syntax: `/res1/:id/**`.
    static func hummingbirdPath(_ components: [PathComponent]) -> String {
        "/" + components.map { component in
            switch component {
            case .constant(let text): text
            case .parameter(let name): ":\(name)"
            case .catchall: "**"
            case .anything: "*"
            }
        }.joined(separator: "/")
    }
}

/// A small deterministic generator, so every run resolves the same requests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
