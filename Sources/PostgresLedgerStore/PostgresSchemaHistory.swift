/// The SQL of each step of PostgreSQL's schema history (`PostgresLedgerSchema.migrations`), by
/// the table it creates or changes. A step, once released, is never edited. What the tables
/// hold and how they are read and written is in the data layer (the core's `Storage/Tables/`, a file per table).
enum PostgresSchemaHistory {
    enum AbsorbedDebtsTable {
        static let createSQL = """
            CREATE TABLE absorbed_debts (
                player_id text COLLATE "C" NOT NULL,
                currency_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                PRIMARY KEY (player_id, currency_id)
            );
            """
    }

    enum AttemptsTable {
        /// Added by migration 3.
        static let createSQL = """
            CREATE TABLE attempts (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                store text COLLATE "C" NOT NULL,
                delivery_id text COLLATE "C" NOT NULL,
                purchase_id text COLLATE "C",
                order_id text COLLATE "C",
                store_product_id text COLLATE "C" NOT NULL,
                player_id text COLLATE "C" NOT NULL,
                outcome text NOT NULL,
                code text NOT NULL,
                reason text NOT NULL,
                at_ms bigint NOT NULL,
                entry_point text NOT NULL,
                verified bigint NOT NULL CHECK (verified IN (0, 1)),
                repeat_count bigint NOT NULL CHECK (repeat_count >= 1),
                last_at_ms bigint NOT NULL
            );
            CREATE INDEX attempts_by_budget ON attempts (verified, sequence);
            CREATE INDEX attempts_by_player ON attempts (player_id, sequence);
            CREATE INDEX attempts_by_delivery ON attempts (delivery_id);
            CREATE INDEX attempts_by_purchase ON attempts (purchase_id) WHERE purchase_id IS NOT NULL;
            CREATE INDEX attempts_by_order ON attempts (order_id) WHERE order_id IS NOT NULL;
            CREATE TABLE attempt_counts (
                verified bigint PRIMARY KEY CHECK (verified IN (0, 1)),
                row_count bigint NOT NULL CHECK (row_count >= 0)
            );
            """
    }

    enum BalancesTable {
        static let createSQL = """
            CREATE TABLE balances (
                player_id text COLLATE "C" NOT NULL,
                currency_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL,
                PRIMARY KEY (player_id, currency_id)
            );
            """
    }

    enum EconomyOperationsTable {
        static let createSQL = """
            CREATE TABLE economy_operations (
                operation_id text COLLATE "C" PRIMARY KEY,
                player_id text COLLATE "C" NOT NULL,
                direction text NOT NULL,
                asset_kind text NOT NULL,
                asset_id text COLLATE "C" NOT NULL,
                amount bigint NOT NULL CHECK (amount > 0),
                balance_after bigint NOT NULL,
                applied_at_ms bigint NOT NULL
            );
            """

        /// Added by migration 4: a player's operations, newest first, for the balance history.
        static let createPlayerIndexSQL = """
            CREATE INDEX economy_operations_by_player ON economy_operations (player_id, applied_at_ms);
            """
    }

    enum EntitlementsTable {
        // The source reference is deferred: the grant writes the entitlement before the ledger row
        // of the same transaction, and both commit together.
        static let createSQL = """
            CREATE TABLE entitlements (
                player_id text COLLATE "C" NOT NULL,
                entitlement_id text COLLATE "C" NOT NULL,
                source_store text COLLATE "C" NOT NULL,
                source_transaction_id text COLLATE "C" NOT NULL,
                granted_at_ms bigint NOT NULL,
                PRIMARY KEY (player_id, entitlement_id, source_store, source_transaction_id),
                FOREIGN KEY (source_store, source_transaction_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            );
            CREATE INDEX entitlements_by_source ON entitlements (source_store, source_transaction_id);
            """
    }

    enum EventsTable {
        static let createSQL = """
            CREATE TABLE events (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                kind text NOT NULL,
                player_id text COLLATE "C" NOT NULL,
                store text COLLATE "C",
                transaction_id text COLLATE "C",
                at_ms bigint NOT NULL,
                detail text NOT NULL
            );
            CREATE INDEX events_by_player ON events (player_id, sequence);
            CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
            CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$;
            CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
                FOR EACH ROW EXECUTE FUNCTION events_append_only();
            """
    }

    enum InventoryTable {
        static let createSQL = """
            CREATE TABLE inventory (
                player_id text COLLATE "C" NOT NULL,
                item_id text COLLATE "C" NOT NULL,
                quantity bigint NOT NULL,
                PRIMARY KEY (player_id, item_id)
            );
            """
    }

    enum PlayerFlagsTable {
        static let createSQL = """
            CREATE TABLE player_flags (
                sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                player_id text COLLATE "C" NOT NULL,
                flag text NOT NULL,
                detail text NOT NULL,
                store text COLLATE "C",
                transaction_id text COLLATE "C",
                at_ms bigint NOT NULL
            );
            CREATE INDEX player_flags_by_player ON player_flags (player_id, sequence);
            """
    }

    enum PlayersTable {
        static let createSQL = """
            CREATE TABLE players (
                player_id text COLLATE "C" PRIMARY KEY,
                entitlement_version bigint NOT NULL DEFAULT 0 CHECK (entitlement_version >= 0),
                reset_at_ms bigint
            );
            """
    }

    enum PurchaseCountsTable {
        static let createSQL = """
            CREATE TABLE purchase_counts (
                player_id text COLLATE "C" NOT NULL,
                product_id text COLLATE "C" NOT NULL,
                period text COLLATE "C" NOT NULL,
                count bigint NOT NULL CHECK (count >= 0),
                PRIMARY KEY (player_id, product_id, period)
            );
            """
    }

