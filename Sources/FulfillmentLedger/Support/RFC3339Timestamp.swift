import Foundation

/// A strict reader of RFC 3339 timestamps (`2026-11-02T10:00:00Z`, `2026-11-02T10:00:00.045+05:30`),
/// the one every date from outside input goes through.
///
/// Foundation's ISO 8601 parsers are lenient where a ledger must not be: they read
/// `2024-01-01T12:99:00Z` as 13:39 and `2024-02-30` as March 1, so a typo in a refund's date
/// would be recorded as another time. This reader refuses any field out of its range, any
/// missing offset and any other shape, so a date is either read exactly or refused.
///
/// Accepted: `YYYY-MM-DD`, `T` (or `t`), `hh:mm:ss`, an optional fraction of 1 to 9 digits, then
/// `Z` (or `z`) or `+hh:mm` / `-hh:mm`. A leap second (`:60`) is refused: the ledger's clock,
/// Apple's and Google's have none.
package enum RFC3339Timestamp {
    /// Longest text read (`2026-11-02T10:00:00.045123456+05:30` is 35 bytes).
    package static let byteCountMax = 64
    /// Digits of a fraction of a second read at most (nanoseconds).
    static let fractionDigitCountMax = 9

    /// The instant `text` names, or nil when it is not a valid RFC 3339 timestamp.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= byteCountMax else { return nil }
        var reader = Reader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.take(UInt8(ascii: "-")),
            let month = reader.number(digits: 2), reader.take(UInt8(ascii: "-")),
            let day = reader.number(digits: 2), reader.take(UInt8(ascii: "T")) || reader.take(UInt8(ascii: "t")),
            let hour = reader.number(digits: 2), reader.take(UInt8(ascii: ":")),
            let minute = reader.number(digits: 2), reader.take(UInt8(ascii: ":")),
            let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var nanoseconds = 0
        if reader.take(UInt8(ascii: ".")) {
            guard let fraction = reader.fraction() else { return nil }
            nanoseconds = fraction
        }
        guard let offsetSeconds = reader.offset(), reader.isAtEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Days in `month` of `year` in the proleptic Gregorian calendar.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (negative before it): Howard Hinnant's `days_from_civil`.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over the text's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// Consumes `byte` when it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` ASCII digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        /// 1 to `fractionDigitCountMax` digits after the point, in nanoseconds.
        mutating func fraction() -> Int? {
            var value = 0
            var digitCount = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                guard digitCount < RFC3339Timestamp.fractionDigitCountMax else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digitCount += 1
                index += 1
            }
            guard digitCount > 0 else { return nil }
            for _ in digitCount..<RFC3339Timestamp.fractionDigitCountMax { value *= 10 }
            return value
        }

        /// `Z` or `z` (0), or `+hh:mm` / `-hh:mm`, in seconds east of UTC.
        mutating func offset() -> Int? {
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return 0 }
            let sign: Int
            if take(UInt8(ascii: "+")) {
                sign = 1
            } else if take(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), take(UInt8(ascii: ":")), let minutes = number(digits: 2),
                (0...23).contains(hours), (0...59).contains(minutes)
            else { return nil }
            return sign * (hours * 3_600 + minutes * 60)
        }
    }
}
