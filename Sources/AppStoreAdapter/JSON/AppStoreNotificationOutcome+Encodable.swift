import FulfillmentLedger

/// An `AppStoreNotificationOutcome` in JSON, one object whose `outcome` names the case:
///
/// - `rejected`: `error` (`AppStoreVerificationError`: `status`, `code`, `detail`, and
///   `payloadCode` for a refused payload value);
/// - `alreadyProcessed` / `logged`: `notification` (the `StoreNotificationRecord`);
/// - `revocation`: `revocation` (a `RevocationOutcome`);
/// - `consumptionRequest`: `consumptionInformation` (the V2 `ConsumptionRequest` body),
///   `transactionID`, `notificationUUID`, `deadline`?, `reason`? and `answer`? (an
///   `AppStoreConsumptionOutcome`, when the processor has a sender);
/// - `subscription`: `period`? (the `FulfillmentOutcome` of the period it carried), `update`
///   (`applied`, `stale`, `unchanged` or `unknownChain`), `subscription`? (the chain as it
///   stands) and `note`;
/// - `consentRescinded`: `rescission` (`store`, `accountID`, `rescindedAt`, `notificationID`,
///   `recordedAt`: the first withdrawal recorded for the account);
/// - `oneTimeCharge`: `charge` (`transactionID`, `storeProductID`, `appAccountToken`?,
///   `playerID`? and `fulfillment`?, the `FulfillmentOutcome`; no player and no fulfillment when
///   the charge is unassigned).
extension AppStoreNotificationOutcome: Encodable {
    /// `rejected`, `alreadyProcessed`, `revocation`, `consumptionRequest`, `subscription`,
    /// `consentRescinded`, `oneTimeCharge` or `logged`.
    public var name: String {
        switch self {
        case .rejected: "rejected"
        case .alreadyProcessed: "alreadyProcessed"
        case .revocation: "revocation"
        case .consumptionRequest: "consumptionRequest"
        case .subscription: "subscription"
        case .consentRescinded: "consentRescinded"
        case .oneTimeCharge: "oneTimeCharge"
        case .logged: "logged"
        }
    }

    /// Encodes the object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .rejected(let error): try container.encode(error, forKey: "error")
        case .alreadyProcessed(let record), .logged(let record): try container.encode(record, forKey: "notification")
        case .revocation(let outcome): try container.encode(outcome, forKey: "revocation")
        case .consumptionRequest(let question):
            try container.encode(question.body, forKey: "consumptionInformation")
            try container.encode(question.transactionID, forKey: "transactionID")
            try container.encode(question.notificationUUID, forKey: "notificationUUID")
            try container.encodeIfPresent(question.deadline, forKey: "deadline")
            try container.encodeIfPresent(question.reason, forKey: "reason")
            try container.encodeIfPresent(question.answer, forKey: "answer")
        case .subscription(let effect):
            try effect.encodeFields(into: &container)
        case .consentRescinded(let rescission): try container.encode(rescission, forKey: "rescission")
        case .oneTimeCharge(let charge): try container.encode(charge, forKey: "charge")
        }
    }
}

/// An `AppStoreOneTimeCharge` in JSON: `{"transactionID", "storeProductID", "appAccountToken"?,
/// "playerID"?, "unassigned", "fulfillment"?}`.
extension AppStoreOneTimeCharge: Encodable {
    /// Encodes the charge and the pipeline's answer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(transactionID, forKey: "transactionID")
        try container.encode(storeProductID, forKey: "storeProductID")
        try container.encodeIfPresent(appAccountToken, forKey: "appAccountToken")
        try container.encodeIfPresent(playerID, forKey: "playerID")
        try container.encode(isUnassigned, forKey: "unassigned")
        try container.encodeIfPresent(fulfillment, forKey: "fulfillment")
    }
}

/// An `AppStoreVerificationError` in JSON: `{"status", "code", "detail", "payloadCode"?}`.
extension AppStoreVerificationError: Encodable {
    /// Encodes the status, its stable code, the detail and any payload error's code.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(status.rawValue, forKey: "status")
        try container.encode(status.code, forKey: "code")
        try container.encode(detail, forKey: "detail")
        try container.encodeIfPresent(payloadError?.code, forKey: "payloadCode")
    }
}
