import Foundation
import Testing

/// The guides and reference stay readable in about an hour: Docs/*.md together stay under a
/// byte budget. Measurement history belongs in CHANGELOG.md, API detail in the `///` comments.
@Suite struct DocumentationSize {
    /// Most bytes of Markdown under Docs/, all pages together: 250 KiB.
    static let docsByteCountMax = 250 * 1_024

    @Test("Docs/*.md together stay under 250 KiB")
    func docsStayShort() throws {
        var total = 0
        var sizes: [String] = []
        for page in DocumentedBlocks.pages where page.hasPrefix("Docs/") {
            let size = try Data(contentsOf: DocumentedBlocks.packageRoot.appendingPathComponent(page)).count
            total += size
            sizes.append("\(page) \(size)")
        }
        #expect(sizes.count >= 15)
        #expect(total < Self.docsByteCountMax, "Docs/*.md hold \(total) bytes:\n\(sizes.joined(separator: "\n"))")
    }
}
