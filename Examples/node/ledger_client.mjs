// A game server's client of `ledger serve`, on Node's standard library alone (node:http).
//
// Copy `LedgerClient` into a game server. Every answer is JSON: an outcome (`granted`,
// `alreadyFulfilled`, `applied`, ...) or the one error body, {"error": {"code", "name",
// "message", "retryable", "outcomeUnknown", ...}}. Retry a request only when the error says
// `retryable`; the ledger's IDs (transaction, operation, event) make a retry safe.
//
// Run as a script, it walks one player through every operation against a live server:
//
//     LEDGER_TOKEN=... node ledger_client.mjs http://127.0.0.1:8080 player-42

import http from "node:http";

/** An answer that is not an outcome: the one error body's members. */
export class LedgerError extends Error {
  constructor(status, error) {
    super(`${status} ${error.name}: ${error.message}`);
    this.status = status;
    this.error = error;
  }

  get retryable() {
    return Boolean(this.error.retryable);
  }
}

/** The routes of `ledger serve` (Docs/Integration.md, "HTTP handlers"). */
export class LedgerClient {
  static timeoutMilliseconds = 10_000;

  constructor(baseURL, token) {
    this.base = new URL(baseURL);
    this.token = token;
  }

  /** Sends one request; resolves to the JSON answer when its status is expected. */
  request(method, path, body, expected = [200]) {
    const headers = { "Content-Type": "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const data = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: this.base.hostname, port: this.base.port, method, path, headers,
          timeout: LedgerClient.timeoutMilliseconds },
        (response) => {
          const chunks = [];
          response.on("data", (chunk) => chunks.push(chunk));
          response.on("end", () => {
            let answer;
            try {
              answer = JSON.parse(Buffer.concat(chunks).toString() || "{}");
            } catch (error) {
              return reject(error);
            }
            if (expected.includes(response.statusCode)) return resolve(answer);
            reject(new LedgerError(response.statusCode, answer.error ?? answer));
          });
        });
      request.on("timeout", () => request.destroy(new Error(`${method} ${path} timed out`)));
      request.on("error", reject);
      if (data !== undefined) request.write(data);
      request.end();
    });
  }

  static playerPath(playerID, tail = "") {
    return `/players/${encodeURIComponent(playerID)}${tail}`;
  }

  // Purchases and the game's own economy.
  purchase(body) {
    return this.request("POST", "/purchases", body, [200, 202, 409, 422]);
  }

  eligibility(playerID, productID, quantity = 1) {
    const query = new URLSearchParams({ product: productID, quantity: String(quantity) });
    return this.request("GET", LedgerClient.playerPath(playerID, `/eligibility?${query}`));
  }

  operation(playerID, operationID, direction, currencyID, amount) {
    const body = { operationID, playerID, direction, asset: "currency", assetID: currencyID, amount };
    return this.request("POST", "/operations", body, [200, 409, 422]);
  }

  revoke(event) {
    return this.request("POST", "/revocations", event, [200, 409, 422]);
  }

  // Reads and Reset Game.
  player(playerID) {
    return this.request("GET", LedgerClient.playerPath(playerID));
  }

  entitlements(playerID) {
    return this.request("GET", LedgerClient.playerPath(playerID, "/entitlements"));
  }

  history(playerID, after = 0, limit = 100) {
    return this.request("GET", LedgerClient.playerPath(playerID, `/history?after=${after}&limit=${limit}`));
  }

  subscriptions(playerID) {
    return this.request("GET", LedgerClient.playerPath(playerID, "/subscriptions"));
  }

  reset(playerID) {
    return this.request("POST", LedgerClient.playerPath(playerID, "/reset"));
  }

  /** The store's list of the player's purchases (a restore button, a new device). */
  restore(playerID, store, purchases, authoritative = false) {
    return this.request("POST", LedgerClient.playerPath(playerID, "/restore"), { store, purchases, authoritative });
  }
}

function expect(condition, what) {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

/** Buys, replays, spends, refunds and reads one player; resolves to the steps taken. */
export async function walk(client, player) {
  const steps = [];
  expect((await client.eligibility(player, "starter_bundle")).outcome === "eligible", "eligible before buying");
  steps.push("eligibility");
  const bought = { store: "test", transactionID: `${player}-t1`, productID: "test.starter_bundle", playerID: player };
  expect((await client.purchase(bought)).outcome === "granted", "the purchase is granted");
  expect((await client.purchase(bought)).outcome === "alreadyFulfilled", "its replay grants nothing");
  steps.push("purchase", "replay");
  const limited = await client.eligibility(player, "starter_bundle");
  expect(limited.outcome === "limitReached" && limited.remaining === 0, "the lifetime limit is reached");
  const spent = await client.operation(player, `${player}-shop-1`, "spend", "gems", 100);
  expect(spent.outcome === "applied" && spent.record.balanceAfter === 400, `spent: ${JSON.stringify(spent)}`);
  const again = await client.operation(player, `${player}-shop-1`, "spend", "gems", 100);
  expect(again.outcome === "alreadyApplied", "a replayed spend");
  steps.push("spend", "replayed spend");
  const refund = { eventID: `${player}-refund-1`, store: "test", transactionID: `${player}-t1`, kind: "fullRefund",
    eventDate: new Date().toISOString() };
  expect((await client.revoke(refund)).outcome === "recorded", "the refund is recorded");
  steps.push("refund");
  const snapshot = await client.player(player);
  expect(snapshot.balances.gems === -100, `the refund took back 500 gems into debt: ${JSON.stringify(snapshot.balances)}`);
  const page = await client.history(player, 0, 2);
  expect(page.events.length === 2 && page.hasMore, "the first history page");
  expect(!(await client.history(player, page.next)).hasMore, "the rest of the history");
  expect((await client.subscriptions(player)).subscriptions.length === 0, "no subscription");
  expect((await client.entitlements(player)).statuses.remove_ads === "notOwned", "entitlements read");
  steps.push("player", "history", "subscriptions", "entitlements");
  try {
    await client.purchase({ ...bought, transactionID: `${player}-t2`, quantyty: 2 });
    throw new Error("a misspelt field was accepted");
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    expect(error.status === 400 && error.error.name === "input.invalid", `refused: ${error.message}`);
    expect(error.error.path === "$.quantyty" && !error.retryable, "its path, and not retryable");
  }
  steps.push("refused input");
  const restored = await client.restore(player, "test", [
    { transactionID: `${player}-t1`, productID: "test.starter_bundle" },
    { transactionID: `${player}-t3`, productID: "test.gems_small" },
  ]);
  const outcomes = restored.outcomes.map((entry) => entry.outcome.outcome).sort();
  expect(outcomes.join() === "alreadyFulfilled,granted", `the restore grants only what is missing: ${outcomes}`);
  steps.push("restore");
  expect((await client.reset(player)).reset === player, "Reset Game");
  steps.push("reset");
  return steps;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  if (process.argv.length !== 4) {
    console.error("usage: node ledger_client.mjs BASE_URL PLAYER_ID");
    process.exit(64);
  }
  try {
    const steps = await walk(new LedgerClient(process.argv[2], process.env.LEDGER_TOKEN), process.argv[3]);
    console.log(JSON.stringify({ ok: true, steps }));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
