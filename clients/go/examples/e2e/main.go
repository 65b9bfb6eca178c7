// An integrator's program against the live service, run by test/integration/sdk/go.test.ts.
//
// Subscribes a receiver of its own through the SDK (an HMAC v1 subscription and an Ed25519 v2
// one), places an order, verifies and parses both deliveries, rotates both keys, places another
// order and checks that the old and the new key each verify it alone during the overlap. Prints
// one line per step; exits non-zero on any failure. Needs SERVICE_URL and API_KEY.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	webhookservice "github.com/webhook-service/webhook-service/clients/go"
	"github.com/webhook-service/webhook-service/clients/go/api"
)

const timeout = 60 * time.Second

type delivery struct {
	path   string
	body   []byte
	header http.Header
}

// receiver answers 204 to a delivery that verifies with the keys of its path, 401 to anything else.
type receiver struct {
	mu       sync.Mutex
	keys     map[string][]string
	received chan delivery
	// Deliveries read while waiting for another one, kept for a later wait (one reader: main).
	setAside []delivery
}

func (rc *receiver) setKeys(path string, keys ...string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.keys[path] = keys
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	keys := rc.keys[r.URL.Path]
	rc.mu.Unlock()
	if err := webhookservice.Verify(body, r.Header, keys...); err != nil {
		fmt.Printf("refused %s: %v\n", r.URL.Path, err)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	rc.received <- delivery{r.URL.Path, body, r.Header.Clone()}
}

// orderID is the order an order event is about (0 for other events).
func orderID(event *webhookservice.Event) int64 {
	switch e := event.Envelope.(type) {
	case api.OrderCreatedEventV1:
		return e.Data.OrderId
	case api.OrderCreatedEventV2:
		return e.Data.OrderId
	}
	return 0
}

// next is the next verified delivery of eventType for order to path (others are set aside).
func (rc *receiver) next(path, eventType string, order int64) (delivery, error) {
	matches := func(d delivery) bool {
		event, err := webhookservice.ParseEvent(d.body)
		return err == nil && d.path == path && event.Type == eventType && orderID(event) == order
	}
	for i, d := range rc.setAside {
		if matches(d) {
			rc.setAside = append(rc.setAside[:i], rc.setAside[i+1:]...)
			return d, nil
		}
	}
	deadline := time.After(timeout)
	for {
		select {
		case d := <-rc.received:
			if matches(d) {
				return d, nil
			}
			rc.setAside = append(rc.setAside, d)
		case <-deadline:
			return delivery{}, fmt.Errorf("no %s delivery for order %d to %s within %s", eventType, order, path, timeout)
		}
	}
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "failed: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	client, err := webhookservice.NewClient(os.Getenv("SERVICE_URL"), os.Getenv("API_KEY"))
	if err != nil {
		return err
	}
	rc := &receiver{keys: map[string][]string{}, received: make(chan delivery, 64)}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := &http.Server{Handler: rc, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = server.Serve(listener) }()
	defer server.Close()
	base := "http://" + listener.Addr().String()

	hmacSub, err := client.CreateSubscriptionV1WithResponse(ctx, nil, api.SubscriptionCreate{
		Url: base + "/hmac", Events: []api.EventType{api.EventTypeOrderCreated},
	})
	if err != nil {
		return err
	}
	rc.setKeys("/hmac", hmacSub.JSON201.Secret)
	ed25519 := api.Ed25519
	edSub, err := client.CreateSubscriptionV2WithResponse(ctx, nil, api.SubscriptionCreate{
		Url: base + "/ed25519", Events: []api.EventType{api.EventTypeOrderCreated}, Signature: &ed25519,
	})
	if err != nil {
		return err
	}
	// What any receiver can read at any time: the public key.
	got, err := client.GetSubscriptionWithResponse(ctx, edSub.JSON201.Id)
	if err != nil {
		return err
	}
	publicKey := *got.JSON200.PublicKey
	if publicKey != edSub.JSON201.Secret || !strings.HasPrefix(publicKey, webhookservice.PublicKeyPrefix) {
		return fmt.Errorf("public key %q, secret on creation %q", publicKey, edSub.JSON201.Secret)
	}
	rc.setKeys("/ed25519", publicKey)
	fmt.Printf("subscribed %s hmac-sha256 %s ed25519\n", hmacSub.JSON201.Id, edSub.JSON201.Id)

	newOrder := api.OrderCreate{UserId: 1, Items: []api.OrderItemCreate{{ProductId: 1, Quantity: 1}}}
	ordered, err := client.CreateOrderWithResponse(ctx, nil, newOrder)
	if err != nil {
		return err
	}
	order := ordered.JSON201
	fmt.Printf("ordered %d total %v\n", order.Id, order.Total)

	d, err := rc.next("/hmac", "order.created", order.Id)
	if err != nil {
		return err
	}
	event, err := webhookservice.Verifier{Keys: []string{hmacSub.JSON201.Secret}}.VerifyEvent(d.body, d.header)
	if err != nil {
		return err
	}
	v1, ok := event.Envelope.(api.OrderCreatedEventV1)
	if !ok || v1.Data.Total != order.Total || v1.Data.Status != api.OrderStatusPending {
		return fmt.Errorf("hmac delivery parsed as %T %+v", event.Envelope, event.Envelope)
	}
	fmt.Printf("verified hmac %s %s order %d\n", event.ID, event.Type, v1.Data.OrderId)

	d, err = rc.next("/ed25519", "order.created", order.Id)
	if err != nil {
		return err
	}
	event, err = webhookservice.Verifier{Keys: []string{publicKey}}.VerifyEvent(d.body, d.header)
	if err != nil {
		return err
	}
	v2, ok := event.Envelope.(api.OrderCreatedEventV2)
	if !ok || v2.ApiVersion != 2 || v2.Data.OrderId != order.Id {
		return fmt.Errorf("ed25519 delivery parsed as %T %+v", event.Envelope, event.Envelope)
	}
	fmt.Printf("verified ed25519 %s %s order %d v%d\n", event.ID, event.Type, v2.Data.OrderId, v2.ApiVersion)

	// Rotate both: the old key keeps signing for the overlap, beside the new one.
	old := map[string]string{"/hmac": hmacSub.JSON201.Secret, "/ed25519": publicKey}
	subscriptions := map[string]string{"/hmac": hmacSub.JSON201.Id, "/ed25519": edSub.JSON201.Id}
	overlap := int32(3600)
	rotated := map[string]string{}
	for path, id := range subscriptions {
		res, err := client.RotateSubscriptionSecretWithResponse(ctx, id, api.SecretRotation{ExpirePreviousInSeconds: &overlap})
		if err != nil {
			return err
		}
		rotated[path] = res.JSON200.Secret
		if rotated[path] == old[path] {
			return fmt.Errorf("rotation of %s gave the same key", path)
		}
		rc.setKeys(path, rotated[path], old[path])
	}
	if !strings.HasPrefix(rotated["/ed25519"], webhookservice.PublicKeyPrefix) {
		return fmt.Errorf("rotated ed25519 key %q", rotated["/ed25519"])
	}
	second, err := client.CreateOrderWithResponse(ctx, nil, newOrder)
	if err != nil {
		return err
	}
	for _, path := range []string{"/hmac", "/ed25519"} {
		d, err := rc.next(path, "order.created", second.JSON201.Id)
		if err != nil {
			return err
		}
		for _, which := range []string{"old", "new"} {
			key := map[string]string{"old": old[path], "new": rotated[path]}[which]
			event, err := webhookservice.Verifier{Keys: []string{key}}.VerifyEvent(d.body, d.header)
			if err != nil {
				return fmt.Errorf("rotation %s, the %s key: %w", path, which, err)
			}
			if orderID(event) != second.JSON201.Id {
				return fmt.Errorf("rotation %s: event for order %d", path, orderID(event))
			}
			fmt.Printf("rotation %s: the %s key alone verifies %s\n", path[1:], which, event.ID)
		}
		if path == "/hmac" {
			if err := (webhookservice.Verifier{Keys: []string{old[path]}, Scheme: webhookservice.XSignature}).Verify(d.body, d.header); err != nil {
				return err
			}
			fmt.Println("rotation hmac: X-Signature-Previous verifies with the old secret")
		}
	}

	_, err = client.GetOrderWithResponse(ctx, 999_999_999)
	var apiErr *webhookservice.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Problem.Status != 404 {
		return fmt.Errorf("a missing order gave %v", err)
	}
	fmt.Printf("APIError %d %s\n", apiErr.StatusCode, apiErr.Problem.Title)
	fmt.Println("ok")
	return nil
}
