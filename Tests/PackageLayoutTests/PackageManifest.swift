import Foundation

/// The targets and library products `Package.swift` declares, read from its text: enough of
/// the manifest to check the layout without running SwiftPM.
struct PackageManifest {
    /// Most declarations read; the manifest holds a few dozen.
    static let declarationCountMax = 1_000

    /// Each target's direct dependencies, by target name.
    private(set) var dependencies: [String: [String]] = [:]
    /// Each library product's targets, by product name.
    private(set) var libraries: [String: [String]] = [:]
    /// The test targets' names.
    private(set) var testTargets: Set<String> = []

    /// Reads the declarations of `text`, a manifest; line comments are ignored.
    init(_ text: String) {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        for kind in [".target(", ".executableTarget(", ".testTarget(", ".systemLibrary("] {
            for body in Self.calls(kind, in: code) {
                guard let name = Self.quoted(after: "name:", in: body).first else { continue }
                dependencies[name] = Self.quoted(after: "dependencies:", in: body)
                if kind == ".testTarget(" { testTargets.insert(name) }
            }
        }
        for body in Self.calls(".library(", in: code) {
            guard let name = Self.quoted(after: "name:", in: body).first else { continue }
            libraries[name] = Self.quoted(after: "targets:", in: body)
        }
    }

    /// Every target `target` depends on, directly or through others.
    func closure(of target: String) -> Set<String> {
        var found: Set<String> = []
        var waiting = dependencies[target] ?? []
        while found.count < Self.declarationCountMax, let next = waiting.popLast() {
            guard found.insert(next).inserted else { continue }
            waiting += dependencies[next] ?? []
        }
        return found
    }

    /// The argument lists of every call that starts with `opening` (which ends in `(`).
    private static func calls(_ opening: String, in code: String) -> [Substring] {
        var bodies: [Substring] = []
        var searchStart = code.startIndex
        while bodies.count < declarationCountMax, let found = code.range(of: opening, range: searchStart..<code.endIndex) {
            let end = closing(of: "(", ")", from: found.upperBound, in: code)
            bodies.append(code[found.upperBound..<end])
            searchStart = end
        }
        return bodies
    }

    /// The string literals after `label`: the one that follows it, or all of the `[...]` list
    /// that follows it.
    private static func quoted(after label: String, in body: Substring) -> [String] {
        guard let found = body.range(of: label) else { return [] }
        let rest = body[found.upperBound...].drop { $0 == " " || $0 == "\n" }
        let scope: Substring
        if rest.first == "[" {
            scope = rest[rest.startIndex..<closing(of: "[", "]", from: rest.index(after: rest.startIndex), in: rest)]
        } else {
            scope = rest.prefix { $0 != "," && $0 != ")" }
        }
        return scope.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The index of the `close` that balances the `open` just before `start`, or the end.
    private static func closing<S: StringProtocol>(
        of open: Character, _ close: Character, from start: S.Index, in text: S
    ) -> S.Index {
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }
}
