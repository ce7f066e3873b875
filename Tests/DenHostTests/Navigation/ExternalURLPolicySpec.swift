import DenHost
import Testing

@Suite("Which URLs a module may open")
struct ExternalURLPolicySpec {
    @Test("http, https (with a host) and mailto pass", arguments: [
        "https://example.org/a?b=c#d", "HTTP://EXAMPLE.ORG", "mailto:ada@example.org", "https://例え.jp/パス",
    ])
    func allowed(url: String) {
        #expect(ExternalURLPolicy.refusal(for: url) == nil)
    }

    @Test("anything else is refused with the reason", arguments: [
        ("javascript:alert(1)", "scheme 'javascript' is not allowed"),
        ("JaVaScRiPt:alert(1)", "scheme 'javascript' is not allowed"),
        ("data:text/html,<b>x</b>", "scheme 'data' is not allowed"),
        ("file:///etc/passwd", "scheme 'file' is not allowed"),
        ("https:///nohost", "names no host"),
        ("example.org", "has no scheme"),
        ("https://example.org/\u{9B}31m", "control or invisible formatting"),
        ("https://example.org/\u{202E}gnp.exe", "control or invisible formatting"),
        ("mailto:ada@example.org\u{2028}x", "control or invisible formatting"),
        (" https://example.org", "spaces"),
    ])
    func refused(url: String, reason: String) {
        #expect(ExternalURLPolicy.refusal(for: url)?.contains(reason) == true, "\(String(describing: ExternalURLPolicy.refusal(for: url)))")
    }
}
