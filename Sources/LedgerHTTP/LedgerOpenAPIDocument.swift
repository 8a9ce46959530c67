/// The OpenAPI 3.1 document of `ledger serve`'s routes: `Docs/openapi.json`, built in so that
/// `GET /openapi.json` serves it from any folder.
///
/// Written by `Scripts/openapi-build` with the file; `OpenAPIDocumentTests` checks that `text`
/// is byte-identical to it and that it names every route.
public enum LedgerOpenAPIDocument {
    /// The file it stands for, from the package root.
    public static let path = "Docs/openapi.json"

    /// The file's exact text.
    public static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "FulfillmentLedger: ledger serve",
    "version": "1.0.0",
    "description": "The HTTP surface of `ledger serve` (LedgerHTTPHandler): purchases granted exactly once, the game's own spends and grants, refunds, restores, reads, the change feed and the stores' notifications. Every answer is JSON: an outcome, or the one error body `{\"error\": {code, name, message, retryable, outcomeUnknown, …}}` (Docs/ErrorCodes.md). Bodies are read strictly: an unknown field, a duplicate key or a wrong type is 400 `input.invalid` with its JSON path; null is read as absent. Mutating routes are idempotent by the IDs they carry (a purchase's transaction, `operationID`, `eventID`)."
  },
  "servers": [
    {
      "url": "http://127.0.0.1:8080"
    }
  ],
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "`--bearer-token-env`: required on the game's routes when the server has a token."
      }
    },
    "schemas": {
      "ErrorBody": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "code",
              "name",
              "message",
              "retryable",
              "outcomeUnknown"
            ],
            "properties": {
              "code": {
                "type": "integer",
                "description": "The stable code (Docs/ErrorCodes.md)."
              },
              "name": {
                "type": "string",
                "description": "The code's stable name, e.g. `input.invalid`."
              },
              "message": {
                "type": "string"
              },
              "retryable": {
                "type": "boolean"
              },
              "outcomeUnknown": {
                "type": "boolean"
              },
              "retryAfter": {
                "type": "string"
              },
              "detailCode": {
                "type": "integer"
              },
              "path": {
                "type": "string",
                "description": "The JSON path of the refused input."
              },
              "line": {
                "type": "integer"
              },
              "column": {
                "type": "integer"
              },
              "problems": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "path",
                    "message"
                  ],
                  "properties": {
                    "path": {
                      "type": "string"
                    },
                    "message": {
                      "type": "string"
                    },
                    "line": {
                      "type": "integer"
                    },
                    "column": {
                      "type": "integer"
                    }
                  }
                }
              }
            }
          }
        },
        "additionalProperties": false
      },
      "PurchaseKey": {
        "type": "object",
        "required": [
          "store",
          "transactionID"
        ],
        "properties": {
          "store": {
            "type": "string"
          },
          "transactionID": {
            "type": "string"
          }
        }
      },
      "Grant": {
        "type": "object",
        "required": [
          "kind",
          "id",
          "quantity"
        ],
        "properties": {
          "kind": {
            "type": "string"
          },
          "id": {
            "type": "string"
          },
          "quantity": {
            "type": "integer"
          },
          "debtRepaid": {
            "type": "integer"
          }
        }
      },
      "FulfillmentRecord": {
        "type": "object",
        "required": [
          "key",
          "playerID",
          "productID",
          "grants"
        ],
        "properties": {
          "key": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "playerID": {
            "type": "string"
          },
          "productID": {
            "type": "string"
          },
          "storeProductID": {
            "type": "string"
          },
          "storeTransactionID": {
            "type": "string"
          },
          "productKind": {
            "type": "string"
          },
          "quantity": {
            "type": "integer"
          },
          "grants": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Grant"
            }
          },
          "purchaseDate": {
            "type": "string",
            "format": "date-time"
          },
          "fulfilledAt": {
            "type": "string",
            "format": "date-time"
          },
          "finishedAt": {
            "type": "string",
            "format": "date-time"
          },
          "environment": {
            "type": "string"
          },
          "catalogVersion": {
            "type": "string"
          },
          "storeOrderID": {
            "type": "string"
          },
          "entitlementsListed": {
            "type": "boolean"
          }
        }
      },
      "LedgerEvent": {
        "type": "object",
        "required": [
          "sequence",
          "at",
          "kind",
          "detail"
        ],
        "properties": {
          "sequence": {
            "type": "integer"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "kind": {
            "type": "string"
          },
          "playerID": {
            "type": "string"
          },
          "detail": {
            "type": "string"
          },
          "transaction": {
            "$ref": "#/components/schemas/PurchaseKey"
          }
        }
      },
      "Rejection": {
        "type": "object",
        "required": [
          "outcome",
          "reason",
          "reasonCode"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "rejected"
            ]
          },
          "reason": {
            "type": "string",
            "description": "The stable reason name (Docs/ErrorCodes.md, rejection reasons)."
          },
          "reasonCode": {
            "type": "integer"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "AppStorePurchase": {
        "type": "object",
        "required": [
          "store"
        ],
        "properties": {
          "store": {
            "type": "string",
            "const": "appStore"
          },
          "playerID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "signedTransaction": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1
          },
          "transactionID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "storeProductID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "quantity": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1
          }
        },
        "additionalProperties": false,
        "description": "`signedTransaction` (StoreKit 2's `jwsRepresentation`), or `transactionID` and `storeProductID` on a ledger that verifies through the App Store Server API."
      },
      "PlayStorePurchase": {
        "type": "object",
        "required": [
          "store",
          "purchaseToken",
          "storeProductID"
        ],
        "properties": {
          "store": {
            "type": "string",
            "const": "playStore"
          },
          "playerID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "purchaseToken": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "storeProductID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "quantity": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1
          }
        },
        "additionalProperties": false,
        "description": "From the client's `Purchase`."
      },
      "TestStorePurchase": {
        "type": "object",
        "required": [
          "store",
          "transactionID",
          "productID",
          "playerID"
        ],
        "properties": {
          "store": {
            "type": "string",
            "const": "test"
          },
          "transactionID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "productID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "playerID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "quantity": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1
          },
          "state": {
            "type": [
              "string",
              "null"
            ],
            "description": "`purchased` (default), `pending` or `cancelled`."
          },
          "verified": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "environment": {
            "type": [
              "string",
              "null"
            ],
            "description": "`sandbox` (default) or another environment."
          },
          "purchaseDate": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "revocationDate": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "accountBinding": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "originalTransactionID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          }
        },
        "additionalProperties": false,
        "description": "A `ledger fulfill` document (Docs/CLI.md), on development ledgers that route the test store."
      },
      "PurchaseBody": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/AppStorePurchase"
          },
          {
            "$ref": "#/components/schemas/PlayStorePurchase"
          },
          {
            "$ref": "#/components/schemas/TestStorePurchase"
          }
        ]
      },
      "FulfillmentOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "granted",
              "alreadyFulfilled",
              "rejected"
            ]
          },
          "granted": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Grant"
            }
          },
          "record": {
            "$ref": "#/components/schemas/FulfillmentRecord"
          },
          "finished": {
            "type": "boolean"
          },
          "finishError": {
            "type": "string"
          },
          "finishInProgressElsewhere": {
            "type": "boolean"
          },
          "reason": {
            "type": "string"
          },
          "reasonCode": {
            "type": "integer"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "EconomyOperation": {
        "type": "object",
        "required": [
          "operationID",
          "playerID",
          "direction",
          "asset",
          "assetID",
          "amount"
        ],
        "properties": {
          "operationID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "playerID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "direction": {
            "type": "string",
            "enum": [
              "spend",
              "grant"
            ]
          },
          "asset": {
            "type": "string",
            "enum": [
              "currency",
              "item"
            ]
          },
          "assetID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "amount": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 1000000000000
          }
        },
        "additionalProperties": false
      },
      "OperationOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "applied",
              "alreadyApplied",
              "rejected"
            ]
          },
          "record": {
            "type": "object",
            "required": [
              "operation"
            ],
            "properties": {
              "operation": {
                "type": "object"
              },
              "appliedAt": {
                "type": "string",
                "format": "date-time"
              },
              "balanceAfter": {
                "type": "integer"
              }
            }
          },
          "reason": {
            "type": "string"
          },
          "reasonCode": {
            "type": "integer"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "RevocationEvent": {
        "type": "object",
        "required": [
          "eventID",
          "store",
          "transactionID",
          "kind",
          "eventDate"
        ],
        "properties": {
          "eventID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4608,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "store": {
            "type": "string",
            "enum": [
              "appStore",
              "playStore",
              "stripe",
              "steam",
              "test"
            ]
          },
          "transactionID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "originalTransactionID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "kind": {
            "type": "string",
            "enum": [
              "fullRefund",
              "partialRefund",
              "revoke",
              "refundReversed"
            ]
          },
          "quantity": {
            "type": [
              "integer",
              "null"
            ]
          },
          "quantityIsCumulative": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "eventDate": {
            "type": "string",
            "format": "date-time"
          },
          "reason": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "additionalProperties": false
      },
      "RevocationRecord": {
        "type": "object",
        "required": [
          "event",
          "disposition"
        ],
        "properties": {
          "event": {
            "$ref": "#/components/schemas/RevocationEvent"
          },
          "purchase": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "disposition": {
            "type": "string"
          },
          "effect": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Grant"
            }
          },
          "debtCreated": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "absorbedChange": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "receivedAt": {
            "type": "string",
            "format": "date-time"
          },
          "reversed": {
            "type": "boolean"
          }
        },
        "description": "A refund event as the ledger recorded it, with what it did."
      },
      "RevocationOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "recorded",
              "alreadyRecorded",
              "rejected"
            ]
          },
          "record": {
            "$ref": "#/components/schemas/RevocationRecord"
          },
          "reason": {
            "type": "string"
          },
          "reasonCode": {
            "type": "integer"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "Eligibility": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "eligible",
              "limitReached",
              "alreadyOwned",
              "unknownProduct",
              "invalidQuantity"
            ]
          },
          "limit": {
            "type": "object"
          },
          "count": {
            "type": "integer"
          },
          "remaining": {
            "type": "integer"
          },
          "resetsAt": {
            "type": "string",
            "format": "date-time"
          },
          "quantity": {
            "type": "integer"
          },
          "quantityMax": {
            "type": "integer"
          }
        }
      },
      "PlayerSnapshot": {
        "type": "object",
        "required": [
          "playerID",
          "balances",
          "inventory",
          "entitlements",
          "history",
          "events"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "balances": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "debts": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "inventory": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "entitlements": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EntitlementRecord"
            }
          },
          "entitlementVersion": {
            "type": "integer"
          },
          "flags": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PlayerFlag"
            }
          },
          "history": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FulfillmentRecord"
            }
          },
          "events": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LedgerEvent"
            }
          }
        }
      },
      "PlayerFlag": {
        "type": "object",
        "required": [
          "flag",
          "detail",
          "at"
        ],
        "properties": {
          "flag": {
            "type": "string"
          },
          "detail": {
            "type": "string"
          },
          "transaction": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          }
        },
        "description": "A flag set on a player for support, such as `refundFloored`."
      },
      "EntitlementRecord": {
        "type": "object",
        "required": [
          "entitlementID",
          "grantedAt",
          "source"
        ],
        "properties": {
          "entitlementID": {
            "type": "string"
          },
          "grantedAt": {
            "type": "string",
            "format": "date-time"
          },
          "source": {
            "$ref": "#/components/schemas/PurchaseKey"
          }
        }
      },
      "EntitlementSnapshot": {
        "type": "object",
        "required": [
          "playerID",
          "statuses",
          "owned",
          "version"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "statuses": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "owned": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "paidBy": {
            "type": "object"
          },
          "version": {
            "type": "integer"
          }
        }
      },
      "Subscriptions": {
        "type": "object",
        "required": [
          "subscriptions"
        ],
        "properties": {
          "subscriptions": {
            "type": "array",
            "items": {
              "type": "object"
            }
          }
        }
      },
      "EventPage": {
        "type": "object",
        "required": [
          "events",
          "hasMore",
          "next"
        ],
        "properties": {
          "events": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LedgerEvent"
            }
          },
          "hasMore": {
            "type": "boolean"
          },
          "next": {
            "type": "integer"
          }
        }
      },
      "ChangePage": {
        "type": "object",
        "required": [
          "changes",
          "next"
        ],
        "properties": {
          "changes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LedgerEvent"
            }
          },
          "next": {
            "type": "integer"
          }
        }
      },
      "RestoreBody": {
        "type": "object",
        "required": [
          "store",
          "purchases"
        ],
        "properties": {
          "store": {
            "type": "string",
            "enum": [
              "appStore",
              "playStore",
              "test"
            ]
          },
          "purchases": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [],
              "properties": {},
              "description": "A POST /purchases body of the list's store; its `store` and `playerID` may be left out (the list's and the path's)."
            },
            "maxItems": 1000
          },
          "authoritative": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "readAt": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          }
        },
        "additionalProperties": false
      },
      "RestoreReport": {
        "type": "object",
        "required": [
          "playerID",
          "outcomes"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "outcomes": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "store",
                "transactionID",
                "outcome"
              ],
              "properties": {
                "store": {
                  "type": "string"
                },
                "transactionID": {
                  "type": "string"
                },
                "outcome": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                }
              }
            }
          },
          "transferred": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PurchaseKey"
            }
          },
          "revoked": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PurchaseKey"
            }
          },
          "errors": {
            "type": "array",
            "items": {
              "type": "object"
            }
          }
        }
      },
      "Reset": {
        "type": "object",
        "required": [
          "reset"
        ],
        "properties": {
          "reset": {
            "type": "string"
          }
        }
      },
      "AccountTokenBody": {
        "type": "object",
        "required": [
          "store"
        ],
        "properties": {
          "store": {
            "type": "string",
            "enum": [
              "appStore",
              "playStore",
              "stripe",
              "steam",
              "test"
            ]
          }
        },
        "additionalProperties": false
      },
      "AccountTokenBinding": {
        "type": "object",
        "required": [
          "store",
          "token",
          "playerID",
          "boundAt",
          "source"
        ],
        "properties": {
          "store": {
            "type": "string"
          },
          "token": {
            "type": "string"
          },
          "playerID": {
            "type": "string"
          },
          "boundAt": {
            "type": "string",
            "format": "date-time"
          },
          "source": {
            "type": "string",
            "description": "`grant` or `registration`; a newer version may add others."
          }
        }
      },
      "LookupStep": {
        "type": "object",
        "required": [
          "at",
          "source",
          "playerID",
          "kind",
          "text"
        ],
        "properties": {
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "source": {
            "type": "string",
            "enum": [
              "event",
              "attempt",
              "revocation",
              "pendingFinish"
            ]
          },
          "playerID": {
            "type": "string"
          },
          "kind": {
            "type": "string"
          },
          "text": {
            "type": "string"
          }
        }
      },
      "AttemptRecord": {
        "type": "object",
        "required": [
          "sequence",
          "store",
          "deliveryID",
          "storeProductID",
          "playerID",
          "outcome",
          "code",
          "reason",
          "at",
          "repeatCount",
          "lastAt",
          "entryPoint",
          "isVerified"
        ],
        "properties": {
          "sequence": {
            "type": "integer"
          },
          "store": {
            "type": "string"
          },
          "deliveryID": {
            "type": "string"
          },
          "purchaseID": {
            "type": "string"
          },
          "orderID": {
            "type": "string"
          },
          "storeProductID": {
            "type": "string"
          },
          "playerID": {
            "type": "string"
          },
          "outcome": {
            "type": "string",
            "enum": [
              "rejected",
              "failed"
            ]
          },
          "code": {
            "type": "string"
          },
          "reason": {
            "type": "string"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "repeatCount": {
            "type": "integer"
          },
          "lastAt": {
            "type": "string",
            "format": "date-time"
          },
          "entryPoint": {
            "type": "string"
          },
          "isVerified": {
            "type": "boolean"
          }
        },
        "description": "A submission that granted nothing, journaled (Docs/Support.md)."
      },
      "PendingFinish": {
        "type": "object",
        "required": [
          "key",
          "playerID",
          "enqueuedAt",
          "attemptCount"
        ],
        "properties": {
          "key": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "playerID": {
            "type": "string"
          },
          "enqueuedAt": {
            "type": "string",
            "format": "date-time"
          },
          "attemptCount": {
            "type": "integer"
          },
          "lastError": {
            "type": "string"
          }
        },
        "description": "A granted purchase whose store finish is still owed."
      },
      "LookupReport": {
        "type": "object",
        "required": [
          "id",
          "records",
          "subscriptions",
          "attempts",
          "revocations",
          "pendingFinishes",
          "steps"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "records": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FulfillmentRecord"
            }
          },
          "subscriptions": {
            "type": "array",
            "items": {
              "type": "object"
            }
          },
          "attempts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AttemptRecord"
            }
          },
          "revocations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RevocationRecord"
            }
          },
          "pendingFinishes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PendingFinish"
            }
          },
          "steps": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LookupStep"
            }
          }
        },
        "description": "Everything under the ID in every store; every array empty when nothing is (Docs/Support.md)."
      },
      "ReconcileBody": {
        "type": "object",
        "required": [
          "store"
        ],
        "properties": {
          "store": {
            "type": "string",
            "enum": [
              "appStore",
              "playStore"
            ]
          },
          "apply": {
            "type": [
              "boolean",
              "null"
            ]
          },
          "transactionID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "appTransactionID": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          },
          "pageCountMax": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1,
            "maximum": 50
          }
        },
        "additionalProperties": false,
        "description": "`apply`: grant and refund what the report lists (default false: report only). App Store only: `transactionID` or `appTransactionID` (not both; default the player's newest App Store record) names the player's Apple Account, `pageCountMax` the pages of 20 read of each history (default 25)."
      },
      "ReconcileEntry": {
        "type": "object",
        "required": [
          "ledgerKey",
          "storeProductID"
        ],
        "properties": {
          "transactionID": {
            "type": "string"
          },
          "originalTransactionID": {
            "type": "string"
          },
          "orderID": {
            "type": "string"
          },
          "storeProductID": {
            "type": "string"
          },
          "ledgerKey": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "purchaseDate": {
            "type": "string",
            "format": "date-time"
          },
          "revocationDate": {
            "type": "string",
            "format": "date-time"
          },
          "orderState": {
            "type": "string"
          },
          "quantity": {
            "type": "integer"
          },
          "ledgerRefundedQuantity": {
            "type": "integer"
          },
          "total": {
            "type": "object"
          },
          "refunded": {
            "type": "object"
          }
        }
      },
      "AppStoreReconciliation": {
        "type": "object",
        "required": [
          "playerID",
          "anchorTransactionID",
          "isComplete",
          "missingGrants",
          "unappliedRefunds",
          "unknownToStore",
          "didApply",
          "isClean"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "anchorTransactionID": {
            "type": "string"
          },
          "readAt": {
            "type": "string",
            "format": "date-time"
          },
          "isComplete": {
            "type": "boolean"
          },
          "transactionsRead": {
            "type": "integer"
          },
          "unattributedCount": {
            "type": "integer"
          },
          "appTransactionIDs": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "unbound": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "missingGrants": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "unappliedRefunds": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "unknownToStore": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PurchaseKey"
            }
          },
          "notInCatalog": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "didApply": {
            "type": "boolean"
          },
          "applied": {
            "type": "object"
          },
          "isClean": {
            "type": "boolean"
          }
        },
        "description": "The App Store's report (Docs/AppStore.md, Reconcile and restore)."
      },
      "PlayReconciliation": {
        "type": "object",
        "required": [
          "playerID",
          "ordersRead",
          "unappliedRefunds",
          "unknownToStore",
          "didApply",
          "isClean"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "readAt": {
            "type": "string",
            "format": "date-time"
          },
          "ordersRead": {
            "type": "integer"
          },
          "withoutOrderID": {
            "type": "integer"
          },
          "unappliedRefunds": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "refundedOnlyInLedger": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "canceledButGranted": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReconcileEntry"
            }
          },
          "unknownToStore": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "refundedTotals": {
            "type": "object"
          },
          "unreadableAmounts": {
            "type": "object"
          },
          "didApply": {
            "type": "boolean"
          },
          "voidsRecorded": {
            "type": "integer"
          },
          "isClean": {
            "type": "boolean"
          }
        },
        "description": "Google Play's report (Docs/PlayStore.md, Orders and reconciliation)."
      },
      "ReconcileReport": {
        "anyOf": [
          {
            "$ref": "#/components/schemas/AppStoreReconciliation"
          },
          {
            "$ref": "#/components/schemas/PlayReconciliation"
          }
        ]
      },
      "AppTransactionLookup": {
        "type": "object",
        "required": [
          "found"
        ],
        "properties": {
          "found": {
            "type": "boolean"
          },
          "appTransaction": {
            "type": "object"
          },
          "httpStatusCode": {
            "type": "integer"
          },
          "errorCode": {
            "type": "integer"
          },
          "errorMessage": {
            "type": "string"
          }
        },
        "description": "`found` with the verified, decoded app transaction (its `appTransactionId`), or not found with Apple's answer."
      },
      "AppAccountTokenBody": {
        "type": "object",
        "required": [
          "playerID"
        ],
        "properties": {
          "playerID": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
          }
        },
        "additionalProperties": false
      },
      "AppAccountTokenAssignment": {
        "type": "object",
        "required": [
          "originalTransactionID",
          "appAccountToken",
          "playerID"
        ],
        "properties": {
          "originalTransactionID": {
            "type": "string"
          },
          "appAccountToken": {
            "type": "string"
          },
          "playerID": {
            "type": "string"
          },
          "binding": {
            "$ref": "#/components/schemas/AccountTokenBinding"
          }
        }
      },
      "AppStoreNotificationBody": {
        "type": "object",
        "required": [
          "signedPayload"
        ],
        "properties": {
          "signedPayload": {
            "type": "string"
          }
        },
        "additionalProperties": false
      },
      "StripeWebhookOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "unauthenticated",
              "rejected",
              "duplicate",
              "fulfilled",
              "unassigned",
              "nothingToDo",
              "revocations"
            ]
          },
          "error": {
            "type": "object",
            "required": [
              "code",
              "name",
              "message"
            ],
            "properties": {
              "code": {
                "type": "integer"
              },
              "name": {
                "type": "string"
              },
              "message": {
                "type": "string"
              }
            }
          },
          "message": {
            "type": "string"
          },
          "notification": {
            "$ref": "#/components/schemas/NotificationRecord"
          },
          "sessionID": {
            "type": "string"
          },
          "fulfillments": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FulfillmentOutcome"
            }
          },
          "type": {
            "type": "string"
          },
          "chargeID": {
            "type": "string"
          },
          "revocations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RevocationOutcome"
            }
          }
        },
        "description": "What the webhook did (Docs/Stripe.md)."
      },
      "NotificationOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "description": "What the notification did; the other fields depend on it."
          },
          "error": {
            "type": "object",
            "description": "Why it was refused (`rejected`, `unauthenticated`)."
          },
          "httpStatus": {
            "type": "integer"
          },
          "note": {
            "type": "string"
          },
          "notificationUUID": {
            "type": "string"
          },
          "transactionID": {
            "type": "string"
          },
          "notification": {
            "$ref": "#/components/schemas/NotificationRecord"
          },
          "fulfillment": {
            "$ref": "#/components/schemas/FulfillmentOutcome"
          },
          "revocation": {
            "$ref": "#/components/schemas/RevocationOutcome"
          },
          "refundCheck": {
            "type": "object"
          },
          "subscription": {
            "$ref": "#/components/schemas/SubscriptionState"
          },
          "period": {
            "$ref": "#/components/schemas/FulfillmentOutcome"
          },
          "update": {
            "type": "string"
          },
          "review": {
            "$ref": "#/components/schemas/PlayRefundReview"
          },
          "charge": {
            "type": "object"
          },
          "rescission": {
            "type": "object"
          },
          "consumptionInformation": {
            "type": "object"
          },
          "deadline": {
            "type": "string",
            "format": "date-time"
          }
        },
        "description": "What a store's notification did (App Store Server Notifications, Google Play RTDN)."
      },
      "NotificationRecord": {
        "type": "object",
        "required": [
          "notificationID",
          "store",
          "type",
          "receivedAt",
          "outcome"
        ],
        "properties": {
          "notificationID": {
            "type": "string"
          },
          "store": {
            "type": "string"
          },
          "type": {
            "type": "string"
          },
          "receivedAt": {
            "type": "string",
            "format": "date-time"
          },
          "outcome": {
            "type": "string"
          },
          "transaction": {
            "$ref": "#/components/schemas/PurchaseKey"
          }
        },
        "description": "The notification as the ledger journaled it."
      },
      "SubscriptionState": {
        "type": "object",
        "required": [
          "chain",
          "playerID",
          "productID",
          "state"
        ],
        "properties": {
          "chain": {
            "$ref": "#/components/schemas/PurchaseKey"
          },
          "playerID": {
            "type": "string"
          },
          "productID": {
            "type": "string"
          },
          "storeProductID": {
            "type": "string"
          },
          "subscriptionGroup": {
            "type": "string"
          },
          "entitlementIDs": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "state": {
            "type": "string"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          },
          "willAutoRenew": {
            "type": "boolean"
          },
          "latestPeriodID": {
            "type": "string"
          },
          "periodCount": {
            "type": "integer"
          },
          "stateSignedAt": {
            "type": "string",
            "format": "date-time"
          },
          "updatedAt": {
            "type": "string",
            "format": "date-time"
          }
        },
        "description": "A subscription chain's stored state."
      },
      "PlayRefundReview": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "sent",
              "alreadySent",
              "pastDeadline",
              "refused"
            ]
          },
          "answer": {
            "type": "object"
          },
          "orderID": {
            "type": "string"
          },
          "deadline": {
            "type": "string",
            "format": "date-time"
          },
          "code": {
            "type": "integer"
          },
          "detail": {
            "type": "string"
          }
        },
        "description": "A Google Play refund review answered, or why not (Docs/PlayStore.md)."
      },
      "SteamOrderLine": {
        "type": "object",
        "required": [
          "itemID",
          "quantity",
          "amount",
          "description"
        ],
        "properties": {
          "itemID": {
            "type": "integer",
            "minimum": 1,
            "maximum": 4294967295,
            "description": "The game's Steam item ID (the catalog's `steam` ID)."
          },
          "quantity": {
            "type": "integer",
            "minimum": 1,
            "maximum": 32767
          },
          "amount": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100000000000,
            "description": "The line's total, in hundredths of the currency."
          },
          "description": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "Shown to the player."
          },
          "category": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 64,
            "description": "For Steam's reports; never shown."
          }
        },
        "additionalProperties": false
      },
      "SteamOrderRequest": {
        "type": "object",
        "required": [
          "orderID",
          "steamID",
          "language",
          "currency",
          "lines"
        ],
        "properties": {
          "orderID": {
            "type": "string",
            "pattern": "^[1-9][0-9]{0,19}$",
            "description": "The game's own 64-bit order ID, in decimal, unique for the app."
          },
          "steamID": {
            "type": "string",
            "pattern": "^[1-9][0-9]{0,19}$",
            "description": "The buyer's 64-bit Steam ID, in decimal: the player ID."
          },
          "language": {
            "type": "string",
            "pattern": "^[a-z]{2}$",
            "description": "ISO 639-1 language of the descriptions."
          },
          "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 currency of the amounts."
          },
          "userSession": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "client",
              "web",
              null
            ],
            "description": "The overlay (default) or the web page at `steamURL`."
          },
          "ipAddress": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 45,
            "description": "The player's IP address: required for a web session."
          },
          "lines": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/SteamOrderLine"
            },
            "minItems": 1,
            "maxItems": 100
          }
        },
        "additionalProperties": false,
        "description": "A Steam order: InitTxn's cart (Docs/Steam.md)."
      },
      "SteamAuthorizationBody": {
        "type": "object",
        "required": [
          "authorized"
        ],
        "properties": {
          "authorized": {
            "type": "boolean"
          }
        },
        "additionalProperties": false
      },
      "SteamOrderOutcome": {
        "type": "object",
        "required": [
          "outcome",
          "fulfillments"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "started",
              "refused",
              "submitted",
              "unassigned"
            ]
          },
          "orderID": {
            "type": "string"
          },
          "transactionID": {
            "type": "string"
          },
          "steamURL": {
            "type": "string"
          },
          "status": {
            "type": "string"
          },
          "steamID": {
            "type": "string"
          },
          "error": {
            "type": "object",
            "required": [
              "code",
              "message"
            ],
            "properties": {
              "code": {
                "type": "integer",
                "description": "Steam's errorcode."
              },
              "message": {
                "type": "string"
              }
            }
          },
          "fulfillments": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FulfillmentOutcome"
            }
          }
        },
        "description": "What the call did with the order; one fulfillment per item (Docs/Steam.md)."
      },
      "SteamReportSyncReport": {
        "type": "object",
        "required": [
          "startTime",
          "pagesRead",
          "ordersSeen",
          "granted",
          "alreadyFulfilled",
          "truncated"
        ],
        "properties": {
          "startTime": {
            "type": "string",
            "format": "date-time"
          },
          "pagesRead": {
            "type": "integer"
          },
          "ordersSeen": {
            "type": "integer"
          },
          "granted": {
            "type": "integer"
          },
          "alreadyFulfilled": {
            "type": "integer"
          },
          "rejected": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "awaitingFinalize": {
            "type": "integer"
          },
          "unassigned": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "revocationsRecorded": {
            "type": "integer"
          },
          "revocationsAlreadyRecorded": {
            "type": "integer"
          },
          "revocationsRejected": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "skipped": {
            "type": "integer"
          },
          "watermarkSaved": {
            "type": "integer",
            "format": "int64"
          },
          "truncated": {
            "type": "boolean"
          }
        },
        "description": "What one report sync did (Docs/Steam.md, Recovery and refunds)."
      },
      "InitOutput": {
        "type": "object",
        "required": [
          "db",
          "created",
          "schemaVersion"
        ],
        "properties": {
          "db": {
            "type": "string"
          },
          "created": {
            "type": "boolean"
          },
          "schemaVersion": {
            "type": "integer"
          }
        },
        "description": "`ledger init`: the ledger and whether this run created it."
      },
      "FulfillOutput": {
        "allOf": [
          {
            "$ref": "#/components/schemas/FulfillmentOutcome"
          },
          {
            "type": "object",
            "required": [
              "transactionID",
              "productID",
              "playerID"
            ],
            "properties": {
              "transactionID": {
                "type": "string"
              },
              "productID": {
                "type": "string"
              },
              "playerID": {
                "type": "string"
              }
            }
          }
        ],
        "description": "`ledger fulfill`: the outcome with the submission's transaction, store product and player."
      },
      "AppStoreFulfillOutput": {
        "anyOf": [
          {
            "$ref": "#/components/schemas/FulfillOutput"
          },
          {
            "$ref": "#/components/schemas/AppStoreTransactionLookup"
          }
        ],
        "description": "`ledger appstore fulfill`: the outcome, or `found` false."
      },
      "RecoveryReport": {
        "type": "object",
        "required": [
          "clean",
          "finished",
          "resubmitted",
          "stillPending",
          "inFlightElsewhere",
          "errors"
        ],
        "properties": {
          "clean": {
            "type": "boolean"
          },
          "finished": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PurchaseKey"
            }
          },
          "resubmitted": {
            "type": "array",
            "items": {
              "type": "object"
            }
          },
          "stillPending": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "store",
                "transactionID"
              ],
              "properties": {
                "store": {
                  "type": "string"
                },
                "transactionID": {
                  "type": "string"
                },
                "error": {
                  "type": "string"
                }
              }
            }
          },
          "inFlightElsewhere": {
            "type": "array",
            "items": {
              "type": "object"
            }
          },
          "errors": {
            "type": "array",
            "items": {
              "type": "object"
            }
          }
        },
        "description": "`ledger recover`: what one recovery pass finished, resubmitted and left."
      },
      "EntitlementsOutput": {
        "type": "object",
        "required": [
          "playerID",
          "version",
          "entitlements",
          "owned",
          "adsAllowedWithConsent"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "version": {
            "type": "integer"
          },
          "entitlements": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "owned": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/EntitlementRecord"
            }
          },
          "adsAllowedWithConsent": {
            "type": "boolean"
          }
        },
        "description": "`ledger entitlements --json`: each entitlement's status and what grants it."
      },
      "SubscriptionsOutput": {
        "type": "object",
        "required": [
          "playerID",
          "readAt",
          "subscriptions"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "readAt": {
            "type": "string",
            "format": "date-time"
          },
          "subscriptions": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "chainID",
                "store",
                "productID",
                "state",
                "entitled"
              ],
              "properties": {
                "chainID": {
                  "type": "string"
                },
                "store": {
                  "type": "string"
                },
                "productID": {
                  "type": "string"
                },
                "storeProductID": {
                  "type": "string"
                },
                "subscriptionGroup": {
                  "type": "string"
                },
                "state": {
                  "type": "string"
                },
                "storedState": {
                  "type": "string"
                },
                "entitled": {
                  "type": "boolean"
                },
                "entitlements": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                "expiresAt": {
                  "type": "string",
                  "format": "date-time"
                },
                "gracePeriodExpiresAt": {
                  "type": "string",
                  "format": "date-time"
                },
                "willAutoRenew": {
                  "type": "boolean"
                },
                "periodsGranted": {
                  "type": "integer"
                },
                "periods": {
                  "type": "array",
                  "items": {
                    "type": "object"
                  }
                }
              }
            }
          }
        },
        "description": "`ledger subscriptions --json`: each chain's state at `readAt`."
      },
      "HistoryOutput": {
        "type": "object",
        "required": [
          "events",
          "truncated"
        ],
        "properties": {
          "events": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LedgerEvent"
            }
          },
          "truncated": {
            "type": "boolean"
          },
          "nextAfter": {
            "type": "integer"
          }
        },
        "description": "`ledger history --json`: events oldest first; `nextAfter` when truncated."
      },
      "HealthReport": {
        "type": "object",
        "required": [
          "healthy",
          "schemaVersion",
          "schemaVersionSupported",
          "transactionCount",
          "pendingFinishCount",
          "finishWarningAgeSeconds",
          "overdueFinishCount",
          "pendingFinishes",
          "pendingFinishesTruncated",
          "unacknowledgedPlayVoids"
        ],
        "properties": {
          "transactionCount": {
            "type": "integer"
          },
          "pendingFinishCount": {
            "type": "integer"
          },
          "finishWarningAgeSeconds": {
            "type": "integer"
          },
          "overdueFinishCount": {
            "type": "integer"
          },
          "healthy": {
            "type": "boolean"
          },
          "schemaVersion": {
            "type": "integer"
          },
          "schemaVersionSupported": {
            "type": "integer"
          },
          "pendingFinishesTruncated": {
            "type": "boolean"
          },
          "pendingFinishes": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "key",
                "playerID",
                "ageSeconds",
                "attemptCount",
                "overdue"
              ],
              "properties": {
                "key": {
                  "$ref": "#/components/schemas/PurchaseKey"
                },
                "playerID": {
                  "type": "string"
                },
                "ageSeconds": {
                  "type": "integer"
                },
                "attemptCount": {
                  "type": "integer"
                },
                "lastError": {
                  "type": "string"
                },
                "overdue": {
                  "type": "boolean"
                }
              }
            }
          },
          "nextAfter": {
            "type": "string"
          },
          "unacknowledgedPlayVoids": {
            "type": "object",
            "required": [
              "count"
            ],
            "properties": {
              "count": {
                "type": "integer"
              },
              "latestAt": {
                "type": "string",
                "format": "date-time"
              }
            }
          },
          "path": {
            "type": "string",
            "description": "SQLite."
          },
          "integrity": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "SQLite."
          },
          "location": {
            "type": "string",
            "description": "PostgreSQL."
          },
          "server": {
            "type": "object",
            "description": "PostgreSQL."
          },
          "problems": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "PostgreSQL."
          }
        },
        "description": "`ledger doctor --json`, on either engine."
      },
      "MigrationReport": {
        "type": "object",
        "required": [
          "outcome",
          "source",
          "target",
          "tables",
          "sourceBalanceChecksum",
          "problems"
        ],
        "properties": {
          "outcome": {
            "type": "string",
            "enum": [
              "copied",
              "refusedTargetNotEmpty",
              "verificationFailed"
            ]
          },
          "source": {
            "type": "string"
          },
          "target": {
            "type": "string"
          },
          "tables": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "name",
                "sourceRowCount",
                "targetRowCount"
              ],
              "properties": {
                "name": {
                  "type": "string"
                },
                "sourceRowCount": {
                  "type": "integer"
                },
                "targetRowCount": {
                  "type": "integer"
                }
              }
            }
          },
          "sourceBalanceChecksum": {
            "type": "string"
          },
          "targetBalanceChecksum": {
            "type": "string"
          },
          "problems": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "description": "`ledger migrate --json`: the copy and its check."
      },
      "CatalogCheckOutput": {
        "type": "object",
        "required": [
          "file",
          "valid",
          "problems",
          "warnings"
        ],
        "properties": {
          "file": {
            "type": "string"
          },
          "valid": {
            "type": "boolean"
          },
          "version": {
            "type": "string"
          },
          "productCount": {
            "type": "integer"
          },
          "problems": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/CatalogProblem"
            }
          },
          "warnings": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/CatalogProblem"
            }
          }
        },
        "description": "`ledger catalog check --json`."
      },
      "CatalogProblem": {
        "type": "object",
        "required": [
          "severity",
          "path",
          "message"
        ],
        "properties": {
          "severity": {
            "type": "string"
          },
          "path": {
            "type": "string"
          },
          "message": {
            "type": "string"
          },
          "line": {
            "type": "integer"
          },
          "column": {
            "type": "integer"
          }
        },
        "description": "One problem of a catalog, located."
      },
      "CatalogDiffOutput": {
        "type": "object",
        "required": [
          "oldVersion",
          "newVersion",
          "severity",
          "dangerous",
          "changes"
        ],
        "properties": {
          "oldVersion": {
            "type": "string"
          },
          "newVersion": {
            "type": "string"
          },
          "severity": {
            "type": "string"
          },
          "dangerous": {
            "type": "boolean"
          },
          "changes": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "kind",
                "subject",
                "severity",
                "dangerous",
                "message"
              ],
              "properties": {
                "kind": {
                  "type": "string"
                },
                "id": {
                  "type": "string"
                },
                "subject": {
                  "type": "string"
                },
                "severity": {
                  "type": "string"
                },
                "dangerous": {
                  "type": "boolean"
                },
                "message": {
                  "type": "string"
                },
                "productID": {
                  "type": "string"
                },
                "ownerCount": {
                  "type": "integer"
                },
                "soldCount": {
                  "type": "integer"
                }
              }
            }
          }
        },
        "description": "`ledger catalog diff --json`."
      },
      "CatalogExplanation": {
        "type": "object",
        "required": [
          "productID",
          "kind",
          "storeProductIDs",
          "grants",
          "lines"
        ],
        "properties": {
          "productID": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "kind": {
            "type": "string"
          },
          "storeProductIDs": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "grants": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Grant"
            }
          },
          "refundPolicy": {
            "type": "string"
          },
          "lines": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "description": "`ledger catalog explain --json`."
      },
      "AppStoreSignedPayload": {
        "type": "object",
        "description": "`ledger appstore verify`: Apple's decoded payload, as Apple names its fields."
      },
      "AppStoreTransactionLookup": {
        "type": "object",
        "required": [
          "found"
        ],
        "properties": {
          "found": {
            "type": "boolean"
          },
          "transaction": {
            "type": "object"
          },
          "httpStatusCode": {
            "type": "integer"
          },
          "errorCode": {
            "type": "integer"
          },
          "errorMessage": {
            "type": "string"
          }
        },
        "description": "`ledger appstore lookup`: Apple's decoded transaction, or not found with Apple's answer."
      },
      "AppStoreHistoryPage": {
        "type": "object",
        "required": [
          "transactions",
          "hasMore"
        ],
        "properties": {
          "transactions": {
            "type": "array",
            "items": {
              "type": "object"
            }
          },
          "revision": {
            "type": "string"
          },
          "hasMore": {
            "type": "boolean"
          }
        },
        "description": "`ledger appstore history`: one page, decoded."
      },
      "AppStoreSubscriptionStatusOutput": {
        "type": "object",
        "required": [
          "playerID",
          "subscriptions"
        ],
        "properties": {
          "playerID": {
            "type": "string"
          },
          "subscriptions": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "chainID",
                "outcome"
              ],
              "properties": {
                "chainID": {
                  "type": "string"
                },
                "outcome": {
                  "type": "string"
                },
                "status": {
                  "type": "integer"
                },
                "subscription": {
                  "$ref": "#/components/schemas/SubscriptionState"
                },
                "period": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                },
                "update": {
                  "type": "string"
                }
              }
            }
          }
        },
        "description": "`ledger appstore subscription-status`."
      },
      "AppStoreNotificationsSyncReport": {
        "type": "object",
        "required": [
          "pagesRead",
          "notificationsRead",
          "applied",
          "truncated"
        ],
        "properties": {
          "pagesRead": {
            "type": "integer"
          },
          "notificationsRead": {
            "type": "integer"
          },
          "applied": {
            "type": "integer"
          },
          "alreadyProcessed": {
            "type": "integer"
          },
          "rejected": {
            "type": "integer"
          },
          "retryableRejected": {
            "type": "integer"
          },
          "revocationsApplied": {
            "type": "integer"
          },
          "startDate": {
            "type": "string",
            "format": "date-time"
          },
          "endDate": {
            "type": "string",
            "format": "date-time"
          },
          "onlyFailures": {
            "type": "boolean"
          },
          "truncated": {
            "type": "boolean"
          },
          "watermarkSaved": {
            "type": "string",
            "format": "date-time"
          },
          "rejections": {
            "type": "array",
            "items": {
              "type": "object"
            }
          },
          "consumptionRequestTransactionIDs": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "description": "`ledger appstore notifications-sync`."
      },
      "AppStoreConsumptionOutcome": {
        "type": "object",
        "required": [
          "outcome"
        ],
        "properties": {
          "outcome": {
            "type": "string"
          },
          "transactionID": {
            "type": "string"
          },
          "answer": {
            "type": "object"
          }
        },
        "description": "`ledger appstore consumption`: the consumption answer sent, or why not."
      },
      "PlayVerification": {
        "type": "object",
        "required": [
          "state",
          "quantity",
          "environment",
          "purchase"
        ],
        "properties": {
          "state": {
            "type": "string"
          },
          "quantity": {
            "type": "integer"
          },
          "environment": {
            "type": "string"
          },
          "accountBinding": {
            "type": "string"
          },
          "purchase": {
            "type": "object"
          }
        },
        "description": "`ledger playstore verify`: Google's purchase, read."
      },
      "PlayVoidedSyncReport": {
        "type": "object",
        "required": [
          "pagesRead",
          "voidedSeen",
          "recorded",
          "alreadyRecorded",
          "skipped",
          "unacknowledgedVoids",
          "refundChecks",
          "truncated"
        ],
        "properties": {
          "pagesRead": {
            "type": "integer"
          },
          "voidedSeen": {
            "type": "integer"
          },
          "recorded": {
            "type": "integer"
          },
          "alreadyRecorded": {
            "type": "integer"
          },
          "skipped": {
            "type": "integer"
          },
          "unacknowledgedVoids": {
            "type": "integer"
          },
          "refundChecks": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          },
          "truncated": {
            "type": "boolean"
          },
          "watermarkMilliseconds": {
            "type": "integer",
            "format": "int64"
          }
        },
        "description": "`ledger playstore voided-sync`."
      },
      "ServeListening": {
        "type": "object",
        "required": [
          "listening"
        ],
        "properties": {
          "listening": {
            "type": "string"
          }
        },
        "description": "`ledger serve`: the address it listens on."
      },
      "DemoStep": {
        "type": "object",
        "required": [
          "step",
          "detail"
        ],
        "properties": {
          "step": {
            "type": "string"
          },
          "detail": {
            "type": "string"
          }
        },
        "description": "`ledger demo --json`: one line per step."
      },
      "SimulationSummary": {
        "type": "object",
        "required": [
          "runs",
          "steps",
          "trace",
          "violations"
        ],
        "properties": {
          "runs": {
            "type": "integer"
          },
          "steps": {
            "type": "integer"
          },
          "transactions": {
            "type": "integer"
          },
          "grants": {
            "type": "integer"
          },
          "signedTransactions": {
            "type": "integer"
          },
          "playTransactions": {
            "type": "integer"
          },
          "playSubscriptionPeriods": {
            "type": "integer"
          },
          "playPurchaseOptions": {
            "type": "integer"
          },
          "playOptionGrants": {
            "type": "integer"
          },
          "playRefusedOffers": {
            "type": "integer"
          },
          "refunds": {
            "type": "integer"
          },
          "reversals": {
            "type": "integer"
          },
          "restarts": {
            "type": "integer"
          },
          "restoredDeliveries": {
            "type": "integer"
          },
          "restoreRevokes": {
            "type": "integer"
          },
          "scopedRestores": {
            "type": "integer"
          },
          "refundReviews": {
            "type": "integer"
          },
          "refundReviewsAnswered": {
            "type": "integer"
          },
          "refundReviewsLate": {
            "type": "integer"
          },
          "oneTimeCharges": {
            "type": "integer"
          },
          "unassignedCharges": {
            "type": "integer"
          },
          "subscriptionNotifications": {
            "type": "integer"
          },
          "subscriptionPeriods": {
            "type": "integer"
          },
          "tokenRegistrations": {
            "type": "integer"
          },
          "stripePurchases": {
            "type": "integer"
          },
          "stripeRefunds": {
            "type": "integer"
          },
          "stripeDisputes": {
            "type": "integer"
          },
          "steamOrders": {
            "type": "integer"
          },
          "steamRecoveredGrants": {
            "type": "integer"
          },
          "steamRefunds": {
            "type": "integer"
          },
          "steamChargebacks": {
            "type": "integer"
          },
          "faultsInjected": {
            "type": "object",
            "additionalProperties": {
              "type": "integer"
            }
          },
          "trace": {
            "type": "string"
          },
          "violations": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "description": "`ledger simulate --json`."
      },
      "WorkloadLine": {
        "type": "object",
        "required": [
          "transactionID",
          "playerID",
          "outcome"
        ],
        "properties": {
          "transactionID": {
            "type": "string"
          },
          "playerID": {
            "type": "string"
          },
          "outcome": {
            "type": "string"
          }
        },
        "description": "`ledger workload --json`: one line per transaction."
      }
    }
  },
  "paths": {
    "/purchases": {
      "post": {
        "operationId": "submitPurchase",
        "summary": "A client's purchase, verified and granted exactly once, then finished.",
        "security": [
          {
            "bearer": []
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The purchase the client reported.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PurchaseBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "`granted` or `alreadyFulfilled`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                }
              }
            }
          },
          "409": {
            "description": "Rejected: the transaction belongs to another product, player or quantity.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                }
              }
            }
          },
          "422": {
            "description": "Rejected for any other reason; a retry cannot help.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                }
              }
            }
          },
          "202": {
            "description": "Rejected `pending`: submit it again once paid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FulfillmentOutcome"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/operations": {
      "post": {
        "operationId": "applyOperation",
        "summary": "The game's spend or grant, applied once by operationID.",
        "security": [
          {
            "bearer": []
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The operation.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/EconomyOperation"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "`applied` or `alreadyApplied`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OperationOutcome"
                }
              }
            }
          },
          "409": {
            "description": "Rejected `conflictOperation` or `insufficientFunds`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OperationOutcome"
                }
              }
            }
          },
          "422": {
            "description": "Rejected otherwise (an unknown asset, an amount out of range).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OperationOutcome"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/revocations": {
      "post": {
        "operationId": "applyRevocation",
        "summary": "A refund, partial refund, revoke or reversal, applied once by eventID.",
        "security": [
          {
            "bearer": []
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RevocationEvent"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "`recorded` or `alreadyRecorded`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RevocationOutcome"
                }
              }
            }
          },
          "409": {
            "description": "Rejected `conflictEvent`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RevocationOutcome"
                }
              }
            }
          },
          "422": {
            "description": "Rejected otherwise.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RevocationOutcome"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}": {
      "get": {
        "operationId": "player",
        "summary": "A player's balances, inventory, entitlements, history and recent events.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlayerSnapshot"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/entitlements": {
      "get": {
        "operationId": "entitlements",
        "summary": "A player's entitlement statuses.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EntitlementSnapshot"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/eligibility": {
      "get": {
        "operationId": "eligibility",
        "summary": "Whether the player may start buying a product now (limits with quantity), before payment.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          },
          {
            "name": "product",
            "in": "query",
            "required": true,
            "description": "The catalog product ID (one the catalog lacks is `unknownProduct`).",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "quantity",
            "in": "query",
            "required": false,
            "description": "Units to buy (default 1).",
            "schema": {
              "type": "integer"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Eligibility"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/subscriptions": {
      "get": {
        "operationId": "subscriptions",
        "summary": "Each subscription chain with its state at a time, whether it entitles, and its periods.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          },
          {
            "name": "at",
            "in": "query",
            "required": false,
            "description": "The time to read at (RFC 3339; default now).",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Subscriptions"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/history": {
      "get": {
        "operationId": "history",
        "summary": "One page of the player's events, oldest first.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          },
          {
            "name": "after",
            "in": "query",
            "required": false,
            "description": "The cursor: 0, or the `next` of the last page.",
            "schema": {
              "type": "integer",
              "minimum": 0,
              "format": "int64"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Most items in the page, 1 to 1000.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EventPage"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/reset": {
      "post": {
        "operationId": "resetPlayer",
        "summary": "Reset Game: balances, inventory and limits cleared; the ledger kept.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "responses": {
          "200": {
            "description": "Reset.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Reset"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/account-token": {
      "post": {
        "operationId": "bindAccountToken",
        "summary": "Registers the player's account token (App Store appAccountToken) under the server's account binding, so a purchase the store reports to the server alone (ONE_TIME_CHARGE) is granted to the player. A repeat answers the recorded binding; a token that names another player is refused (400).",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The store whose token to register.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AccountTokenBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The binding, new or recorded before.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AccountTokenBinding"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/reconcile": {
      "post": {
        "operationId": "reconcile",
        "summary": "Compares the player's records with the store's: Apple's Transaction and Refund History (App Store), or Google's orders (Google Play); with `apply`, grants what is missing and applies unapplied refunds, each once. Needs the store's server API on this server.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The store, the anchor and whether to apply.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ReconcileBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The report, clean or not.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReconcileReport"
                }
              }
            }
          },
          "404": {
            "description": "The server has no server API for that store (`--app-store-key`, the Play API options).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/players/{playerID}/restore": {
      "post": {
        "operationId": "restore",
        "summary": "The store's list of the player's purchases, reconciled once.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "playerID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The player's ID, percent-encoded: 1 to 256 bytes of UTF-8, no control character."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The list.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RestoreBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The report.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RestoreReport"
                }
              }
            }
          },
          "503": {
            "description": "A listed purchase met an infrastructure error; restoring again is safe.",
            "content": {
              "application/json": {
                "schema": {
                  "oneOf": [
                    {
                      "$ref": "#/components/schemas/RestoreReport"
                    },
                    {
                      "$ref": "#/components/schemas/ErrorBody"
                    }
                  ]
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          }
        }
      }
    },
    "/lookup/{id}": {
      "get": {
        "operationId": "lookup",
        "summary": "A purchase found by any store ID: its records, chains, attempts that granted nothing, refunds, and what happened in order.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 4096,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "Any store ID of a purchase, percent-encoded: a delivery's transaction ID, the purchase key, an App Store originalTransactionId or webOrderLineItemId, a Play purchase token or order ID (GPA.…)."
          }
        ],
        "responses": {
          "200": {
            "description": "The report.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LookupReport"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/changes": {
      "get": {
        "operationId": "changes",
        "summary": "One page of the change feed, in commit order.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "after",
            "in": "query",
            "required": false,
            "description": "The cursor: 0, or the `next` of the last page.",
            "schema": {
              "type": "integer",
              "minimum": 0,
              "format": "int64"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Most items in the page, 1 to 1000.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The page.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ChangePage"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/appstore/app-transactions/{transactionID}": {
      "get": {
        "operationId": "appTransaction",
        "summary": "Get App Transaction Info: the verified app transaction of the customer of a transaction, whose appTransactionId names their Apple Account for good.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "transactionID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "Any App Store transaction ID of the customer, percent-encoded."
          }
        ],
        "responses": {
          "200": {
            "description": "Found, or not found with Apple's answer.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AppTransactionLookup"
                }
              }
            }
          },
          "404": {
            "description": "The server has no App Store Server API (`--app-store-key`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "422": {
            "description": "Apple refused the request for good (`appStoreAPI.rejected`: not an original transaction ID, Family Sharing, unknown).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "502": {
            "description": "Apple's answer did not verify or could not be read.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/appstore/transactions/{originalTransactionID}/app-account-token": {
      "post": {
        "operationId": "setAppAccountToken",
        "summary": "Records the player's App Store account token, then sets it on a purchase made outside the app (Set App Account Token), so its transactions name the player. Grants nothing.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "originalTransactionID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 256,
              "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
            },
            "description": "The purchase's originalTransactionId, percent-encoded."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The player.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AppAccountTokenBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The token set and the ledger's binding.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AppAccountTokenAssignment"
                }
              }
            }
          },
          "404": {
            "description": "The server has no App Store Server API (`--app-store-key`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "422": {
            "description": "Apple refused the request for good (`appStoreAPI.rejected`: not an original transaction ID, Family Sharing, unknown).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "502": {
            "description": "Apple's answer did not verify or could not be read.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/appstore/notifications": {
      "post": {
        "operationId": "appStoreNotification",
        "summary": "An App Store Server Notification V2, verified and applied once by notificationUUID.",
        "requestBody": {
          "required": true,
          "description": "Apple's body.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AppStoreNotificationBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Every outcome, a refusal included.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NotificationOutcome"
                }
              }
            }
          },
          "404": {
            "description": "The server has no App Store verifier (`--root`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/playstore/notifications": {
      "post": {
        "operationId": "playNotification",
        "summary": "A Pub/Sub push of a Google Play RTDN, authenticated by its own token.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              }
            }
          }
        },
        "responses": {
          "204": {
            "description": "Acknowledged (applied, or refused for good)."
          },
          "401": {
            "description": "No push token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NotificationOutcome"
                }
              }
            }
          },
          "403": {
            "description": "A refused push token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NotificationOutcome"
                }
              }
            }
          },
          "404": {
            "description": "The server takes no Play pushes (`--audience`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/stripe/webhooks": {
      "post": {
        "operationId": "stripeWebhook",
        "summary": "A Stripe webhook, authenticated by its Stripe-Signature header, applied once by its event ID and confirmed with Stripe's API: a paid Checkout Session granted per line item, a refund or dispute taken back.",
        "parameters": [
          {
            "name": "Stripe-Signature",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "`t=<seconds>,v1=<HMAC-SHA256 hex>`, as Stripe signs."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event exactly as Stripe sent it.",
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Applied, already applied, or nothing to do.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StripeWebhookOutcome"
                }
              }
            }
          },
          "400": {
            "description": "A signature that does not authenticate, or an event the adapter cannot read: nothing was recorded.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StripeWebhookOutcome"
                }
              }
            }
          },
          "404": {
            "description": "The server takes no Stripe webhooks (`--stripe-api-key-env`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/steam/orders": {
      "post": {
        "operationId": "steamOrder",
        "summary": "Starts a Steam order (InitTxn) whose items the catalog maps; each item is recorded as a pending attempt. The player then authorises it in the Steam overlay, or at `steamURL`.",
        "security": [
          {
            "bearer": []
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The order.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SteamOrderRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamOrderOutcome"
                }
              }
            }
          },
          "422": {
            "description": "Steam refused InitTxn, or the buyer is no player.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamOrderOutcome"
                }
              }
            }
          },
          "404": {
            "description": "The server sells nothing on Steam (`--steam-api-key-env`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/steam/orders/{orderID}/authorization": {
      "post": {
        "operationId": "steamAuthorization",
        "summary": "The player's answer in the overlay (MicroTxnAuthorizationResponse_t): authorised, FinalizeTxn charges the order and each item is granted once, after Steam confirms it; declined, the items are recorded as Steam holds them.",
        "security": [
          {
            "bearer": []
          }
        ],
        "parameters": [
          {
            "name": "orderID",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[1-9][0-9]{0,19}$"
            },
            "description": "The game's order ID, in decimal."
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The player's answer.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SteamAuthorizationBody"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Every item granted, or already fulfilled.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamOrderOutcome"
                }
              }
            }
          },
          "202": {
            "description": "An item is pending: Steam has not finalised the order.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamOrderOutcome"
                }
              }
            }
          },
          "422": {
            "description": "Steam refused FinalizeTxn (its error code), the order was declined, or the buyer is no player.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamOrderOutcome"
                }
              }
            }
          },
          "404": {
            "description": "The server sells nothing on Steam (`--steam-api-key-env`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/steam/sync": {
      "post": {
        "operationId": "steamSync",
        "summary": "Reads Steam's GetReport from the saved watermark: grants what Steam charged and the ledger does not hold (a crash between FinalizeTxn and the grant), takes back refunds, partial refunds and chargebacks once.",
        "security": [
          {
            "bearer": []
          }
        ],
        "responses": {
          "200": {
            "description": "The run's report.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SteamReportSyncReport"
                }
              }
            }
          },
          "404": {
            "description": "The server sells nothing on Steam (`--steam-api-key-env`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "400": {
            "description": "The request is refused: a body the strict decoding path refuses (`input.invalid`, with its path), a query parameter (`http.invalidQuery`) or an argument out of the ledger's limits (`argument.invalid`). Nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "401": {
            "description": "The bearer token is missing or wrong (`http.unauthorized`), when the server has one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "413": {
            "description": "The body is larger than the limit (`http.bodyTooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "health",
        "summary": "200 while the process runs.",
        "responses": {
          "200": {
            "description": "ok",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "ready",
        "summary": "200 when the ledger answers a read, else 503.",
        "responses": {
          "200": {
            "description": "ready",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "The ledger's and the server's metrics in Prometheus text; no player data.",
        "responses": {
          "200": {
            "description": "Prometheus text",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "404": {
            "description": "Not configured.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "500": {
            "description": "The deployment is broken (no ledger, a newer schema, an invalid catalog): an operator must act.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          },
          "503": {
            "description": "A retry can succeed (storage, a store's API, the verifier, the connection limit): the one error body, `retryable` true.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            },
            "headers": {
              "Retry-After": {
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openAPI",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          },
          "405": {
            "description": "The route takes another method (`Allow` names it).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ErrorBody"
                }
              }
            }
          }
        }
      }
    }
  },
  "x-ledger-cli-output": {
    "description": "The JSON documents the `ledger` commands print on stdout (Docs/Output.md): one object per line, with `formatVersion` at its top level beside the fields of the command's schema below. A command that fails prints `errors` instead: an object whose only other field is `error`. `textOnly` commands print no other JSON. `fingerprint` names this description (CHANGELOG.md).",
    "formatVersion": 1,
    "errors": {
      "$ref": "#/components/schemas/ErrorBody"
    },
    "commands": {
      "ledger init": {
        "$ref": "#/components/schemas/InitOutput"
      },
      "ledger fulfill": {
        "$ref": "#/components/schemas/FulfillOutput"
      },
      "ledger recover": {
        "$ref": "#/components/schemas/RecoveryReport"
      },
      "ledger revoke": {
        "$ref": "#/components/schemas/RevocationOutcome"
      },
      "ledger restore": {
        "$ref": "#/components/schemas/RestoreReport"
      },
      "ledger entitlements": {
        "$ref": "#/components/schemas/EntitlementsOutput"
      },
      "ledger subscriptions": {
        "$ref": "#/components/schemas/SubscriptionsOutput"
      },
      "ledger history": {
        "$ref": "#/components/schemas/HistoryOutput"
      },
      "ledger lookup": {
        "$ref": "#/components/schemas/LookupReport"
      },
      "ledger player": {
        "$ref": "#/components/schemas/PlayerSnapshot"
      },
      "ledger reset": {
        "$ref": "#/components/schemas/Reset"
      },
      "ledger doctor": {
        "$ref": "#/components/schemas/HealthReport"
      },
      "ledger migrate": {
        "$ref": "#/components/schemas/MigrationReport"
      },
      "ledger catalog check": {
        "$ref": "#/components/schemas/CatalogCheckOutput"
      },
      "ledger catalog diff": {
        "$ref": "#/components/schemas/CatalogDiffOutput"
      },
      "ledger catalog explain": {
        "$ref": "#/components/schemas/CatalogExplanation"
      },
      "ledger appstore verify": {
        "$ref": "#/components/schemas/AppStoreSignedPayload"
      },
      "ledger appstore fulfill": {
        "$ref": "#/components/schemas/AppStoreFulfillOutput"
      },
      "ledger appstore notify": {
        "$ref": "#/components/schemas/NotificationOutcome"
      },
      "ledger appstore bind": {
        "$ref": "#/components/schemas/AccountTokenBinding"
      },
      "ledger appstore app-transaction": {
        "$ref": "#/components/schemas/AppTransactionLookup"
      },
      "ledger appstore set-token": {
        "$ref": "#/components/schemas/AppAccountTokenAssignment"
      },
      "ledger appstore lookup": {
        "$ref": "#/components/schemas/AppStoreTransactionLookup"
      },
      "ledger appstore history": {
        "$ref": "#/components/schemas/AppStoreHistoryPage"
      },
      "ledger appstore reconcile": {
        "$ref": "#/components/schemas/AppStoreReconciliation"
      },
      "ledger appstore subscription-status": {
        "$ref": "#/components/schemas/AppStoreSubscriptionStatusOutput"
      },
      "ledger appstore notifications-sync": {
        "$ref": "#/components/schemas/AppStoreNotificationsSyncReport"
      },
      "ledger appstore consumption": {
        "$ref": "#/components/schemas/AppStoreConsumptionOutcome"
      },
      "ledger playstore verify": {
        "$ref": "#/components/schemas/PlayVerification"
      },
      "ledger playstore rtdn": {
        "$ref": "#/components/schemas/NotificationOutcome"
      },
      "ledger playstore voided-sync": {
        "$ref": "#/components/schemas/PlayVoidedSyncReport"
      },
      "ledger playstore refund-review": {
        "$ref": "#/components/schemas/PlayRefundReview"
      },
      "ledger playstore reconcile": {
        "$ref": "#/components/schemas/PlayReconciliation"
      },
      "ledger stripe webhook": {
        "$ref": "#/components/schemas/StripeWebhookOutcome"
      },
      "ledger steam start": {
        "$ref": "#/components/schemas/SteamOrderOutcome"
      },
      "ledger steam authorize": {
        "$ref": "#/components/schemas/SteamOrderOutcome"
      },
      "ledger steam submit": {
        "$ref": "#/components/schemas/SteamOrderOutcome"
      },
      "ledger steam sync": {
        "$ref": "#/components/schemas/SteamReportSyncReport"
      },
      "ledger serve": {
        "$ref": "#/components/schemas/ServeListening"
      },
      "ledger demo": {
        "$ref": "#/components/schemas/DemoStep"
      },
      "ledger simulate": {
        "$ref": "#/components/schemas/SimulationSummary"
      },
      "ledger workload": {
        "$ref": "#/components/schemas/WorkloadLine"
      }
    },
    "textOnly": [
      "ledger appstore token"
    ],
    "fingerprint": "94a0f8d9bc98"
  }
}

"""#
}
