import Foundation

/// A ```console block of a page: the shell sample a reader copies, with the output it shows.
///
/// Lines starting with `$ ` are commands; a command continues on the next line while its line
/// ends with ` \`. Every other line is the expected output of the command above it, standard
/// output then standard error. In expected output `…` matches any run of characters within one
/// line, and a line that is only `…` matches any number of lines, none included. HTML comments
/// on the lines right before the fence say more: `<!-- sample-setup: COMMAND -->` runs COMMAND
/// first, unseen; `<!-- sample: not run: REASON -->` leaves the block unrun, for the reason given.
struct ShellSample: Sendable {
    /// One command of the block and the output the page shows for it.
    struct Step: Sendable {
        /// The command as the shell reads it (continuation lines kept).
        var command: String
        /// The lines the page shows after it.
        var expected: [String]
    }

    /// The page, relative to the package root.
    var page: String
    /// The line of the opening fence, counted from 1.
    var line: Int
    /// Hidden commands run before the block.
    var setup: [String]
    /// Why the block is not run, when it is not.
    var notRunReason: String?
    /// The commands and their outputs.
    var steps: [Step]

    /// Most lines one block may hold; a longer block is a mistake in the page.
    static let lineCountMax = 400
    static let setupPrefix = "<!-- sample-setup: "
    static let notRunPrefix = "<!-- sample: not run: "
    static let commentSuffix = " -->"

    /// A mistake in how a page writes a sample.
    struct FormError: Error, CustomStringConvertible {
        var description: String
    }

    /// The console blocks of `text`, the page `page`, in order.
    static func samples(in text: String, page: String) throws(FormError) -> [ShellSample] {
        let lines = text.components(separatedBy: "\n")
        var samples: [ShellSample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```console" else {
                index += 1
                continue
            }
            guard let end = lines[(index + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" })
            else { throw FormError(description: "\(page):\(index + 1): a console block is never closed") }
            guard end - index - 1 <= lineCountMax else {
                throw FormError(description: "\(page):\(index + 1): a console block longer than \(lineCountMax) lines")
            }
            var sample = ShellSample(page: page, line: index + 1, setup: [], notRunReason: nil, steps: [])
            try sample.readComments(before: index, of: lines)
            sample.steps = try steps(of: Array(lines[(index + 1)..<end]), page: page, line: index + 1)
            samples.append(sample)
            index = end + 1
        }
        return samples
    }

    /// Reads the sample comments stacked right above the fence at `fence`.
    private mutating func readComments(before fence: Int, of lines: [String]) throws(FormError) {
        var index = fence - 1
        while index >= 0 {
            let comment = lines[index].trimmingCharacters(in: .whitespaces)
            guard comment.hasSuffix(Self.commentSuffix) else { break }
            if comment.hasPrefix(Self.setupPrefix) {
                setup.insert(String(comment.dropFirst(Self.setupPrefix.count).dropLast(Self.commentSuffix.count)), at: 0)
            } else if comment.hasPrefix(Self.notRunPrefix) {
                notRunReason = String(comment.dropFirst(Self.notRunPrefix.count).dropLast(Self.commentSuffix.count))
            } else {
                break
            }
            index -= 1
        }
        if let reason = notRunReason, reason.trimmingCharacters(in: .whitespaces).isEmpty {
            throw FormError(description: "\(page):\(line): a block not run must say why")
        }
    }

    /// The commands of a block's body and the output shown after each.
    private static func steps(of body: [String], page: String, line: Int) throws(FormError) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < body.count {
            let text = body[index]
            guard text.hasPrefix("$ ") else {
                guard !steps.isEmpty else {
                    throw FormError(description: "\(page):\(line): output before the first `$ ` command")
                }
                steps[steps.count - 1].expected.append(text)
                index += 1
                continue
            }
            var command = String(text.dropFirst(2))
            while command.hasSuffix(" \\"), index + 1 < body.count {
                index += 1
                command += "\n" + body[index]
            }
            steps.append(Step(command: command, expected: []))
            index += 1
        }
        for step in steps.indices {
            while steps[step].expected.last?.isEmpty == true { steps[step].expected.removeLast() }
        }
        return steps
    }
}
