package org.webhookservice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.webhookservice.client.ApiClient;

/**
 * Verifies a delivery's raw body and headers: Standard Webhooks {@code v1} (HMAC, through the
 * {@code com.standardwebhooks} library) and {@code v1a} (Ed25519 with a {@code whpk_} public key,
 * through the JDK), or {@code X-Signature} alone. Immutable; build one per subscription and reuse it.
 *
 * <pre>{@code
 * WebhookVerifier verifier = WebhookVerifier.of(secret);            // or of(newKey, oldKey) during a rotation
 * WebhookEvent event = verifier.verifyEvent(body, exchange.getRequestHeaders());
 * }</pre>
 */
public final class WebhookVerifier {
  /** Which headers carry the signature. */
  public enum Scheme {
    /** {@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature}: signed with the time, so replays are refused. */
    STANDARD_WEBHOOKS,
    /** {@code X-Signature} / {@code X-Signature-Previous} over the body alone: HMAC only, no time in it (deduplicate by event id). */
    X_SIGNATURE
  }

  /** How far {@code webhook-timestamp} may be from now by default. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);
  /** The prefix of an Ed25519 public key, as the service shows it ({@code public_key}). */
  public static final String PUBLIC_KEY_PREFIX = "whpk_";
  // Each v1a entry costs an Ed25519 verification; the spec allows ignoring extras.
  private static final int MAX_ASYMMETRIC_ENTRIES = 8;
  // An Ed25519 SubjectPublicKeyInfo is this DER prefix and the 32 raw key bytes.
  private static final byte[] ED25519_SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
  private static final ObjectMapper MAPPER = ApiClient.createDefaultObjectMapper();

  private final List<String> keys;
  private final Scheme scheme;
  private final Duration tolerance;
  private final Clock clock;

  private WebhookVerifier(List<String> keys, Scheme scheme, Duration tolerance, Clock clock) {
    this.keys = List.copyOf(keys);
    this.scheme = Objects.requireNonNull(scheme);
    this.tolerance = Objects.requireNonNull(tolerance);
    this.clock = Objects.requireNonNull(clock);
  }

  /**
   * A verifier with the subscription's {@code whsec_} secret or, for an {@code ed25519} one, its
   * {@code whpk_} public key. During a rotation (or a switch of scheme) pass the new and the old:
   * any one matching is enough.
   */
  public static WebhookVerifier of(String... keys) {
    return of(Arrays.asList(keys));
  }

