package webhookservice

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/webhook-service/webhook-service/clients/go/api"
)

// Event is a verified delivery's envelope.
type Event struct {
	// Type is the event type ("order.created"), ID its id: drop duplicates by it.
	Type string
	ID   string
	// Version is the envelope's version: 2 when the body carries api_version, else 1.
	Version int
	// Envelope is the contract's typed envelope, by Type and Version, as the generated unions
	// api.WebhookEventV1 / api.WebhookEventV2 decode it: api.OrderCreatedEventV1,
	// api.OrderCreatedEventV2, ... (values; use a type switch). It is nil for an event type this
	// SDK does not know yet: acknowledge it (2xx) and ignore it.
	Envelope any
	// Raw is the body: fields this SDK does not know yet are there (they are never an error).
	Raw json.RawMessage
}

// ParseEvent types a verified body (see [Verifier.VerifyEvent]); the error says when it is no
// envelope of the contract.
func ParseEvent(body []byte) (*Event, error) {
	var head struct {
		Event      *string          `json:"event"`
		ID         *string          `json:"id"`
		APIVersion *json.RawMessage `json:"api_version"`
	}
	if err := json.Unmarshal(body, &head); err != nil || head.Event == nil || head.ID == nil {
		return nil, fmt.Errorf("webhookservice: not a webhook envelope: an object with string event and id is expected")
	}
	event := &Event{Type: *head.Event, ID: *head.ID, Version: 1, Raw: append(json.RawMessage(nil), body...)}
	if head.APIVersion != nil {
		event.Version = 2
	}
	if !api.EventType(event.Type).Valid() {
		return event, nil
	}
	var err error
	if event.Version == 2 {
		var union api.WebhookEventV2
		if err = union.UnmarshalJSON(body); err == nil {
			event.Envelope, err = union.ValueByDiscriminator()
		}
	} else {
		var union api.WebhookEventV1
		if err = union.UnmarshalJSON(body); err == nil {
			event.Envelope, err = union.ValueByDiscriminator()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("webhookservice: a %s v%d envelope that does not match the contract: %w", event.Type, event.Version, err)
	}
	return event, nil
}

// VerifyEvent is Verify then ParseEvent: the typed envelope of an authentic, fresh delivery. A
// verified body that is no envelope of the contract also gives an error wrapping ErrVerification.
func (v Verifier) VerifyEvent(body []byte, header http.Header) (*Event, error) {
	if err := v.Verify(body, header); err != nil {
		return nil, err
	}
	event, err := ParseEvent(body)
	if err != nil {
		return nil, fmt.Errorf("%w: verified, but %w", ErrVerification, err)
	}
	return event, nil
}
