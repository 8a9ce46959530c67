import Foundation

/// The one strict decoding path for every JSON document the project reads from outside (a
/// command's standard input, an HTTP body, a purchases file), as strict as the catalog loader: the
/// project's parser (RFC 8259, no duplicate keys, no trailing comma, bounded depth and size), every
/// field the input type does not know refused as unknown (with a "did you mean" for a near miss),
/// types and ranges checked by the type's own decoding, and every problem located by JSON path,
/// line and column.
package enum StrictJSON {
    /// Most problems reported for one document; the rest are counted.
    package static let problemCountMax = 20

    /// Decodes `data` as `T`, or throws every problem found, located.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(StrictJSONError) -> T {
        try decode(type, root: try parse(data))
    }

    /// Parses `data` with the project's strict parser.
    package static func parse(_ data: Data) throws(StrictJSONError) -> JSONValue {
        do {
            return try JSONParser().parse(Array(data))
        } catch {
            throw StrictJSONError([.init(path: "$", message: "not valid JSON: \(error.message)", position: error.position)])
        }
    }

    /// Decodes a parsed document as `T`, or throws every problem found, located.
    package static func decode<T: Decodable>(_ type: T.Type, root: JSONValue) throws(StrictJSONError) -> T {
        let log = JSONKeyLog()
        let decoder = JSONValueDecoder(value: root, codingPath: [], log: log)
        let decoded: T
        do {
            decoded = try decoder.decodeValue(T.self)
        } catch let error as DecodingError {
            throw StrictJSONError(problems(error, root: root, log: log))
        } catch {
            throw StrictJSONError([.init(path: "$", message: "\(error)", position: root.position)])
        }
        let unknown = unknownFields(log, onlyTyposOf: nil)
        guard unknown.isEmpty else { throw StrictJSONError(unknown) }
        return decoded
    }

    /// A decoding error as problems. A missing field misspelled in the input is reported as the
    /// unknown field it is, with the fix, rather than as missing.
    private static func problems(_ error: DecodingError, root: JSONValue, log: JSONKeyLog) -> [StrictJSONError.Problem] {
        let context: DecodingError.Context
        switch error {
        case .keyNotFound(let key, let keyContext):
            let typos = unknownFields(log, onlyTyposOf: key.stringValue)
            if !typos.isEmpty { return typos }
            context = keyContext
        case .typeMismatch(_, let errorContext), .valueNotFound(_, let errorContext), .dataCorrupted(let errorContext):
            context = errorContext
        @unknown default:
            return [.init(path: "$", message: "\(error)", position: root.position)]
        }
        return [.init(path: pathText(context.codingPath), message: context.debugDescription, position: position(of: context.codingPath, in: root))]
    }

    /// Fields of visited objects their type never asked for, in document order; with `key`, only
    /// near misses of it.
    private static func unknownFields(_ log: JSONKeyLog, onlyTyposOf key: String?) -> [StrictJSONError.Problem] {
        var problems: [StrictJSONError.Problem] = []
        for visit in log.visits.values where !visit.acceptsAll {
            for member in visit.object.members where !visit.asked.contains(member.key) {
                let suggestion = EditDistance.nearest(to: member.key, in: visit.asked)
                if let key, suggestion != key { continue }
                let hint = suggestion.map { "did you mean \"\($0)\"?" }
                    ?? "allowed here: " + visit.asked.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                problems.append(
                    .init(
                        path: pathText(visit.path) + ".\(member.key)", message: "unknown field \"\(member.key)\" (a typo?); \(hint)",
                        position: member.keyPosition))
            }
        }
        return problems.sorted { $0.position.offset < $1.position.offset }
    }

    /// `$.transactions[0].quantity`.
    package static func pathText(_ path: [any CodingKey]) -> String {
        "$" + path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    /// Where the value at `path` starts: the deepest part of the path the document has.
    private static func position(of path: [any CodingKey], in root: JSONValue) -> JSONPosition {
        var value = root
        for key in path {
            switch value {
            case .object(let object, _):
                guard let member = object[key.stringValue] else { return value.position }
                value = member
            case .array(let elements, _):
                guard let index = key.intValue, elements.indices.contains(index) else { return value.position }
                value = elements[index]
            default:
                return value.position
            }
        }
        return value.position
    }
}

/// Why a JSON input was refused: each problem with its JSON path, line and column.
package struct StrictJSONError: Error {
    /// One located problem.
    package struct Problem {
        package var path: String
        package var message: String
        package var position: JSONPosition

        package init(path: String, message: String, position: JSONPosition) {
            self.path = path
            self.message = message
            self.position = position
        }
    }

    package var problems: [Problem]

    package init(_ problems: [Problem]) { self.problems = problems }

    /// One line per problem, `SOURCE:LINE:COLUMN: PATH: message`, at most `problemCountMax`.
    package func lines(source: String) -> [String] {
        var lines = problems.prefix(StrictJSON.problemCountMax).map {
            "\(source):\($0.position.line):\($0.position.column): \($0.path): \($0.message)"
        }
        if problems.count > StrictJSON.problemCountMax {
            lines.append("\(source): \(problems.count - StrictJSON.problemCountMax) more problem(s)")
        }
        return lines
    }

    /// The error body of the refused input: `input.invalid` with the first problem's place and
    /// at most `problemCountMax` problems; `expected` says what the input should have been.
    package func body(expected: String) -> LedgerErrorBody {
        LedgerErrorBody.invalidInput(
            "not \(expected)",
            problems: problems.prefix(StrictJSON.problemCountMax).map {
                LedgerErrorBody.Problem(
                    path: $0.path, message: $0.message, line: $0.position.line, column: $0.position.column)
            })
    }
}
