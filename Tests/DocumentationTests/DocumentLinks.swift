import Foundation
import Testing

/// Every relative link of README.md, CHANGELOG.md and Docs/ names a file that exists, and every
/// `#anchor` names a heading of its page, as GitHub makes anchors from headings.
@Suite struct DocumentLinks {
    /// The pages checked, relative to the package root.
    static var pages: [String] { ["README.md", "CHANGELOG.md"] + DocumentedBlocks.pages.filter { $0 != "README.md" } }
    /// Most links read from one page.
    static let linkCountMax = 5_000

    @Test("every relative link names a file that exists, and every anchor a heading of its page")
    func linksResolve() throws {
        var broken: [String] = []
        var checkedCount = 0
        for page in Self.pages {
            let url = DocumentedBlocks.packageRoot.appendingPathComponent(page)
            let text = try String(contentsOf: url, encoding: .utf8)
            for target in Self.links(in: text).prefix(Self.linkCountMax) {
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                checkedCount += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let file = path.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(page): \(target) (no such file)")
                    continue
                }
                guard let anchor, file.pathExtension == "md" else { continue }
                let headings = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
                if !headings.contains(anchor) { broken.append("\(page): \(target) (no such heading)") }
            }
        }
        #expect(checkedCount > 100)
        #expect(broken == [], "\(broken.joined(separator: "\n"))")
    }

    @Test("anchors are made from headings as GitHub makes them")
    func anchorsFollowGitHub() {
        let text = "# Architecture\n## A key names the purchase, not the delivery\n## `ledger serve`: the sidecar\n## Refunds\n## Refunds\n```\n# not a heading\n```\n"
        #expect(
            Self.anchors(of: text) == [
                "architecture", "a-key-names-the-purchase-not-the-delivery", "ledger-serve-the-sidecar", "refunds", "refunds-1",
            ])
    }

    /// The link targets of a page's Markdown, outside code blocks and code spans.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            // Code spans are not links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].split(separator: " ").first.map(String.init) ?? ""
                if !target.isEmpty { targets.append(target) }
                rest = after[close...]
            }
        }
        return targets
    }

    /// The anchors of a page's headings, outside code blocks: lowercased, with punctuation other
    /// than hyphens and underscores dropped and spaces made hyphens; a repeated one gets `-1`, `-2`.
    static func anchors(of text: String) -> [String] {
        var anchors: [String] = []
        var seen: [String: Int] = [:]
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            var anchor = ""
            for character in title.lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" {
                    anchor.append(character)
                } else if character == " " {
                    anchor.append("-")
                }
            }
            let count = seen[anchor, default: 0]
            seen[anchor] = count + 1
            anchors.append(count == 0 ? anchor : "\(anchor)-\(count)")
        }
        return anchors
    }
}
