import FulfillmentLedger

/// Entitlements and what a player carries with them: versions, payments and flags.
enum EntitlementCases {
    static let entries = [
        ConformanceEntry(
            "entitlementVersions", "entitlement versions start at 0 and count every bump per player",
            entitlementVersions),
        ConformanceEntry(
            "releaseEntitlement",
            "an entitlement is owned while some purchase pays for it; releasing one payment removes only it",
            releaseEntitlement),
        ConformanceEntry("paymentsOrdered", "payments are read by entitlement, then grant time", paymentsOrdered),
        ConformanceEntry(
            "playerFlagsNewestFirst", "player flags are read newest first, per player, up to the limit",
            playerFlagsNewestFirst),
    ]

    static func entitlementVersions(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        context.checkEqual(
            try await store.read { reader throws(LedgerError) in try reader.entitlementVersion(playerID: "p1") }, 0,
            "the entitlement version of a new player")
        let bumps = try await store.write { writer throws(LedgerError) in
            [
                try writer.bumpEntitlementVersion(playerID: "p1"), try writer.bumpEntitlementVersion(playerID: "p1"),
                try writer.bumpEntitlementVersion(playerID: "p2"), try writer.entitlementVersion(playerID: "p1"),
            ]
        }
        context.checkEqual(bumps, [1, 2, 1, 2], "p1, p1, p2 bumped, then p1 read in the same write")
        let third = try await store.write { writer throws(LedgerError) in
            try writer.bumpEntitlementVersion(playerID: "p1")
        }
        context.checkEqual(third, 3, "p1's third bump, in a later write")
        let versions = try await store.read { reader throws(LedgerError) in
            [
                try reader.entitlementVersion(playerID: "p1"), try reader.entitlementVersion(playerID: "p2"),
                try reader.entitlementVersion(playerID: "p3"),
            ]
        }
        context.checkEqual(versions, [3, 1, 0], "the versions of p1, p2 and p3")
    }

    static func releaseEntitlement(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let results = try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            try writer.insertTransaction(ContractRows.record("t2"))
            let first = ContractRows.payment("remove_ads", "t1", at: 0)
            let second = ContractRows.payment("remove_ads", "t2", at: 1)
            return [
                try writer.grantEntitlement(first, playerID: "p1"),
                try writer.grantEntitlement(first, playerID: "p1"),
                try writer.grantEntitlement(second, playerID: "p1"),
                try writer.grantEntitlement(first, playerID: "p2"),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "remove_ads", source: ContractRows.key("t1")),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "remove_ads", source: ContractRows.key("t1")),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "never_owned", source: ContractRows.key("t2")),
            ]
        }
        context.checkEqual(
            results, [true, false, true, true, true, false, false],
            "grant t1, t1 again, t2, t1 to p2; release t1, t1 again, a payment never made")
        let (mine, theirs) = try await store.read { reader throws(LedgerError) in
            (try reader.entitlements(playerID: "p1"), try reader.entitlements(playerID: "p2"))
        }
        context.checkEqual(mine.map(\.source), [ContractRows.key("t2")], "p1's payments (still paid for by t2)")
        context.checkEqual(theirs.map(\.entitlementID), ["remove_ads"], "p2's entitlements")
    }

    static func paymentsOrdered(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        try await store.write { writer throws(LedgerError) in
            for (index, name) in ["t3", "t1", "t2"].enumerated() {
                try writer.insertTransaction(ContractRows.record(name))
                for entitlement in ["vip", "remove_ads"] {
                    _ = try writer.grantEntitlement(
                        ContractRows.payment(entitlement, name, at: Int64(10 - index)), playerID: "p1")
                }
            }
        }
        let payments = try await store.read { reader throws(LedgerError) in try reader.entitlements(playerID: "p1") }
        context.checkEqual(
            payments.map { "\($0.entitlementID)/\($0.source.transactionID)" },
            ["remove_ads/t2", "remove_ads/t1", "remove_ads/t3", "vip/t2", "vip/t1", "vip/t3"],
            "p1's payments, by entitlement then grant time")
    }

    static func playerFlagsNewestFirst(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let flags = [
            ContractRows.flag("refundFloored", "first", transactionID: "t1", at: 5),
            ContractRows.flag("note", "second", transactionID: nil, at: 1),
            ContractRows.flag("refundFloored", "third", transactionID: "t2", at: 3),
        ]
        try await store.write { writer throws(LedgerError) in
            try writer.insertPlayerFlag(flags[0], playerID: "p1")
            try writer.insertPlayerFlag(ContractRows.flag("x", "other", transactionID: nil, at: 0), playerID: "p2")
            try writer.insertPlayerFlag(flags[1], playerID: "p1")
        }
        try await store.write { writer throws(LedgerError) in try writer.insertPlayerFlag(flags[2], playerID: "p1") }
        let (all, two, none) = try await store.read { reader throws(LedgerError) in
            (
                try reader.playerFlags(playerID: "p1", limit: 100), try reader.playerFlags(playerID: "p1", limit: 2),
                try reader.playerFlags(playerID: "p3", limit: 100)
            )
        }
        // Newest means inserted last, whatever the flag's own date.
        context.checkEqual(all, flags.reversed(), "p1's flags, newest (inserted last) first")
        context.checkEqual(two, Array(flags.reversed().prefix(2)), "p1's flags, limit 2")
        context.checkEqual(none, [], "the flags of a player without any")
    }
}
