// Package webhookservice is the Go SDK of the Webhook Service.
//
//   - Package api (github.com/webhook-service/webhook-service/clients/go/api) is the client and
//     the types generated from the contract (openapi/openapi.yaml) by oapi-codegen; never edit it
//     by hand: `npm run generate:clients` regenerates it.
//   - This package is a thin layer over it: [NewClient] authenticates every call and turns any
//     non-2xx answer into an [*APIError] carrying the problem document; [Verifier] checks a
//     delivery (X-Signature, Standard Webhooks v1 HMAC and v1a Ed25519, timestamp tolerance,
//     several keys during a rotation); [ParseEvent] turns a verified body into the contract's
//     typed envelope.
package webhookservice