  /** {@link #of(String...)} from a list. */
  public static WebhookVerifier of(List<String> keys) {
    if (keys.isEmpty()) throw new IllegalArgumentException("no key to verify with");
    return new WebhookVerifier(keys, Scheme.STANDARD_WEBHOOKS, DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** The same keys, checking {@code scheme}'s headers. */
  public WebhookVerifier withScheme(Scheme scheme) {
    return new WebhookVerifier(keys, scheme, tolerance, clock);
  }

  /** The same keys, allowing {@code webhook-timestamp} to be this far from now. */
  public WebhookVerifier withTolerance(Duration tolerance) {
    return new WebhookVerifier(keys, scheme, tolerance, clock);
  }

  /** The same keys, reading "now" from {@code clock}. */
  public WebhookVerifier withClock(Clock clock) {
    return new WebhookVerifier(keys, scheme, tolerance, clock);
  }

  /** {@link #verify(byte[], Function)} with headers as most Java servers give them (names in any case). */
  public JsonNode verify(byte[] body, Map<String, List<String>> headers) throws WebhookVerificationException {
    return verify(body, name -> firstHeader(headers, name));
  }

  /**
   * Verifies the raw body (before anything else reads it) against the headers, looked up by
   * lower-case name ({@code request::getHeader} for a servlet); returns the parsed JSON body.
   *
   * @throws WebhookVerificationException when no signature matches, a header is missing, or the timestamp is out of tolerance
   */
  public JsonNode verify(byte[] body, Function<String, String> header) throws WebhookVerificationException {
    String text = utf8(body);
    boolean ok = scheme == Scheme.STANDARD_WEBHOOKS ? standardWebhooks(body, text, header) : xSignature(body, header);
    if (!ok) throw new WebhookVerificationException("no matching signature");
    try {
      return MAPPER.readTree(text);
    } catch (IOException e) {
      throw new WebhookVerificationException("body is not JSON", e);
    }
  }

  /** {@link #verify(byte[], Map)} then {@link WebhookEvent#parse(JsonNode)}: the typed envelope of an authentic, fresh delivery. */
  public WebhookEvent verifyEvent(byte[] body, Map<String, List<String>> headers) throws WebhookVerificationException {
    return verifyEvent(body, name -> firstHeader(headers, name));
  }

  /** {@link #verify(byte[], Function)} then {@link WebhookEvent#parse(JsonNode)}. */
  public WebhookEvent verifyEvent(byte[] body, Function<String, String> header) throws WebhookVerificationException {
    JsonNode json = verify(body, header);
    try {
      return WebhookEvent.parse(json);
    } catch (IllegalArgumentException e) {
      throw new WebhookVerificationException("verified, but not an envelope of the contract: " + e.getMessage(), e);
    }
  }

  private boolean standardWebhooks(byte[] body, String text, Function<String, String> header) throws WebhookVerificationException {
    String id = header.apply("webhook-id");
    String timestamp = header.apply("webhook-timestamp");
    String signatures = header.apply("webhook-signature");
    if (isEmpty(id) || isEmpty(timestamp) || isEmpty(signatures)) {
      throw new WebhookVerificationException("missing webhook-id, webhook-timestamp or webhook-signature header");
    }
    if (!timestamp.chars().allMatch(c -> c >= '0' && c <= '9') || timestamp.length() > 18) {
      throw new WebhookVerificationException("invalid webhook-timestamp");
    }
    long ts = Long.parseLong(timestamp);
    if (Math.abs(clock.instant().getEpochSecond() - ts) > tolerance.toSeconds()) {
      throw new WebhookVerificationException("webhook-timestamp too old or too new");
    }
    List<String> symmetric = new ArrayList<>();
    List<String> asymmetric = new ArrayList<>();
    for (String entry : signatures.split(" ")) {
      if (entry.startsWith("v1,")) symmetric.add(entry);
      else if (entry.startsWith("v1a,") && asymmetric.size() < MAX_ASYMMETRIC_ENTRIES) asymmetric.add(entry.substring(4));
    }
    byte[] content = concat((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8), body);
    for (String key : keys) {
      if (key.startsWith(PUBLIC_KEY_PREFIX)) {
        PublicKey publicKey = publicKey(key);
        for (String entry : asymmetric) if (ed25519Matches(publicKey, content, entry)) return true;
      } else if (!symmetric.isEmpty()) {
        byte[] expected = hmacEntry(key, id, ts, text).getBytes(StandardCharsets.UTF_8);
        for (String entry : symmetric) if (MessageDigest.isEqual(entry.getBytes(StandardCharsets.UTF_8), expected)) return true;
      }
    }
    return false;
  }

  private boolean xSignature(byte[] body, Function<String, String> header) throws WebhookVerificationException {
    if (keys.stream().allMatch(k -> k.startsWith(PUBLIC_KEY_PREFIX))) {
      throw new WebhookVerificationException("X-Signature is HMAC only: verify an ed25519 subscription with the default scheme");
    }
    List<String> presented = new ArrayList<>();
    for (String name : List.of("x-signature", "x-signature-previous")) {
      String value = header.apply(name);
      if (!isEmpty(value)) presented.add(value);
    }
    if (presented.isEmpty()) throw new WebhookVerificationException("missing x-signature header");
    for (String key : keys) {
      if (key.startsWith(PUBLIC_KEY_PREFIX)) continue;
      // The service keys X-Signature with the whole secret string, whsec_ prefix included.
      byte[] expected = ("sha256=" + HexFormat.of().formatHex(hmacSha256(key.getBytes(StandardCharsets.UTF_8), body))).getBytes(StandardCharsets.UTF_8);
      for (String p : presented) if (MessageDigest.isEqual(p.getBytes(StandardCharsets.UTF_8), expected)) return true;
    }
    return false;
  }

  private static String hmacEntry(String secret, String id, long timestamp, String body) throws WebhookVerificationException {
    try {
      return new Webhook(secret).sign(id, timestamp, body);
    } catch (EmptyWebhookSecretException | WebhookSigningException | IllegalArgumentException e) {
      throw new WebhookVerificationException("not a usable whsec_ secret", e);
    }
  }

  private static PublicKey publicKey(String key) throws WebhookVerificationException {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(key.substring(PUBLIC_KEY_PREFIX.length()));
    } catch (IllegalArgumentException e) {
      raw = new byte[0];
    }
    if (raw.length != 32) throw new WebhookVerificationException("an Ed25519 public key is whpk_ + base64 of 32 bytes");
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(concat(ED25519_SPKI_PREFIX, raw)));
    } catch (GeneralSecurityException e) {
      throw new WebhookVerificationException("not an Ed25519 public key", e);
    }
  }

  private static boolean ed25519Matches(PublicKey key, byte[] content, String entry) {
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(entry);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (signature.length != 64) return false;
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(key);
      verifier.update(content);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static byte[] hmacSha256(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private static String utf8(byte[] body) throws WebhookVerificationException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new WebhookVerificationException("body is not UTF-8", e);
    }
  }

  private static String firstHeader(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && e.getValue() != null && !e.getValue().isEmpty()) return e.getValue().get(0);
    }
    return null;
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
