package webhookservice

import (
	"encoding/json"
	"fmt"

	"github.com/webhook-service/webhook-service/clients/go/api"
)

// APIError is a non-2xx answer of the service: its RFC 9457 problem document. Every call of a
// client made by [NewClient] returns it as its error; get it with errors.As.
type APIError struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Problem is the problem document; extension members are in Problem.AdditionalProperties,
	// field errors of a 400 in Problem.Errors.
	Problem api.Problem
	// Body is the answer's body as received.
	Body []byte
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%d %s", e.StatusCode, e.Problem.Title)
	if e.Problem.Detail != nil && *e.Problem.Detail != "" {
		msg += ": " + *e.Problem.Detail
	}
	return msg
}

// newAPIError reads a problem document; a body that is none still gives a usable error.
func newAPIError(status int, body []byte) *APIError {
	e := &APIError{StatusCode: status, Body: body}
	if err := json.Unmarshal(body, &e.Problem); err != nil || e.Problem.Title == "" {
		detail := string(body[:min(len(body), 200)])
		e.Problem = api.Problem{Type: "about:blank", Title: "HTTP error", Status: int32(status), Detail: &detail}
	}
	return e
}
