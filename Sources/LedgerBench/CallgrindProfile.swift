import Foundation

/// The instructions of one callgrind run, in all and by the object (executable or shared
/// library) that executed them: instructions are counted, not timed, so the same binary on the
/// same input gives the same figures whatever else the machine is doing.
struct CallgrindProfile: Equatable {
    /// Instructions executed by every thread of the run (`summary:` or `totals:`).
    var total: Int
    /// Instructions executed in each object's own code (self cost), by the object's file name.
    var byObject: [String: Int]

    /// Most lines read from one output file: far more than a run of the bench writes.
    static let lineCountMax = 20_000_000

    /// Reads a callgrind output file (`--dump-instr=no`, the default), or nil when it is
    /// missing, malformed, or has no total.
    ///
    /// The format: `ob=` names the object of the functions that follow, written `(id) name`
    /// the first time and `(id)` after; a cost line is a position and the instructions spent
    /// there; a `calls=` line is followed by one cost line, the inclusive cost of that call,
    /// which belongs to the callee and is skipped here.
    static func read(_ file: URL) -> CallgrindProfile? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        var names: [String: String] = [:]
        var object = "?"
        var byObject: [String: Int] = [:]
        var total: Int?
        var skipNextCost = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(lineCountMax) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                if skipNextCost {
                    skipNextCost = false
                    continue
                }
                let fields = line.split(separator: " ")
                guard fields.count >= 2, let cost = Int(fields[1]) else { continue }
                byObject[object, default: 0] += cost
            } else if line.hasPrefix("ob=") {
                object = resolve(line.dropFirst(3), names: &names)
            } else if line.hasPrefix("calls=") {
                skipNextCost = true
            } else if line.hasPrefix("summary: ") || line.hasPrefix("totals: ") {
                total = Int(line.split(separator: " ").dropFirst().first ?? "")
            } else if line.hasPrefix("cob=") {
                // Names a callee's object for the next call: record a first naming, keep `object`.
                _ = resolve(line.dropFirst(4), names: &names)
            }
        }
        guard let total else { return nil }
        return CallgrindProfile(total: total, byObject: byObject)
    }

    /// The file name of a compressed `(id) name` or `(id)` reference, remembering new names.
    private static func resolve(_ reference: Substring, names: inout [String: String]) -> String {
        guard reference.hasPrefix("("), let close = reference.firstIndex(of: ")") else {
            return URL(fileURLWithPath: String(reference)).lastPathComponent
        }
        let id = String(reference[reference.index(after: reference.startIndex)..<close])
        let rest = reference[reference.index(after: close)...].trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { names[id] = URL(fileURLWithPath: rest).lastPathComponent }
        return names[id] ?? "(\(id))"
    }

    /// What `other` ran beyond this profile: the difference of two runs that differ only in
    /// how many fulfillments they made.
    func growth(to other: CallgrindProfile) -> CallgrindProfile {
        var byObject: [String: Int] = [:]
        for name in Set(self.byObject.keys).union(other.byObject.keys) {
            byObject[name] = (other.byObject[name] ?? 0) - (self.byObject[name] ?? 0)
        }
        return CallgrindProfile(total: other.total - total, byObject: byObject)
    }
}
