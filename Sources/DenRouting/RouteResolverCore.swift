/// What the non-generic core found: which route, with which parameters.
@usableFromInline
struct ResolvedRoute: Sendable {
    @usableFromInline let index: Int
    @usableFromInline let parameters: [String: String]
    /// Every value of each query key, in order (`RouteMatch` derives the last-wins view).
    @usableFromInline let queryValues: [String: [String]]
}

/// The non-generic heart of `CompiledRouter`: parse, decode, match, extract.
///
/// Why separate from the generic router: generic code called from another module runs
/// unspecialized and looks up type metadata at every call; keeping all the work here, with only
/// a thin `@inlinable` wrapper in `CompiledRouter`, makes `resolve` fast from any module.
/// The path is decoded into a stack buffer and matched as byte ranges: a successful resolve
/// allocates only what it returns (the parameter and query dictionaries and long strings).
@usableFromInline
struct RouteResolverCore: Sendable {
    private struct Capture: Sendable {
        let segmentIndex: Int
        let name: String
        let isCatchAll: Bool
    }

    private let trie: RouteTrie
    private let captures: [[Capture]]

    init(patterns: [RoutePattern]) {
        var builder = RouteTrieBuilder(expectedRoutes: patterns.count)
        for (index, pattern) in patterns.enumerated() {
            builder.insert(pattern.segments, route: index)
        }
        trie = builder.build()
        captures = patterns.map { pattern in
            pattern.segments.enumerated().compactMap { index, segment in
                guard case .parameter(let name, let type) = segment else { return nil }
                return Capture(segmentIndex: index, name: name, isCatchAll: type == .path)
            }
        }
    }

    @usableFromInline
    func resolve(_ route: String) -> Result<ResolvedRoute, RouteResolutionError> {
        if let result = route.utf8.withContiguousStorageIfAvailable({ resolve(route, raw: $0) }) {
            return result
        }
        // Only bridged (non-native) strings get here: make a contiguous copy once.
        var copy = route
        copy.makeContiguousUTF8()
        return copy.withUTF8 { resolve(route, raw: $0) }
    }

    private func resolve(_ route: String, raw: UnsafeBufferPointer<UInt8>) -> Result<ResolvedRoute, RouteResolutionError> {
        let layout: RouteLayout
        switch RouteStringParser.scan(raw) {
        case .success(let value): layout = value
        case .failure(let reason): return .failure(.malformed(route, reason: reason))
        }

        // Decode and match inside stack buffers (a path is at most 2,048 bytes).
        let matched: Result<(index: Int, parameters: [String: String])?, MalformedRouteReason> =
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: layout.pathEnd - layout.pathStart) { output in
                withUnsafeTemporaryAllocation(of: RouteSegmentRange.self, capacity: layout.slashCount + 1) { ranges in
                    switch RouteStringParser.decodePath(raw, layout, into: output, segments: ranges) {
                    case .failure(let reason):
                        return .failure(reason)
                    case .success(let count):
                        let path = UnsafeBufferPointer(output)
                        let segments = UnsafeBufferPointer(rebasing: ranges[0..<count])
                        guard let index = trie.match(path, segments) else { return .success(nil) }
                        if let reason = catchAllProblem(of: index, path, segments) { return .failure(reason) }
                        return .success((index, parameters(of: index, path, segments)))
                    }
                }
            }

        // The query is checked even when nothing matched, so a malformed route is always
        // reported as malformed rather than as not found.
        var queryValues: [String: [String]] = [:]
        if let range = layout.query, !range.isEmpty {
            do { queryValues = try QueryString.parse(bytes: UnsafeBufferPointer(rebasing: raw[range])) } catch {
                return .failure(.malformed(route, reason: error))
            }
        }

        switch matched {
        case .failure(let reason):
            return .failure(.malformed(route, reason: reason))
        case .success(nil):
            return .failure(.notFound(route))
        case .success(let found?):
            return .success(ResolvedRoute(index: found.index, parameters: found.parameters, queryValues: queryValues))
        }
    }

    /// A catch-all value is split at '/' by whoever reads it, and the route's segments were
    /// checked before decoding: an encoded separator (`%2F`) inside a segment would bring back
    /// the empty and dot parts the segment checks keep out (`f/a%2F..%2Fb`). Nil when every
    /// part of each catch-all value is a non-empty, non-dot part (docs: the `<path:>` guarantee).
    private func catchAllProblem(
        of route: Int, _ path: UnsafeBufferPointer<UInt8>, _ segments: UnsafeBufferPointer<RouteSegmentRange>
    ) -> MalformedRouteReason? {
        for capture in captures[route] where capture.isCatchAll {
            for number in capture.segmentIndex..<segments.count {
                let range = segments[number]
                let segment = UnsafeBufferPointer(rebasing: path[range.start..<range.end])
                guard segment.contains(UInt8(ascii: "/")) else { continue }
                for part in segment.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                    if part.isEmpty { return .encodedEmptyPart(in: .segment(number + 1)) }
                    if RouteSegmentMatcher.isDotSegment(UnsafeBufferPointer(rebasing: part)) {
                        return .dotSegment(String(decoding: part, as: UTF8.self), in: .segment(number + 1))
                    }
                }
            }
        }
        return nil
    }

    private func parameters(
        of route: Int, _ path: UnsafeBufferPointer<UInt8>, _ segments: UnsafeBufferPointer<RouteSegmentRange>
    ) -> [String: String] {
        let routeCaptures = captures[route]
        guard !routeCaptures.isEmpty else { return [:] }
        var parameters = [String: String](minimumCapacity: routeCaptures.count)
        for capture in routeCaptures {
            let start = segments[capture.segmentIndex].start
            // The decoded path keeps its '/' separators, so a catch-all is one contiguous range.
            let end = capture.isCatchAll ? segments[segments.count - 1].end : segments[capture.segmentIndex].end
            parameters[capture.name] = String(decoding: UnsafeBufferPointer(rebasing: path[start..<end]), as: UTF8.self)
        }
        return parameters
    }
}
