import Hummingbird

/// The request context of `den serve`. Bodies are read with `WebLimits.maxBodyBytes` by the form
/// handlers themselves (so an oversized post gets den's own 413 page); this upload size is the
/// same 64 KiB, for anything in Hummingbird that reads a body on its own.
package struct WebRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The peer's IP address, nil when there is none (HummingbirdTesting's router client).
    package var peerAddress: String?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    package var maxUploadSize: Int { WebLimits().maxBodyBytes }
}
