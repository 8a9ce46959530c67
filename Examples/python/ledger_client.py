#!/usr/bin/env python3
"""A game server's client of `ledger serve`, on Python's standard library alone (http.client).

Copy `LedgerClient` into a game server. Every answer is JSON: an outcome (`granted`,
`alreadyFulfilled`, `applied`, ...) or the one error body, {"error": {"code", "name",
"message", "retryable", "outcomeUnknown", ...}}. Retry a request only when the error says
`retryable`; the ledger's IDs (transaction, operation, event) make a retry safe.

Run as a script, it walks one player through every operation against a live server:

    LEDGER_TOKEN=... python3 ledger_client.py http://127.0.0.1:8080 player-42
"""

import http.client
import json
import os
import sys
import time
import urllib.parse


class LedgerError(Exception):
    """An answer that is not an outcome: the one error body's members."""

    def __init__(self, status, error):
        super().__init__(f"{status} {error.get('name')}: {error.get('message')}")
        self.status = status
        self.error = error

    @property
    def retryable(self):
        return bool(self.error.get("retryable"))


class LedgerClient:
    """The routes of `ledger serve` (Docs/Integration.md, "HTTP handlers")."""

    TIMEOUT_SECONDS = 10

    def __init__(self, base_url, token=None):
        parsed = urllib.parse.urlsplit(base_url)
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.token = token

    def request(self, method, path, body=None, expected=(200,)):
        """Sends one request; returns the JSON answer when its status is expected."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.TIMEOUT_SECONDS)
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            answer = json.loads(response.read() or b"{}")
        finally:
            connection.close()
        if response.status in expected:
            return answer
        raise LedgerError(response.status, answer.get("error", answer))

    @staticmethod
    def player_path(player_id, tail=""):
        return "/players/" + urllib.parse.quote(player_id, safe="") + tail

    # Purchases and the game's own economy.
    def purchase(self, body):
        return self.request("POST", "/purchases", body, expected=(200, 202, 409, 422))

    def eligibility(self, player_id, product_id, quantity=1):
        query = urllib.parse.urlencode({"product": product_id, "quantity": quantity})
        return self.request("GET", self.player_path(player_id, "/eligibility?" + query))

    def spend(self, player_id, operation_id, currency_id, amount):
        return self.operation(player_id, operation_id, "spend", currency_id, amount)

    def grant(self, player_id, operation_id, currency_id, amount):
        return self.operation(player_id, operation_id, "grant", currency_id, amount)

    def operation(self, player_id, operation_id, direction, currency_id, amount):
        body = {"operationID": operation_id, "playerID": player_id, "direction": direction,
                "asset": "currency", "assetID": currency_id, "amount": amount}
        return self.request("POST", "/operations", body, expected=(200, 409, 422))

    def revoke(self, event):
        return self.request("POST", "/revocations", event, expected=(200, 409, 422))

    # Reads and Reset Game.
    def player(self, player_id):
        return self.request("GET", self.player_path(player_id))

    def entitlements(self, player_id):
        return self.request("GET", self.player_path(player_id, "/entitlements"))

    def history(self, player_id, after=0, limit=100):
        return self.request("GET", self.player_path(player_id, f"/history?after={after}&limit={limit}"))

    def subscriptions(self, player_id):
        return self.request("GET", self.player_path(player_id, "/subscriptions"))

    def reset(self, player_id):
        return self.request("POST", self.player_path(player_id, "/reset"))

    def restore(self, player_id, store, purchases, authoritative=False):
        """The store's list of the player's purchases (a restore button, a new device)."""
        body = {"store": store, "purchases": purchases, "authoritative": authoritative}
        return self.request("POST", self.player_path(player_id, "/restore"), body)


def expect(condition, what):
    if not condition:
        raise SystemExit(f"unexpected: {what}")


def walk(client, player):
    """Buys, replays, spends, refunds and reads one player; returns the steps taken."""
    steps = []
    expect(client.eligibility(player, "starter_bundle")["outcome"] == "eligible", "eligible before buying")
    steps.append("eligibility")
    bought = {"store": "test", "transactionID": f"{player}-t1", "productID": "test.starter_bundle", "playerID": player}
    expect(client.purchase(bought)["outcome"] == "granted", "the purchase is granted")
    expect(client.purchase(bought)["outcome"] == "alreadyFulfilled", "its replay grants nothing")
    steps += ["purchase", "replay"]
    limited = client.eligibility(player, "starter_bundle")
    expect(limited["outcome"] == "limitReached" and limited["remaining"] == 0, "the lifetime limit is reached")
    spent = client.spend(player, f"{player}-shop-1", "gems", 100)
    expect(spent["outcome"] == "applied" and spent["record"]["balanceAfter"] == 400, f"spent: {spent}")
    expect(client.spend(player, f"{player}-shop-1", "gems", 100)["outcome"] == "alreadyApplied", "a replayed spend")
    steps += ["spend", "replayed spend"]
    refund = {"eventID": f"{player}-refund-1", "store": "test", "transactionID": f"{player}-t1",
              "kind": "fullRefund", "eventDate": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    expect(client.revoke(refund)["outcome"] == "recorded", "the refund is recorded")
    steps.append("refund")
    snapshot = client.player(player)
    expect(snapshot["balances"].get("gems") == -100, f"the refund took back 500 gems into debt: {snapshot['balances']}")
    page = client.history(player, limit=2)
    expect(len(page["events"]) == 2 and page["hasMore"], "the first history page")
    rest = client.history(player, after=page["next"])
    expect(not rest["hasMore"], "the rest of the history")
    expect(client.subscriptions(player)["subscriptions"] == [], "no subscription")
    expect(client.entitlements(player)["statuses"].get("remove_ads") == "notOwned", "entitlements read")
    steps += ["player", "history", "subscriptions", "entitlements"]
    try:
        client.purchase({**bought, "transactionID": f"{player}-t2", "quantyty": 2})
        raise SystemExit("a misspelt field was accepted")
    except LedgerError as error:
        expect(error.status == 400 and error.error["name"] == "input.invalid", f"refused: {error}")
        expect(error.error["path"] == "$.quantyty" and not error.retryable, "its path, and not retryable")
    steps.append("refused input")
    listed = [{"transactionID": f"{player}-t1", "productID": "test.starter_bundle"},
              {"transactionID": f"{player}-t3", "productID": "test.gems_small"}]
    restored = client.restore(player, "test", listed)
    outcomes = [entry["outcome"]["outcome"] for entry in restored["outcomes"]]
    expect(sorted(outcomes) == ["alreadyFulfilled", "granted"], f"the restore grants only what is missing: {outcomes}")
    steps.append("restore")
    expect(client.reset(player)["reset"] == player, "Reset Game")
    steps.append("reset")
    return steps


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: ledger_client.py BASE_URL PLAYER_ID")
    taken = walk(LedgerClient(sys.argv[1], os.environ.get("LEDGER_TOKEN")), sys.argv[2])
    print(json.dumps({"ok": True, "steps": taken}))
