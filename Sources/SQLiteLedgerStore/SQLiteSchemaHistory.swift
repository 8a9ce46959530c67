/// The SQL of each step of SQLite's schema history (`LedgerSchema.migrations`), by the table
/// it creates or changes. A step, once released, is never edited: a file of any old version
/// upgrades through exactly these. What the tables hold and how they are read and written is
/// in the data layer (the core's `Storage/Tables/`, a file per table).
enum SQLiteSchemaHistory {
    enum AbsorbedDebtsTable {
        /// Added by migration 5.
        static let createSQL = """
            CREATE TABLE absorbed_debts (
                player_id TEXT NOT NULL,
                currency_id TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount > 0),
                PRIMARY KEY (player_id, currency_id)
            ) WITHOUT ROWID;
            """
    }

    enum AttemptsTable {
        /// Added by migration 8.
        static let createSQL = """
            CREATE TABLE attempts (
                sequence INTEGER PRIMARY KEY,
                store TEXT NOT NULL,
                delivery_id TEXT NOT NULL,
                purchase_id TEXT,
                order_id TEXT,
                store_product_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                outcome TEXT NOT NULL,
                code TEXT NOT NULL,
                reason TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                entry_point TEXT NOT NULL,
                verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
                repeat_count INTEGER NOT NULL CHECK (repeat_count >= 1),
                last_at_ms INTEGER NOT NULL
            );
            CREATE INDEX attempts_by_budget ON attempts (verified, sequence);
            CREATE INDEX attempts_by_player ON attempts (player_id, sequence);
            CREATE INDEX attempts_by_delivery ON attempts (delivery_id);
            CREATE INDEX attempts_by_purchase ON attempts (purchase_id) WHERE purchase_id IS NOT NULL;
            CREATE INDEX attempts_by_order ON attempts (order_id) WHERE order_id IS NOT NULL;
            CREATE TABLE attempt_counts (
                verified INTEGER PRIMARY KEY CHECK (verified IN (0, 1)),
                row_count INTEGER NOT NULL CHECK (row_count >= 0)
            ) WITHOUT ROWID;
            """
    }

    enum BalancesTable {
        static let createSQL = """
            CREATE TABLE balances (
                player_id TEXT NOT NULL,
                currency_id TEXT NOT NULL,
                amount INTEGER NOT NULL,
                PRIMARY KEY (player_id, currency_id)
            ) WITHOUT ROWID;
            """
    }

    enum EconomyOperationsTable {
        static let createSQL = """
            CREATE TABLE economy_operations (
                operation_id TEXT PRIMARY KEY NOT NULL,
                player_id TEXT NOT NULL,
                direction TEXT NOT NULL,
                asset_kind TEXT NOT NULL,
                asset_id TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount > 0),
                balance_after INTEGER NOT NULL,
                applied_at_ms INTEGER NOT NULL
            ) WITHOUT ROWID;
            """

        /// Added by migration 9: a player's operations, newest first, for the balance history.
        static let createPlayerIndexSQL = """
            CREATE INDEX economy_operations_by_player ON economy_operations (player_id, applied_at_ms);
            """
    }

    enum EntitlementVersionsTable {
        static let createSQL = """
            CREATE TABLE entitlement_versions (
                player_id TEXT PRIMARY KEY NOT NULL,
                version INTEGER NOT NULL CHECK (version >= 1)
            ) WITHOUT ROWID;
            """
    }

    enum EntitlementsTable {
        // The source reference is deferred: the grant writes the entitlement before the
        // ledger row of the same transaction, and both commit together.
        static let createSQL = """
            CREATE TABLE entitlements (
                player_id TEXT NOT NULL,
                entitlement_id TEXT NOT NULL,
                granted_at_ms INTEGER NOT NULL,
                source_store TEXT NOT NULL,
                source_transaction_id TEXT NOT NULL,
                PRIMARY KEY (player_id, entitlement_id),
                FOREIGN KEY (source_store, source_transaction_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            ) WITHOUT ROWID;
            """

