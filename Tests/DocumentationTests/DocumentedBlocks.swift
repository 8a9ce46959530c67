import Foundation
import FulfillmentLedgerTesting
import Testing

/// Every ```swift block of README.md and Docs/ is code the tests compile, line for line, or is
/// listed below with the reason it cannot be. A block is found by the HTML comment on the line
/// before it (`<!-- name -->`); its code stands between `// BEGIN <page> <name>` and
/// `// END <page> <name>` in a Swift file under Tests/ or Examples/, its `import` lines at the top of
/// that file. A new block without a marker fails `everySwiftBlockIsCheckedOrExcused`.
@Suite struct DocumentedBlocks {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The pages searched.
    static var pages: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
    }
    /// Blocks shown but not compiled: the page, a line of the block, and why.
    static let excused: [(page: String, line: String, reason: String)] = [
        ("README.md", "dependencies: [",
         "a fragment of the reader's own Package.swift; theReadmeDependenciesNameRealProducts checks its product names"),
        ("Docs/Integration.md", "import Logging", "swift-log is an outside package, which this package may not depend on"),
        ("Docs/Integration.md", "import Metrics", "swift-metrics is an outside package, which this package may not depend on"),
        ("Docs/Architecture.md", "public init(",
         "the signature of Ledger.init; theLedgerInitSignatureIsTheSource finds it in Sources/FulfillmentLedger/Ledger.swift"),
    ]

    /// Modules of the reader's own that examples import (`MyStore`, the reader's store in
    /// Architecture.md); the compiled file stands in for them.
    static let readerModules: Set<String> = ["MyStore"]
    /// Most Swift files read under Tests/ and Examples/ when looking for BEGIN markers.
    static let sourceFileCountMax = 2_000

    /// A ```swift block of a page: its marker, if any, and its lines.
    struct Block {
        var page: String
        var marker: String?
        var lines: [String]
    }

    static func blocks() throws -> [Block] {
        var blocks: [Block] = []
        for page in pages {
            let lines = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
                .components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                    index += 1
                    continue
                }
                let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" } ?? lines.count
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                let marker = previous.hasPrefix("<!-- ") && previous.hasSuffix(" -->")
                    ? String(previous.dropFirst(5).dropLast(4)) : nil
                blocks.append(Block(page: page, marker: marker, lines: Array(lines[(index + 1)..<end])))
                index = end + 1
            }
        }
        return blocks
    }

    /// The text of every Swift file under Tests/ and Examples/.
    static func testSources() throws -> [String] {
        var sources: [String] = []
        for folder in ["Tests", "Examples"] {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                guard sources.count < sourceFileCountMax else { break }
                sources.append(try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
            }
        }
        return sources
    }

    @Test func everySwiftBlockIsCheckedOrExcused() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 29)
        for block in blocks where block.marker == nil {
            let lines = block.lines.map { $0.trimmingCharacters(in: .whitespaces) }
            let excuse = Self.excused.first { $0.page == block.page && lines.contains($0.line) }
            #expect(excuse != nil, "\(block.page): a block starting \(lines.first ?? "") has no <!-- marker --> and no excuse")
        }
    }

    @Test func theLedgerInitSignatureIsTheSource() throws {
        let block = try #require(try Self.blocks().first { $0.page == "Docs/Architecture.md" && $0.lines.first == "public init(" })
        let source = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Sources/FulfillmentLedger/Ledger.swift"), encoding: .utf8)
        let signature = block.lines.map { "    " + $0 }.joined(separator: "\n")
        #expect(source.contains(signature), "Architecture.md shows a Ledger.init that is not the source's")
    }

    @Test func everyMarkedBlockIsTheCompiledCode() throws {
        let sources = try Self.testSources()
        for block in try Self.blocks() {
            guard let marker = block.marker else { continue }
            let begin = "// BEGIN \(block.page) \(marker)"
            let matching = sources.filter { source in
                source.contains(begin) && source.components(separatedBy: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == begin }
            }
            guard matching.count == 1, let source = matching.first else {
                Issue.record("\(begin): found in \(matching.count) files")
                continue
            }
            let compiled = try #require(DocumentedExample.lines(of: source, from: begin, to: "// END \(block.page) \(marker)"))
            let indent = block.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            let documented = block.lines.map { String($0.dropFirst(indent)) }
            #expect(compiled.count >= 2, "\(begin)")
            let code = documented.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }
            #expect(code.elementsEqual(compiled), "\(block.page) \(marker): the page differs from the compiled code")
            for line in documented where line.hasPrefix("import ") && !Self.readerModules.contains(String(line.dropFirst(7))) {
                #expect(("\n" + source).contains("\n\(line)\n"), "\(block.page) \(marker): the compiled file lacks \(line)")
            }
        }
    }

    /// The README's Package.swift fragment names products this package has.
    @Test func theReadmeDependenciesNameRealProducts() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let block = try #require(try Self.blocks().first { $0.page == "README.md" && $0.lines.first == "dependencies: [" })
        let names = block.lines.compactMap { line -> String? in
            guard let range = line.range(of: #".product(name: ""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(names.count == 4)
        for name in names { #expect(manifest.contains(".library(name: \"\(name)\""), "\(name)") }
    }
}
