import Hummingbird

/// The request context of `den serve`. Bodies are read with `WebLimits.maxBodyBytes` by the form
/// handlers themselves (so an oversized post gets den's own 413 page); this upload size is the
/// same 64 KiB, for anything in Hummingbird that reads a body on its own.
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { WebLimits().maxBodyBytes }
}
