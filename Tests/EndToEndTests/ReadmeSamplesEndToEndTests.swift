import DenTestSupport
import Foundation
import Testing

/// The README's sample sessions of the Main and module-settings sections are what `den` prints:
/// each `$ den …` line in those code blocks is run, and the lines under it must be its output
/// (standard output, or the `Error:` line on standard error for a refused command).
@Suite("README samples, end to end")
struct ReadmeSamplesEndToEndTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    struct Sample: CustomStringConvertible, Sendable {
        var command: [String]
        var output: String
        var description: String { "den " + command.joined(separator: " ") }
    }

    /// The `$ den` commands of the code blocks between `## The Main module` and `## Using the terminal`.
    static func samples() throws -> [Sample] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "## The Main module"), let end = text.range(of: "## Using the terminal front-end") else {
            return []
        }
        var samples: [Sample] = []
        var inBlock = false
        // The sample being read; a code block without a `$ den` line (a shell script) has none.
        var current: Int?
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle(); current = nil; continue }
            guard inBlock else { continue }
            if line.hasPrefix("$ den ") {
                samples.append(Sample(command: line.dropFirst(6).split(separator: " ").map(String.init), output: ""))
                current = samples.count - 1
            } else if let current {
                samples[current].output += (samples[current].output.isEmpty ? "" : "\n") + line
            }
        }
        return samples
    }

    @Test("the README's Main and settings sections show real sessions")
    func samplesExist() throws {
        #expect(try Self.samples().count >= 4)
    }

    @Test("each README sample prints what the README shows", arguments: try samples())
    func sample(_ sample: Sample) throws {
        let result = try DenCommand().run(sample.command)
        let stdout = result.stdout.trimmingCharacters(in: .newlines)
        if sample.output.hasPrefix("Error: ") {
            #expect(result.status == 1)
            #expect(result.stderr.contains(sample.output), "\(result.stderr)")
        } else {
            #expect(stdout == sample.output, "README:\n\(sample.output)\nden printed:\n\(stdout)")
        }
    }
}
