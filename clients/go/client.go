package webhookservice

import (
	"context"
	"io"
	"net/http"

	"github.com/webhook-service/webhook-service/clients/go/api"
)

// NewClient is the generated client for the service at baseURL, sending apiKey (a whk_ key; empty
// for none) on every call. Any answer outside 2xx comes back as an error, an [*APIError] with the
// problem document, so a nil error means the 2xx field of the response (JSON200, JSON201) is set.
// opts are the generated client's (api.WithHTTPClient, api.WithRequestEditorFn, ...).
func NewClient(baseURL, apiKey string, opts ...api.ClientOption) (*api.ClientWithResponses, error) {
	opts = append(opts, withProblemErrors)
	if apiKey != "" {
		opts = append(opts, api.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", "Bearer "+apiKey)
			return nil
		}))
	}
	return api.NewClientWithResponses(baseURL, opts...)
}

// withProblemErrors wraps the HTTP doer (the caller's or a default one) so that every generated
// operation returns an *APIError for a non-2xx answer instead of a response to inspect.
func withProblemErrors(c *api.Client) error {
	inner := c.Client
	if inner == nil {
		inner = &http.Client{}
	}
	c.Client = problemDoer{inner}
	return nil
}

type problemDoer struct{ inner api.HttpRequestDoer }

func (d problemDoer) Do(req *http.Request) (*http.Response, error) {
	res, err := d.inner.Do(req)
	if err != nil || (res.StatusCode >= 200 && res.StatusCode < 300) {
		return res, err
	}
	defer res.Body.Close()
	// A problem document is small; the cap keeps a misbehaving proxy from filling memory.
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	return nil, newAPIError(res.StatusCode, body)
}
