import Foundation
import LedgerHTTP
import StripeAdapter
import Testing

/// Stripe.md: a webhook route that authenticates, then decodes.
func stripeWebhookExample(_ request: LedgerHTTPRequest, endpointSecret: String, previousSecret: String) throws
    -> LedgerHTTPResponse
{
    // BEGIN Docs/Stripe.md stripe-webhook
    guard let authenticator = StripeWebhookAuthenticator(secrets: [endpointSecret, previousSecret]) else {
        return .text(500, "no signing secret configured")
    }
    switch authenticator.authenticate(signatureHeader: request.header("Stripe-Signature"), body: Array(request.body)) {
    case .failure(let refusal):
        return .text(400, refusal.description)  // nothing read; Stripe shows the failure and retries
    case .success:
        let event = try JSONDecoder().decode(StripeEvent.self, from: request.body)
        return .text(200, event.id)
    }
    // END Docs/Stripe.md stripe-webhook
}

/// Runs Stripe.md's example: a webhook signed now passes, a forged one is refused.
@Suite struct StripeExamplesTests {
    @Test func theDocumentedWebhookRouteAuthenticatesThenDecodes() throws {
        let body = Data(
            #"{"id":"evt_doc","object":"event","created":1796000000,"livemode":false,"type":"customer.created","data":{"object":{"id":"cus_1","object":"customer"}}}"#
                .utf8)
        let now = Int64(Date().timeIntervalSince1970)
        let signed = StripeWebhookAuthenticator.signatureHeader(body: Array(body), secret: "whsec_new", timestampSeconds: now)
        let request = LedgerHTTPRequest(method: "POST", target: "/stripe/webhooks", headers: [("Stripe-Signature", signed)], body: body)
        let answer = try stripeWebhookExample(request, endpointSecret: "whsec_new", previousSecret: "whsec_old")
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "evt_doc")
        let forged = LedgerHTTPRequest(
            method: "POST", target: "/stripe/webhooks",
            headers: [("Stripe-Signature", signed.replacingOccurrences(of: "v1=", with: "v1=0"))], body: body)
        #expect(try stripeWebhookExample(forged, endpointSecret: "whsec_new", previousSecret: "whsec_old").status == 400)
    }
}
