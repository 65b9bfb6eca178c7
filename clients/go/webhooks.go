package webhookservice

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// PublicKeyPrefix starts an Ed25519 public key (whpk_ + base64 of 32 bytes); a subscription's
// whsec_ secret is anything else.
const PublicKeyPrefix = "whpk_"

const secretPrefix = "whsec_"

// Standard base64 with at least one character before the padding: at least one byte.
var paddedBase64 = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)

// DefaultTolerance is how far webhook-timestamp may be from now when Verifier.Tolerance is 0.
const DefaultTolerance = 5 * time.Minute

// Each v1a entry costs an Ed25519 verification; the spec allows ignoring extras.
const maxAsymmetricEntries = 8

// ErrVerification is what every verification failure wraps (errors.Is): the delivery is not
// authentic or not fresh, so answer 401 and process nothing.
var ErrVerification = errors.New("webhook verification failed")

// Scheme is which signature headers a Verifier checks.
type Scheme string

const (
	// StandardWebhooks checks webhook-id, webhook-timestamp and webhook-signature (v1 HMAC,
	// v1a Ed25519), within the tolerance: the default.
	StandardWebhooks Scheme = "standard-webhooks"
	// XSignature checks X-Signature or X-Signature-Previous over the body alone: HMAC only, and
	// with no time in it, so deduplicate by event id.
	XSignature Scheme = "x-signature"
)

// Verifier checks deliveries of one subscription. The zero Scheme, Tolerance and Now mean
// Standard Webhooks, 5 minutes and the clock.
type Verifier struct {
	// Keys are the subscription's whsec_ secret or, for an ed25519 subscription, its whpk_
	// public key; during a rotation (or a switch of scheme) the new and the old: any one
	// matching is enough. An empty key, "whsec_" alone or a secret that is not padded base64
	// fails every delivery (ErrVerification).
	Keys      []string
	Scheme    Scheme
	Tolerance time.Duration
	Now       func() time.Time
}

// Verify checks a delivery with keys under the default settings (see [Verifier.Verify]).
func Verify(body []byte, header http.Header, keys ...string) error {
	return Verifier{Keys: keys}.Verify(body, header)
}

func fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrVerification, fmt.Sprintf(format, args...))
}

// Verify checks the raw body (before anything else reads it) and the headers of a delivery; the
// error wraps ErrVerification when it is not authentic, not fresh, or not JSON.
func (v Verifier) Verify(body []byte, header http.Header) error {
	if len(v.Keys) == 0 {
		return fail("no key to verify with")
	}
	for _, key := range v.Keys {
		if !strings.HasPrefix(key, PublicKeyPrefix) {
			if err := checkSecret(key); err != nil {
				return err
			}
		}
	}
	if !utf8.Valid(body) {
		return fail("body is not UTF-8")
	}
	var ok bool
	var err error
	switch v.Scheme {
	case StandardWebhooks, "":
		ok, err = v.standardWebhooks(body, header)
	case XSignature:
		ok, err = v.xSignature(body, header)
	default:
		return fmt.Errorf("webhookservice: unknown scheme %q", v.Scheme)
	}
	if err != nil {
		return err
	}
	if !ok {
		return fail("no matching signature")
	}
	if !json.Valid(body) {
		return fail("body is not JSON")
	}
	return nil
}

func (v Verifier) standardWebhooks(body []byte, header http.Header) (bool, error) {
	msgID, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if msgID == "" || timestamp == "" || signatures == "" {
		return false, fail("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	if strings.Trim(timestamp, "0123456789") != "" {
		return false, fail("invalid webhook-timestamp")
	}
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false, fail("invalid webhook-timestamp")
	}
	now := time.Now()
	if v.Now != nil {
		now = v.Now()
	}
	tolerance := v.Tolerance
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	if diff := now.Unix() - ts; diff > int64(tolerance/time.Second) || -diff > int64(tolerance/time.Second) {
		return false, fail("webhook-timestamp too old or too new")
	}
	var asymmetric []string
	for _, entry := range strings.Split(signatures, " ") {
		if sig, found := strings.CutPrefix(entry, "v1a,"); found && len(asymmetric) < maxAsymmetricEntries {
			asymmetric = append(asymmetric, sig)
		}
	}
	content := []byte(msgID + "." + strconv.FormatInt(ts, 10) + ".")
	content = append(content, body...)
	for _, key := range v.Keys {
		if !strings.HasPrefix(key, PublicKeyPrefix) {
			// v1 through the Standard Webhooks library; the timestamp was checked above, with
			// this verifier's clock and tolerance.
			wh, err := standardwebhooks.NewWebhook(key)
			if err != nil {
				return false, fail("a whsec_ secret is whsec_ + base64")
			}
			if wh.VerifyIgnoringTimestamp(body, header) == nil {
				return true, nil
			}
			continue
		}
		public, err := publicKey(key)
		if err != nil {
			return false, err
		}
		for _, sig := range asymmetric {
			raw, err := base64.StdEncoding.DecodeString(sig)
			if err == nil && len(raw) == ed25519.SignatureSize && ed25519.Verify(public, content, raw) {
				return true, nil
			}
		}
	}
	return false, nil
}

func (v Verifier) xSignature(body []byte, header http.Header) (bool, error) {
	var presented []string
	for _, name := range []string{"X-Signature", "X-Signature-Previous"} {
		if value := header.Get(name); value != "" {
			presented = append(presented, value)
		}
	}
	secrets := 0
	for _, key := range v.Keys {
		if strings.HasPrefix(key, PublicKeyPrefix) {
			continue
		}
		secrets++
		// The HMAC key is the secret as written, whsec_ prefix included.
		mac := hmac.New(sha256.New, []byte(key))
		mac.Write(body)
		expected := []byte("sha256=" + hex.EncodeToString(mac.Sum(nil)))
		for _, p := range presented {
			if hmac.Equal([]byte(p), expected) {
				return true, nil
			}
		}
	}
	if secrets == 0 {
		return false, fail("X-Signature is HMAC only: verify an ed25519 subscription with the default scheme")
	}
	if len(presented) == 0 {
		return false, fail("missing X-Signature header")
	}
	return false, nil
}

// checkSecret refuses what is not whsec_ + standard, padded base64 of at least one byte: an empty
// key (an unset variable) or "whsec_" alone would otherwise make an empty HMAC key anyone can use.
func checkSecret(key string) error {
	encoded := strings.TrimPrefix(key, secretPrefix)
	if encoded == "" {
		return fail("empty secret: pass the subscription's whsec_ secret")
	}
	if len(encoded)%4 != 0 || !paddedBase64.MatchString(encoded) {
		return fail("a secret is whsec_ + standard, padded base64")
	}
	return nil
}

func publicKey(key string) (ed25519.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(key, PublicKeyPrefix))
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fail("an Ed25519 public key is whpk_ + base64 of 32 bytes")
	}
	return ed25519.PublicKey(raw), nil
}