    enum RefundStatesTable {
        // Deferred, like the entitlements' source: a purchase and the events that waited for it
        // may be written in either order within one transaction.
        static let createSQL = """
            CREATE TABLE refund_states (
                store text COLLATE "C" NOT NULL,
                transaction_id text COLLATE "C" NOT NULL,
                status text NOT NULL,
                refunded_quantity bigint NOT NULL CHECK (refunded_quantity >= 0),
                last_take_back_ms bigint,
                last_reversal_ms bigint,
                PRIMARY KEY (store, transaction_id),
                FOREIGN KEY (store, transaction_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            );
            """
    }

    enum RevocationEventsTable {
        static let createSQL = """
            CREATE TABLE revocation_events (
                event_id text COLLATE "C" PRIMARY KEY,
                store text COLLATE "C" NOT NULL,
                transaction_id text COLLATE "C" NOT NULL,
                kind text NOT NULL,
                quantity bigint,
                event_date_ms bigint NOT NULL,
                reason text,
                disposition text NOT NULL,
                effect text NOT NULL,
                debt_created text NOT NULL,
                received_at_ms bigint NOT NULL,
                reversed boolean NOT NULL,
                original_transaction_id text COLLATE "C",
                purchase_id text COLLATE "C" NOT NULL,
                quantity_is_cumulative boolean,
                absorbed_change text
            );
            CREATE INDEX revocation_events_by_purchase ON revocation_events (store, purchase_id, event_date_ms);
            """
    }

    enum StoreNotificationsTable {
        static let createSQL = """
            CREATE TABLE store_notifications (
                notification_id text COLLATE "C" PRIMARY KEY,
                store text COLLATE "C" NOT NULL,
                type text NOT NULL,
                transaction_store text COLLATE "C",
                transaction_id text COLLATE "C",
                received_at_ms bigint NOT NULL,
                outcome text NOT NULL
            );
            """
    }

    enum SubscriptionsTable {
        static let createSQL = """
            CREATE TABLE subscriptions (
                store text COLLATE "C" NOT NULL,
                chain_id text COLLATE "C" NOT NULL,
                player_id text COLLATE "C" NOT NULL,
                product_id text COLLATE "C" NOT NULL,
                store_product_id text COLLATE "C" NOT NULL,
                subscription_group text COLLATE "C" NOT NULL,
                state text COLLATE "C" NOT NULL,
                expires_at_ms bigint NOT NULL,
                grace_period_expires_at_ms bigint,
                will_auto_renew bigint CHECK (will_auto_renew IN (0, 1)),
                entitlement_ids text NOT NULL,
                latest_period_id text COLLATE "C" NOT NULL,
                period_count bigint NOT NULL CHECK (period_count >= 0),
                state_signed_at_ms bigint NOT NULL,
                updated_at_ms bigint NOT NULL,
                PRIMARY KEY (store, chain_id)
            );
            CREATE INDEX subscriptions_by_player ON subscriptions (player_id, store, chain_id);
            CREATE TABLE subscription_periods (
                store text COLLATE "C" NOT NULL,
                chain_id text COLLATE "C" NOT NULL,
                period_id text COLLATE "C" NOT NULL,
                starts_at_ms bigint NOT NULL,
                expires_at_ms bigint NOT NULL,
                granted_at_ms bigint NOT NULL,
                PRIMARY KEY (store, period_id),
                FOREIGN KEY (store, period_id)
                    REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
            );
            CREATE INDEX subscription_periods_by_chain ON subscription_periods (store, chain_id, starts_at_ms, period_id);
            """
    }

    enum SyncCursorsTable {
        static let createSQL = """
            CREATE TABLE sync_cursors (
                name text COLLATE "C" PRIMARY KEY,
                value text NOT NULL
            );
            """
    }

    enum TransactionsTable {
        static let createSQL = """
            CREATE TABLE ledger_transactions (
                store text COLLATE "C" NOT NULL,
                transaction_id text COLLATE "C" NOT NULL,
                player_id text COLLATE "C" NOT NULL,
                product_id text COLLATE "C" NOT NULL,
                store_product_id text COLLATE "C" NOT NULL,
                product_kind text NOT NULL,
                quantity bigint NOT NULL CHECK (quantity >= 1),
                environment text NOT NULL,
                purchase_date_ms bigint NOT NULL,
                fulfilled_at_ms bigint NOT NULL,
                catalog_version text NOT NULL,
                grants text NOT NULL,
                finished_at_ms bigint,
                store_transaction_id text COLLATE "C",
                entitlements_listed boolean,
                finish_attempts bigint,
                finish_error text,
                PRIMARY KEY (store, transaction_id)
            );
            CREATE INDEX ledger_transactions_by_player ON ledger_transactions (player_id, fulfilled_at_ms);
            CREATE INDEX ledger_transactions_by_delivery ON ledger_transactions (store, store_transaction_id)
                WHERE store_transaction_id IS NOT NULL;
            CREATE INDEX ledger_transactions_pending ON ledger_transactions (fulfilled_at_ms, store, transaction_id)
                WHERE finished_at_ms IS NULL;
            """

        /// Added by migration 3: the store's order ID of the granted delivery (Google Play
        /// `orderId`); rows written before it read NULL, and the partial index holds just the rows
        /// that have one.
        static let addOrderIDSQL = """
            ALTER TABLE ledger_transactions ADD COLUMN store_order_id text COLLATE "C";
            CREATE INDEX ledger_transactions_by_order ON ledger_transactions (store, store_order_id)
                WHERE store_order_id IS NOT NULL;
            """
    }
}
