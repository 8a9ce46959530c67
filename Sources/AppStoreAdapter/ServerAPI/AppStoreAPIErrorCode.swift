/// Apple's numeric App Store Server API error code (`errorCode` in an error body).
///
/// Open: a code Apple adds later keeps its number. The named codes are those the client or
/// its callers act on.
public struct AppStoreAPIErrorCode: OpenIntegerEnumeration {
    /// Apple's number, such as 4040010.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 4000000 GeneralBadRequestError.
    public static let generalBadRequest: AppStoreAPIErrorCode = 4_000_000
    /// 4000002 InvalidAppIdentifierError.
    public static let invalidAppIdentifier: AppStoreAPIErrorCode = 4_000_002
    /// 4000005 InvalidRequestRevisionError: a `revision` Apple does not recognise.
    public static let invalidRequestRevision: AppStoreAPIErrorCode = 4_000_005
    /// 4000006 InvalidTransactionIdError.
    public static let invalidTransactionID: AppStoreAPIErrorCode = 4_000_006
    /// 4000012 StartDateTooFarInPastError (notification history keeps 180 days).
    public static let startDateTooFarInPast: AppStoreAPIErrorCode = 4_000_012
    /// 4000013 StartDateAfterEndDateError.
    public static let startDateAfterEndDate: AppStoreAPIErrorCode = 4_000_013
    /// 4000014 InvalidPaginationTokenError.
    public static let invalidPaginationToken: AppStoreAPIErrorCode = 4_000_014
    /// 4000017 PaginationTokenExpiredError.
    public static let paginationTokenExpired: AppStoreAPIErrorCode = 4_000_017
    /// 4000035 InvalidCustomerConsentedError: `customerConsented` must be true.
    public static let invalidCustomerConsented: AppStoreAPIErrorCode = 4_000_035
    /// 4000048 AppTransactionIdNotSupportedError: the endpoint does not take an
    /// `appTransactionId` where it takes a transaction ID.
    public static let appTransactionIDNotSupported: AppStoreAPIErrorCode = 4_000_048
    /// 4000183 InvalidAppAccountTokenUUIDError: Set App Account Token's value is not a UUID.
    public static let invalidAppAccountTokenUUID: AppStoreAPIErrorCode = 4_000_183
    /// 4000185 FamilyTransactionNotSupportedError: a Family Sharing transaction.
    public static let familyTransactionNotSupported: AppStoreAPIErrorCode = 4_000_185
    /// 4000187 TransactionIdNotOriginalTransactionIdError: Set App Account Token needs the
    /// purchase's `originalTransactionId`.
    public static let transactionIDNotOriginalTransactionID: AppStoreAPIErrorCode = 4_000_187
    /// 4040001 AccountNotFoundError.
    public static let accountNotFound: AppStoreAPIErrorCode = 4_040_001
    /// 4040002 AccountNotFoundRetryableError.
    public static let accountNotFoundRetryable: AppStoreAPIErrorCode = 4_040_002
    /// 4040003 AppNotFoundError.
    public static let appNotFound: AppStoreAPIErrorCode = 4_040_003
    /// 4040004 AppNotFoundRetryableError.
    public static let appNotFoundRetryable: AppStoreAPIErrorCode = 4_040_004
    /// 4040005 OriginalTransactionIdNotFoundError.
    public static let originalTransactionIDNotFound: AppStoreAPIErrorCode = 4_040_005
    /// 4040006 OriginalTransactionIdNotFoundRetryableError.
    public static let originalTransactionIDNotFoundRetryable: AppStoreAPIErrorCode = 4_040_006
    /// 4040010 TransactionIdNotFoundError: also what a transaction of the other environment gets.
    public static let transactionIDNotFound: AppStoreAPIErrorCode = 4_040_010
    /// 4040019 AppTransactionDoesNotExistError: no app transaction for the customer.
    public static let appTransactionDoesNotExist: AppStoreAPIErrorCode = 4_040_019
    /// 4290000 RateLimitExceededError.
    public static let rateLimitExceeded: AppStoreAPIErrorCode = 4_290_000
    /// 5000000 GeneralInternalError.
    public static let generalInternal: AppStoreAPIErrorCode = 5_000_000
    /// 5000001 GeneralInternalRetryableError.
    public static let generalInternalRetryable: AppStoreAPIErrorCode = 5_000_001

    /// The codes Apple documents as worth retrying later.
    public static let retryableCodes: Set<AppStoreAPIErrorCode> = [
        .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIDNotFoundRetryable,
        .generalInternalRetryable, .rateLimitExceeded,
    ]

    /// Whether Apple documents this code as retryable.
    public var isRetryable: Bool { Self.retryableCodes.contains(self) }
}
