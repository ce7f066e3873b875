import DenWebPages
import Hummingbird
import ServiceLifecycle

/// The two requests only development serves: the event stream and the page script that
/// listens to it. Everything else goes on to the normal handlers.
enum DevRequests {
    static func answer(_ request: Request, events: DevEvents) -> Response? {
        guard request.method == .get else { return nil }
        switch request.uri.path {
        case DevScript.eventsPath:
            return stream(events)
        case DevScript.path:
            var response = WebResponses.asset(DevScript.text, contentType: "text/javascript; charset=utf-8")
            // Development only, and it changes with den: never cached.
            response.headers[.cacheControl] = "no-store"
            return response
        default:
            return nil
        }
    }

    /// `text/event-stream` until the page goes away or den shuts down.
    private static func stream(_ events: DevEvents) -> Response {
        let body = ResponseBody { writer in
            let stream = events.subscribe()
            // A graceful shutdown (Ctrl-C) waits for open responses: end this one then.
            try await withGracefulShutdownHandler {
                for await event in stream {
                    try await writer.write(ByteBuffer(string: event))
                }
            } onGracefulShutdown: {
                events.finish()
            }
            try await writer.finish(nil)
        }
        var response = Response(status: .ok, body: body)
        response.headers[.contentType] = "text/event-stream"
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
