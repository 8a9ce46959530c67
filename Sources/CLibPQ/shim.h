#ifndef FULFILLMENT_LEDGER_CLIBPQ_SHIM_H
#define FULFILLMENT_LEDGER_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* The diagnostic field codes are character-literal macros, which Swift does not import. */
static const int CLibPQDiagnosticSQLState = PG_DIAG_SQLSTATE;
static const int CLibPQDiagnosticMessagePrimary = PG_DIAG_MESSAGE_PRIMARY;
static const int CLibPQDiagnosticMessageDetail = PG_DIAG_MESSAGE_DETAIL;
static const int CLibPQDiagnosticSeverity = PG_DIAG_SEVERITY_NONLOCALIZED;
#endif