        /// Migration 5: a row per purchase that pays for a player's entitlement, so refunding one
        /// of two purchases that grant the same entitlement leaves it owned. Existing rows (one
        /// per owned entitlement) carry over as they are.
        static let payersSQL = """
            CREATE TABLE entitlement_payers (
                player_id TEXT NOT NULL,
                entitlement_id TEXT NOT NULL,
                source_store TEXT NOT NULL,
                source_transaction_id TEXT NOT NULL,
                granted_at_ms INTEGER NOT NULL,
                PRIMARY KEY (player_id, entitlement_id, source_store, source_transaction_id),
                FOREIGN KEY (source_store, source_transaction_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            ) WITHOUT ROWID;
            INSERT INTO entitlement_payers
                SELECT player_id, entitlement_id, source_store, source_transaction_id, granted_at_ms FROM entitlements;
            DROP TABLE entitlements;
            ALTER TABLE entitlement_payers RENAME TO entitlements;
            """
    }

    enum EventsTable {
        static let createSQL = """
            CREATE TABLE events (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,
                player_id TEXT NOT NULL,
                store TEXT,
                transaction_id TEXT,
                at_ms INTEGER NOT NULL,
                detail TEXT NOT NULL
            );
            CREATE INDEX events_by_player ON events (player_id, sequence);
            CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            """

        /// Added by migration 2: refunds read a transaction's history.
        static let createTransactionIndexSQL = """
            CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
            """

        /// Migration 6: the log rebuilt without `AUTOINCREMENT`, whose `sqlite_sequence` row was
        /// written on every append. The log is append-only, so its largest `sequence` is never
        /// deleted and a plain rowid never goes back: sequences still only grow. The index by
        /// transaction stays: a transaction's events may belong to several players (a reassigned
        /// purchase) and may come before its record (a refund awaiting its purchase).
        static let rebuildSQL = """
            CREATE TABLE events_v6 (
                sequence INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                player_id TEXT NOT NULL,
                store TEXT,
                transaction_id TEXT,
                at_ms INTEGER NOT NULL,
                detail TEXT NOT NULL
            );
            INSERT INTO events_v6 (sequence, kind, player_id, store, transaction_id, at_ms, detail)
                SELECT sequence, kind, player_id, store, transaction_id, at_ms, detail FROM events ORDER BY sequence;
            DROP TABLE events;
            DELETE FROM sqlite_sequence WHERE name = 'events';
            ALTER TABLE events_v6 RENAME TO events;
            CREATE INDEX events_by_player ON events (player_id, sequence);
            CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
            CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            """
    }

    enum InventoryTable {
        static let createSQL = """
            CREATE TABLE inventory (
                player_id TEXT NOT NULL,
                item_id TEXT NOT NULL,
                quantity INTEGER NOT NULL,
                PRIMARY KEY (player_id, item_id)
            ) WITHOUT ROWID;
            """
    }

    enum PendingFinishesTable {
        static let createSQL = """
            CREATE TABLE pending_finishes (
                store TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                enqueued_at_ms INTEGER NOT NULL,
                attempt_count INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                PRIMARY KEY (store, transaction_id),
                FOREIGN KEY (store, transaction_id) REFERENCES ledger_transactions (store, transaction_id)
            ) WITHOUT ROWID;
            CREATE INDEX pending_finishes_by_age ON pending_finishes (enqueued_at_ms);
            """
    }

    enum PlayerFlagsTable {
        static let createSQL = """
            CREATE TABLE player_flags (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                player_id TEXT NOT NULL,
                flag TEXT NOT NULL,
                detail TEXT NOT NULL,
                store TEXT,
                transaction_id TEXT,
                at_ms INTEGER NOT NULL
            );
            CREATE INDEX player_flags_by_player ON player_flags (player_id, sequence);
            """
    }

