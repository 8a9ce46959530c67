import FulfillmentLedger
import FulfillmentLedgerTesting
import PostgresLedgerStore

/// Closes a scratch store and drops its schema in the background (from a `deinit`, which cannot
/// wait), counted by `StoreCleanup` so the test process does not exit in the middle of it.
public enum PostgresScratchCleanup {
    /// Closes `store`, then drops `schema`.
    public static func closeAndDrop(_ store: PostgresLedgerStore, _ schema: PostgresScratchSchema) {
        StoreCleanup.closeInBackground(store) { try? schema.drop() }
    }
}
