/// Finds the modules a Swift source file imports, in every form: `import M`, attributed
/// (`@testable import M`, `@_spi(S) import M`) and single-declaration (`import struct M.T`).
enum ImportScanner {
    /// Declaration kinds that may follow `import`.
    static let declarationKinds: Set = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The modules imported by the lines of `source`; comments and strings do not count,
    /// because an import statement starts its line.
    static func modules(in source: String) -> Set<String> {
        var modules: Set<String> = []
        for line in source.split(separator: "\n") {
            var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            var path = words[1]
            if declarationKinds.contains(path), words.count >= 3 { path = words[2] }
            if let module = path.split(separator: ".").first { modules.insert(String(module)) }
        }
        return modules
    }
}
