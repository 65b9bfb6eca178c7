package webhookservice_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	webhookservice "github.com/webhook-service/webhook-service/clients/go"
	"github.com/webhook-service/webhook-service/clients/go/api"
)

type vector struct {
	Name      string            `json:"name"`
	Valid     bool              `json:"valid"`
	Scheme    string            `json:"scheme"`
	Keys      []string          `json:"keys"`
	Now       int64             `json:"now"`
	Tolerance int64             `json:"tolerance"`
	Headers   map[string]string `json:"headers"`
	Body      string            `json:"body"`
}

// The shared vectors (clients/vectors/signatures.json), made from the service's own signing code.
func loadVectors(t *testing.T) []vector {
	t.Helper()
	raw, err := os.ReadFile("../vectors/signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Vectors []vector }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 25 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	return file.Vectors
}

func (v vector) verifier() (webhookservice.Verifier, http.Header) {
	header := http.Header{}
	for name, value := range v.Headers {
		header.Set(name, value)
	}
	return webhookservice.Verifier{
		Keys:      v.Keys,
		Scheme:    webhookservice.Scheme(v.Scheme),
		Tolerance: time.Duration(v.Tolerance) * time.Second,
		Now:       func() time.Time { return time.Unix(v.Now, 0) },
	}, header
}

func TestSharedVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			verifier, header := v.verifier()
			err := verifier.Verify([]byte(v.Body), header)
			if v.Valid && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !v.Valid && !errors.Is(err, webhookservice.ErrVerification) {
				t.Fatalf("accepted, or not an ErrVerification: %v", err)
			}
		})
	}
}

func TestAVerifiedBodyParsesIntoItsTypedEnvelope(t *testing.T) {
	v := loadVectors(t)[0]
	verifier, header := v.verifier()
	event, err := verifier.VerifyEvent([]byte(v.Body), header)
	if err != nil {
		t.Fatal(err)
	}
	created, ok := event.Envelope.(api.OrderCreatedEventV1)
	if !ok {
		t.Fatalf("envelope is %T", event.Envelope)
	}
	if event.Type != "order.created" || event.Version != 1 || created.Data.Total != 59.97 || created.Data.OrderId != 5012 {
		t.Fatalf("parsed %+v", created)
	}
	// A field the SDK does not know yet is kept in Raw, not an error (the contract lets data grow).
	var raw struct{ Data struct{ Note string } }
	if err := json.Unmarshal(event.Raw, &raw); err != nil || raw.Data.Note != "crème brûlée" {
		t.Fatalf("raw note %q: %v", raw.Data.Note, err)
	}
}

func TestAnEventTypeThisSDKDoesNotKnowIsNoError(t *testing.T) {
	event, err := webhookservice.ParseEvent([]byte(`{"event":"order.refunded","id":"evt_1","api_version":2,"data":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if event.Envelope != nil || event.Type != "order.refunded" || event.Version != 2 {
		t.Fatalf("parsed %+v", event)
	}
	if _, err := webhookservice.ParseEvent([]byte(`{"data":{}}`)); err == nil {
		t.Fatal("a body without event and id parsed")
	}
}