    enum PlayersTable {
        /// Added by migration 5; takes over `entitlement_versions` and the reset times the event
        /// log holds.
        static let createSQL = """
            CREATE TABLE players (
                player_id TEXT PRIMARY KEY NOT NULL,
                entitlement_version INTEGER NOT NULL DEFAULT 0 CHECK (entitlement_version >= 0),
                reset_at_ms INTEGER
            ) WITHOUT ROWID;
            INSERT INTO players (player_id, entitlement_version) SELECT player_id, version FROM entitlement_versions;
            DROP TABLE entitlement_versions;
            INSERT INTO players (player_id, reset_at_ms)
                SELECT player_id, max(at_ms) FROM events WHERE kind = 'playerReset' GROUP BY player_id
                ON CONFLICT (player_id) DO UPDATE SET reset_at_ms = excluded.reset_at_ms;
            """
    }

    enum PurchaseCountsTable {
        static let createSQL = """
            CREATE TABLE purchase_counts (
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                period TEXT NOT NULL,
                count INTEGER NOT NULL CHECK (count >= 0),
                PRIMARY KEY (player_id, product_id, period)
            ) WITHOUT ROWID;
            """
    }

    enum RefundStatesTable {
        // The reference is deferred, like the entitlements' source: a purchase and the events
        // that waited for it may be written in either order within one transaction.
        static let createSQL = """
            CREATE TABLE refund_states (
                store TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                status TEXT NOT NULL,
                refunded_quantity INTEGER NOT NULL CHECK (refunded_quantity >= 0),
                last_take_back_ms INTEGER,
                last_reversal_ms INTEGER,
                PRIMARY KEY (store, transaction_id),
                FOREIGN KEY (store, transaction_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            ) WITHOUT ROWID;
            """
    }

    enum RevocationEventsTable {
        static let createSQL = """
            CREATE TABLE revocation_events (
                event_id TEXT PRIMARY KEY NOT NULL,
                store TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                quantity INTEGER,
                event_date_ms INTEGER NOT NULL,
                reason TEXT,
                disposition TEXT NOT NULL,
                effect TEXT NOT NULL,
                debt_created TEXT NOT NULL,
                received_at_ms INTEGER NOT NULL,
                reversed INTEGER NOT NULL CHECK (reversed IN (0, 1))
            ) WITHOUT ROWID;
            CREATE INDEX revocation_events_by_transaction
                ON revocation_events (store, transaction_id, event_date_ms);
            """

        /// Added by migration 5: the event as named (`original_transaction_id`) and the ledger
        /// key of the purchase it applies to (`purchase_id`), by which a purchase finds its events.
        static let addPurchaseSQL = """
            ALTER TABLE revocation_events ADD COLUMN original_transaction_id TEXT;
            ALTER TABLE revocation_events ADD COLUMN purchase_id TEXT;
            ALTER TABLE revocation_events ADD COLUMN quantity_is_cumulative INTEGER;
            ALTER TABLE revocation_events ADD COLUMN absorbed_change TEXT;
            UPDATE revocation_events SET purchase_id = transaction_id;
            DROP INDEX revocation_events_by_transaction;
            CREATE INDEX revocation_events_by_purchase ON revocation_events (store, purchase_id, event_date_ms);
            """
    }

    enum StoreNotificationsTable {
        static let createSQL = """
            CREATE TABLE store_notifications (
                notification_id TEXT PRIMARY KEY NOT NULL,
                store TEXT NOT NULL,
                type TEXT NOT NULL,
                transaction_store TEXT,
                transaction_id TEXT,
                received_at_ms INTEGER NOT NULL,
                outcome TEXT NOT NULL
            ) WITHOUT ROWID;
            """
    }

    enum SubscriptionsTable {
        static let createSQL = """
            CREATE TABLE subscriptions (
                store TEXT NOT NULL,
                chain_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                store_product_id TEXT NOT NULL,
                subscription_group TEXT NOT NULL,
                state TEXT NOT NULL,
                expires_at_ms INTEGER NOT NULL,
                grace_period_expires_at_ms INTEGER,
                will_auto_renew INTEGER CHECK (will_auto_renew IN (0, 1)),
                entitlement_ids TEXT NOT NULL,
                latest_period_id TEXT NOT NULL,
                period_count INTEGER NOT NULL CHECK (period_count >= 0),
                state_signed_at_ms INTEGER NOT NULL,
                updated_at_ms INTEGER NOT NULL,
                PRIMARY KEY (store, chain_id)
            ) WITHOUT ROWID;
            CREATE INDEX subscriptions_by_player ON subscriptions (player_id, store, chain_id);
            CREATE TABLE subscription_periods (
                store TEXT NOT NULL,
                chain_id TEXT NOT NULL,
                period_id TEXT NOT NULL,
                starts_at_ms INTEGER NOT NULL,
                expires_at_ms INTEGER NOT NULL,
                granted_at_ms INTEGER NOT NULL,
                PRIMARY KEY (store, period_id),
                FOREIGN KEY (store, period_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            ) WITHOUT ROWID;
            CREATE INDEX subscription_periods_by_chain ON subscription_periods (store, chain_id, starts_at_ms, period_id);
            """
    }

