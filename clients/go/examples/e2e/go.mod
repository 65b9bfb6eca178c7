module github.com/webhook-service/webhook-service/clients/go/examples/e2e

go 1.24.0

require github.com/webhook-service/webhook-service/clients/go v0.0.0

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/oapi-codegen/runtime v1.8.0 // indirect
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1 // indirect
)

// The SDK from this repository, as an integrator's replace would point at a clone.
replace github.com/webhook-service/webhook-service/clients/go => ../..
