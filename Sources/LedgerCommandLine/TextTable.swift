import Foundation

/// Rows printed in aligned columns under a header, in a section with a heading: the readable
/// form of the support reads (`player`, `entitlements`, `subscriptions`), one shape for all.
struct TextTable {
    /// The heading line, such as `purchases (newest first)`.
    var title: String
    /// The column names, upper case.
    var header: [String]
    /// The rows, each as many cells as `header` (a missing cell prints empty).
    var rows: [[String]] = []

    /// Adds a row.
    mutating func append(_ row: [String]) { rows.append(row) }

    /// The section's lines: `title:` then the header and rows indented by two spaces, each
    /// column as wide as its widest cell; `title: none` when there are no rows.
    var lines: [String] {
        guard !rows.isEmpty else { return ["\(title): none"] }
        let table = [header] + rows
        let widths = header.indices.map { column in table.map { cell($0, column).count }.max() ?? 0 }
        let formatted = table.map { row in
            var line = header.indices.map { column in
                cell(row, column).padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
            // Trailing padding (of the last column, or of empty cells at the end) is dropped.
            while line.last == " " { line.removeLast() }
            return "  " + line
        }
        return ["\(title):"] + formatted
    }

    /// Prints the section.
    func print(_ io: CommandIO) {
        for line in lines { io.print(line) }
    }

    private func cell(_ row: [String], _ column: Int) -> String { column < row.count ? row[column] : "" }

    /// A date as the readable output shows it: ISO 8601 in UTC to the second.
    static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}
