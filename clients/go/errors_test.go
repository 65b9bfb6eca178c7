package webhookservice_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	webhookservice "github.com/webhook-service/webhook-service/clients/go"
)

func TestANon2xxAnswerIsAnAPIErrorWithTheProblemDocument(t *testing.T) {
	var auth string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"type":"about:blank","title":"Not Found","status":404,"detail":"no order 7","trace_id":"abc"}`))
	}))
	defer server.Close()
	client, err := webhookservice.NewClient(server.URL, "whk_test")
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.GetOrderWithResponse(context.Background(), 7)
	var apiErr *webhookservice.APIError
	if res != nil || !errors.As(err, &apiErr) {
		t.Fatalf("got %v, %v", res, err)
	}
	if auth != "Bearer whk_test" || apiErr.StatusCode != 404 || apiErr.Problem.Status != 404 || apiErr.Error() != "404 Not Found: no order 7" {
		t.Fatalf("auth %q, error %+v", auth, apiErr)
	}
	// Extension members are kept.
	if apiErr.Problem.AdditionalProperties["trace_id"] != "abc" {
		t.Fatalf("extension members %v", apiErr.Problem.AdditionalProperties)
	}
}
