import Foundation
import Testing

/// Every stable code the package defines (each `var code: Int` switch under Sources/) is listed
/// in Docs/ErrorCodes.md, so a new code cannot ship undocumented.
@Suite struct ErrorCodesDocumented {
    /// Most Swift files read under Sources/.
    static let sourceFileCountMax = 2_000

    /// The codes of every `var code: Int { switch self { case …: N } }` under Sources/, with the file.
    static func definedCodes() throws -> [Int: String] {
        let sources = DocumentedBlocks.packageRoot.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.prefix(sourceFileCountMax)
        let caseLine = try Regex(#"case [^:]+:\s*(?:return )?(\d{3,})\s*$"#)
        var codes: [Int: String] = [:]
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasSuffix("var code: Int {") {
                let indent = line.prefix { $0 == " " }
                for body in lines[(index + 1)...] {
                    if body == indent + "}" { break }
                    if let match = try caseLine.firstMatch(in: body), let number = match.output[1].substring,
                        let code = Int(number)
                    {
                        codes[code] = file
                    }
                }
            }
        }
        return codes
    }

    @Test("ErrorCodes.md lists every code the package defines")
    func everyCodeIsListed() throws {
        let codes = try Self.definedCodes()
        #expect(codes.count > 90, "the scan found only \(codes.count) codes")
        let page = try String(
            contentsOf: DocumentedBlocks.packageRoot.appendingPathComponent("Docs/ErrorCodes.md"), encoding: .utf8)
        let words = Set(page.split { !$0.isNumber }.map(String.init))
        let missing = codes.keys.sorted().filter { !words.contains(String($0)) }.map { "\($0) (\(codes[$0]!))" }
        #expect(missing.isEmpty, "codes missing from Docs/ErrorCodes.md: \(missing.joined(separator: ", "))")
    }
}
