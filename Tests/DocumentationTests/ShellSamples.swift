import Foundation
import FulfillmentLedgerTesting
import Testing

/// Every shell sample of README.md and Docs/ that shows output is run against the built
/// `ledger`, and its output must be what the page shows (ShellSample says how a page writes one,
/// and how `…` masks times, hashes and IDs). A doc that drifts from the binary fails here.
@Suite struct ShellSamples {
    /// The samples of one page.
    static func samples(of page: String) throws -> [ShellSample] {
        let text = try String(contentsOf: DocumentedBlocks.packageRoot.appendingPathComponent(page), encoding: .utf8)
        return try ShellSample.samples(in: text, page: page)
    }

    static func runner() throws -> ShellSampleRunner {
        ShellSampleRunner(executable: try #require(ShellSampleRunner.executable, "build the ledger executable first (swift build)"))
    }

    @Test("each page's console samples print what the page shows", arguments: DocumentedBlocks.pages)
    func samplesMatchTheBinary(page: String) async throws {
        let samples = try Self.samples(of: page)
        guard samples.contains(where: { $0.notRunReason == nil }) else { return }
        let runner = try Self.runner()
        let result = try await onOwnThread { try runner.run(samples) }
        #expect(result.commandCount > 0)
        #expect(result.mismatches.isEmpty, "\(result.mismatches.map(\.description).joined(separator: "\n\n"))")
    }

    @Test("the pages run many samples and leave few unrun, each with its reason")
    func samplesAreCounted() throws {
        var runCount = 0
        var notRun: [String] = []
        for page in DocumentedBlocks.pages {
            for sample in try Self.samples(of: page) {
                if let reason = sample.notRunReason {
                    notRun.append("\(page):\(sample.line): \(reason)")
                } else {
                    runCount += sample.steps.count
                }
            }
        }
        #expect(runCount >= 30, "only \(runCount) sample commands run")
        #expect(notRun.count <= runCount / 3, "too many samples are not run:\n\(notRun.joined(separator: "\n"))")
    }

    @Test("a sample with output is never written outside a console block, where it would not be run")
    func promptsOnlyInConsoleBlocks() throws {
        var stray: [String] = []
        for page in DocumentedBlocks.pages {
            let lines = try String(contentsOf: DocumentedBlocks.packageRoot.appendingPathComponent(page), encoding: .utf8)
                .components(separatedBy: "\n")
            var fence: String?
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") {
                    fence = fence == nil ? String(trimmed.dropFirst(3)) : nil
                } else if let language = fence, language != "console", trimmed.hasPrefix("$ ") {
                    stray.append("\(page):\(index + 1): a `$ ` prompt in a ```\(language) block")
                } else if fence == nil, trimmed.hasPrefix("<!-- sample"),
                    !trimmed.hasPrefix(ShellSample.setupPrefix), !trimmed.hasPrefix(ShellSample.notRunPrefix)
                {
                    stray.append("\(page):\(index + 1): a sample comment of an unknown form")
                }
            }
        }
        #expect(stray.isEmpty, "\(stray.joined(separator: "\n"))")
    }

    @Test("a deliberately changed sample fails")
    func aChangedSampleFails() async throws {
        let text = """
            ```console
            $ ledger catalog check ProductCatalog.json
            ProductCatalog.json: valid: …
            ```
            """
        let sample = try #require(ShellSample.samples(in: text, page: "changed.md").first)
        let runner = try Self.runner()
        let honest = try await onOwnThread { try runner.run([sample]) }
        #expect(honest.commandCount == 1)
        #expect(honest.mismatches.isEmpty, "\(honest.mismatches.map(\.description))")
        var changed = sample
        changed.steps[0].expected = ["ProductCatalog.json: invalid: …"]
        let changedSample = changed
        let drifted = try await onOwnThread { try runner.run([changedSample]) }
        #expect(drifted.mismatches.count == 1)
        var longer = sample
        longer.steps[0].expected.append("a line the binary never prints")
        let longerSample = longer
        let extra = try await onOwnThread { try runner.run([longerSample]) }
        #expect(extra.mismatches.count == 1)
    }

    @Test("… masks part of a line or any number of lines, and nothing else")
    func maskMatching() {
        #expect(SampleOutputMatcher.matches(expected: ["a 1…9 b"], actual: ["a 12349 b"]))
        #expect(!SampleOutputMatcher.matches(expected: ["a 1…9 b"], actual: ["a 12348 b"]))
        #expect(SampleOutputMatcher.matches(expected: ["x", "…", "z"], actual: ["x", "z"]))
        #expect(SampleOutputMatcher.matches(expected: ["x", "…", "z"], actual: ["x", "y", "y", "z"]))
        #expect(!SampleOutputMatcher.matches(expected: ["x", "…", "z"], actual: ["x", "y"]))
        #expect(SampleOutputMatcher.matches(expected: ["…"], actual: []))
        #expect(!SampleOutputMatcher.matches(expected: [], actual: ["unexpected"]))
        #expect(SampleOutputMatcher.matches(expected: ["padded"], actual: ["padded   "]))
        #expect(!SampleOutputMatcher.lineMatches(pattern: "ab…ba", line: "aba"))
        #expect(SampleOutputMatcher.lineMatches(pattern: "ab…ba", line: "abba"))
    }

    @Test("a page's comments and continuation lines are read as the reader sees them")
    func sampleForm() throws {
        let text = """
            <!-- sample-setup: touch a -->
            <!-- sample-setup: touch b -->
            ```console
            $ printf 'one\\n' \\
                && echo two
            one
            two

            $ true
            ```
            <!-- sample: not run: needs a store's keys -->
            ```console
            $ ledger appstore verify
            ```
            """
        let samples = try ShellSample.samples(in: text, page: "form.md")
        #expect(samples.count == 2)
        #expect(samples[0].setup == ["touch a", "touch b"])
        #expect(samples[0].steps.map(\.command) == ["printf 'one\\n' \\\n    && echo two", "true"])
        #expect(samples[0].steps[0].expected == ["one", "two"])
        #expect(samples[0].steps[1].expected == [])
        #expect(samples[1].notRunReason == "needs a store's keys")
        #expect(throws: ShellSample.FormError.self) { try ShellSample.samples(in: "```console\nstray\n```", page: "x.md") }
    }
}
