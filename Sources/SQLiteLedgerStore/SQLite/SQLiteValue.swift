import FulfillmentLedger

/// A value bound to or read from a SQLite statement: the data layer's own values. SQLite
/// binds a boolean as the integer 0 or 1 and never reads one back as a boolean.
package typealias SQLiteValue = SQLValue
