import Foundation
import Testing

@testable import FulfillmentLedger

/// Every date from outside input is read by one strict RFC 3339 reader: a field out of its range
/// is refused, never carried into the next minute, hour, day or month as Foundation's lenient
/// ISO 8601 parsers do (they read `12:99` as 13:39 and February 30 as March 1).
@Suite struct RFC3339TimestampTests {
    static let accepted: [(String, Double)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-11-29T12:00:00Z", 1_795_953_600),
        ("2026-11-29t12:00:00z", 1_795_953_600),
        ("2026-11-29T13:30:00+01:30", 1_795_953_600),
        ("2026-11-29T00:00:00-12:00", 1_795_953_600),
        ("2026-11-29T12:00:00.5Z", 1_795_953_600.5),
        ("2026-11-29T12:00:00.045Z", 1_795_953_600.045),
        ("2026-11-29T12:00:00.123456789Z", 1_795_953_600.123456789),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("1969-12-31T23:59:59Z", -1),
        ("2199-12-31T23:59:59.999Z", 7_258_118_399.999),
    ]

    @Test(arguments: accepted)
    func aValidTimestampIsReadExactly(text: String, seconds: Double) throws {
        let date = try #require(RFC3339Timestamp.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001, "\(text)")
        #expect(LedgerJSON.parseDate(text) == date)
    }

    static let refused = [
        "2024-01-01T12:99:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T23:59:60Z",
        "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z",
        "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "20240101T000000Z", "2024-1-01T00:00:00Z",
        "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.1234567890Z", "2024-01-01T00:00:00+0100",
        "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+01:60", "2024-01-01T00:00:00ZZ",
        "+2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z\u{0}", "２０２４-01-01T00:00:00Z", "",
        "29/11/2026", String(repeating: "2024-01-01T00:00:00.", count: 4) + "0Z",
    ]

    @Test(arguments: refused)
    func anInvalidTimestampIsRefused(text: String) {
        #expect(RFC3339Timestamp.parse(text) == nil, "\(text)")
    }

    @Test func everyDayOfFourCenturiesMatchesTheGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var day = try #require(calendar.date(from: DateComponents(year: 1900, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2300, month: 1, day: 1)))
        var checked = 0
        while day < end {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let year = try #require(parts.year), month = try #require(parts.month), dayOfMonth = try #require(parts.day)
            #expect(RFC3339Timestamp.daysSince1970(year: year, month: month, day: dayOfMonth) * 86_400
                == Int(day.timeIntervalSince1970))
            if dayOfMonth == 1 {
                let last = try #require(calendar.range(of: .day, in: .month, for: day)).count
                #expect(RFC3339Timestamp.daysInMonth(month, year: year) == last)
            }
            day = try #require(calendar.date(byAdding: .day, value: 1, to: day))
            checked += 1
        }
        #expect(checked == 146_097)
    }
}
