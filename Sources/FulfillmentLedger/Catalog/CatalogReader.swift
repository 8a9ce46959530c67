/// Walks a parsed JSON document and collects problems instead of stopping at the first,
/// so a designer sees every mistake of a catalog in one run.
struct CatalogReader {
    private(set) var problems: [CatalogProblem] = []

    /// Records a problem at a path, located at a value when one is given.
    mutating func report(_ path: String, _ message: String, at value: JSONValue? = nil) {
        problems.append(
            CatalogProblem(path: path, message: message, line: value?.position.line, column: value?.position.column))
    }

    /// Returns the object at `path`, reporting a wrong type and every unknown key.
    mutating func object(
        _ value: JSONValue, at path: String, allowedKeys: Set<String>, requiredKeys: [String]
    ) -> JSONObject? {
        guard case .object(let object, _) = value else {
            report(path, "must be an object, found \(value.typeName)", at: value)
            return nil
        }
        let missing = requiredKeys.filter { object[$0] == nil }
        var explainedMissing: Set<String> = []
        for member in object.members where !allowedKeys.contains(member.key) {
            // A typo of a missing required field is one mistake: report it once, with the fix.
            let suggestion = allowedKeys.sorted().first { EditDistance.isTypo(member.key, of: $0) }
            let hint: String
            if let suggestion {
                hint = "did you mean \"\(suggestion)\"?"
                if missing.contains(suggestion) { explainedMissing.insert(suggestion) }
            } else {
                hint = "allowed here: " + allowedKeys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            }
            problems.append(
                CatalogProblem(
                    path: "\(path).\(member.key)", message: "unknown field \"\(member.key)\" (a typo?); \(hint)",
                    line: member.keyPosition.line, column: member.keyPosition.column))
        }
        for key in missing where !explainedMissing.contains(key) {
            report(path, "missing required field \"\(key)\"", at: value)
        }
        return object
    }

    /// Returns the array at `path`, reporting a wrong type or too many elements.
    mutating func array(_ value: JSONValue, at path: String, countMax: Int) -> [JSONValue]? {
        guard case .array(let elements, _) = value else {
            report(path, "must be a list ([...]), found \(value.typeName)", at: value)
            return nil
        }
        guard elements.count <= countMax else {
            report(path, "has \(elements.count) entries; at most \(countMax) are allowed", at: value)
            return nil
        }
        return elements
    }

    /// Returns the string at `path`, reporting a wrong type.
    mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text, _) = value else {
            report(path, "must be a string, found \(value.typeName)", at: value)
            return nil
        }
        return text
    }

    /// Returns an ID at `path`: 1 to 64 letters, digits, `_`, `-` or `.`.
    mutating func identifier(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard CatalogReader.isIdentifier(text) else {
            report(
                path, "\"\(text)\" is not a valid ID: use 1 to 64 letters, digits, \"_\", \"-\" or \".\"",
                at: value)
            return nil
        }
        return text
    }

    /// Returns a store product ID at `path`: 1 to 255 bytes of UTF-8, printable, without spaces.
    mutating func storeProductID(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        let valid = !text.isEmpty && text.utf8.count <= 255
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
        guard valid else {
            report(path, "\"\(text)\" is not a valid store product ID (1 to 255 bytes of UTF-8, no spaces or control characters)", at: value)
            return nil
        }
        return text
    }

    /// Returns a whole number in `range` at `path`, reporting fractions, overflow and range errors.
    mutating func integer(_ value: JSONValue, at path: String, range: ClosedRange<Int64>, what: String) -> Int64? {
        switch value {
        case .integer(let number, _):
            if number < range.lowerBound {
                let hint = range.lowerBound == 1 ? "; use a positive whole number" : ""
                report(path, "\(what) \(number) is too small: it must be at least \(range.lowerBound)\(hint)", at: value)
                return nil
            }
            if number > range.upperBound {
                report(path, "\(what) \(number) is too large: at most \(range.upperBound) is allowed", at: value)
                return nil
            }
            return number
        case .integerOverflow(let literal, _):
            report(path, "\(what) \(literal) is too large (overflows): at most \(range.upperBound)", at: value)
            return nil
        case .number(let number, _):
            report(path, "\(what) must be a whole number, found \(number)", at: value)
            return nil
        default:
            report(path, "\(what) must be a whole number, found \(value.typeName)", at: value)
            return nil
        }
    }

    /// Returns one of `choices` at `path`.
    mutating func choice<T: RawRepresentable>(_ value: JSONValue, at path: String, of choices: [T]) -> T?
    where T.RawValue == String {
        guard let text = string(value, at: path) else { return nil }
        guard let match = choices.first(where: { $0.rawValue == text }) else {
            let names = choices.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            report(path, "\"\(text)\" is not allowed; use \(names)", at: value)
            return nil
        }
        return match
    }

    /// Whether text is a valid catalog ID.
    static func isIdentifier(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 64 else { return false }
        return text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D || byte == 0x2E
        }
    }
}