    enum SyncCursorsTable {
        static let createSQL = """
            CREATE TABLE sync_cursors (
                name TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            """
    }

    enum TransactionsTable {
        static let createSQL = """
            CREATE TABLE ledger_transactions (
                store TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                store_product_id TEXT NOT NULL,
                product_kind TEXT NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity >= 1),
                environment TEXT NOT NULL,
                purchase_date_ms INTEGER NOT NULL,
                fulfilled_at_ms INTEGER NOT NULL,
                catalog_version TEXT NOT NULL,
                grants TEXT NOT NULL,
                finished_at_ms INTEGER,
                PRIMARY KEY (store, transaction_id)
            ) WITHOUT ROWID;
            CREATE INDEX ledger_transactions_by_player ON ledger_transactions (player_id, fulfilled_at_ms);
            """

        /// Added by migration 5: the key names the purchase, and `store_transaction_id` the
        /// delivery that was granted, stored only when it differs from the key (a non-consumable
        /// first fulfilled from a restore), so the partial index holds just those rows.
        /// `entitlements_listed` is 1 on rows whose grants list every entitlement the purchase
        /// pays for; rows written before it are NULL (they left out entitlements already owned).
        static let addDeliveryIDSQL = """
            ALTER TABLE ledger_transactions ADD COLUMN store_transaction_id TEXT;
            ALTER TABLE ledger_transactions ADD COLUMN entitlements_listed INTEGER;
            CREATE INDEX ledger_transactions_by_delivery ON ledger_transactions (store, store_transaction_id)
                WHERE store_transaction_id IS NOT NULL;
            """

        /// Added by migration 6: a record is its own pending finish until `finished_at_ms` is set,
        /// so a fulfillment writes no outbox row and its finish mark deletes none. The partial index
        /// holds only the pending rows, oldest first; `finish_attempts` and `finish_error` record
        /// failed attempts. The outbox rows of schema 4 move into their records.
        static let addPendingFinishSQL = """
            ALTER TABLE ledger_transactions ADD COLUMN finish_attempts INTEGER;
            ALTER TABLE ledger_transactions ADD COLUMN finish_error TEXT;
            UPDATE ledger_transactions SET
                finish_attempts = (SELECT NULLIF(p.attempt_count, 0) FROM pending_finishes p
                    WHERE p.store = ledger_transactions.store AND p.transaction_id = ledger_transactions.transaction_id),
                finish_error = (SELECT p.last_error FROM pending_finishes p
                    WHERE p.store = ledger_transactions.store AND p.transaction_id = ledger_transactions.transaction_id)
                WHERE finished_at_ms IS NULL;
            DROP TABLE pending_finishes;
            CREATE INDEX ledger_transactions_pending ON ledger_transactions (fulfilled_at_ms, store, transaction_id)
                WHERE finished_at_ms IS NULL;
            """

        /// Added by migration 8: the store's order ID of the granted delivery (Google Play
        /// `orderId`), so support finds a purchase from the player's receipt. Rows written before
        /// it read NULL; the partial index holds just the rows that have one.
        static let addOrderIDSQL = """
            ALTER TABLE ledger_transactions ADD COLUMN store_order_id TEXT;
            CREATE INDEX ledger_transactions_by_order ON ledger_transactions (store, store_order_id)
                WHERE store_order_id IS NOT NULL;
            """
    }
}
