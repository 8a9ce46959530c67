/// Checks that code shown in the docs is code the tests compile: the lines of a documented block
/// and of a compiled one, compared line for line.
public enum DocumentedExample {
    /// The lines strictly between the line containing `start` (and `skipping` more) and the next
    /// containing `end`, without their common indentation; nil when either marker is missing.
    public static func lines(of text: String, from start: String, to end: String, skipping: Int = 1) -> [String]? {
        let all = text.components(separatedBy: "\n")
        guard let first = all.firstIndex(where: { $0.contains(start) }), first + skipping <= all.count else { return nil }
        let rest = all[(first + skipping)...]
        guard let last = rest.firstIndex(where: { $0.contains(end) }) else { return nil }
        let body = Array(all[(first + skipping)..<last])
        let indent = body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return body.map { String($0.dropFirst(indent)) }
    }
}
