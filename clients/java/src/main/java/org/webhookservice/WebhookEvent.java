package org.webhookservice;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.webhookservice.client.ApiClient;
import org.webhookservice.client.model.WebhookEventV1;
import org.webhookservice.client.model.WebhookEventV2;

/**
 * A verified delivery's body, typed: {@link #envelope()} is the contract's envelope of its event
 * type and version ({@code OrderCreatedEventV1}, ..., {@code OrderCreatedEventV2} when the body
 * carries {@code api_version}), or null for an event type this SDK does not know yet (acknowledge
 * it). Fields the SDK does not know are ignored by the typed envelope and kept in {@link #raw()}.
 *
 * <pre>{@code
 * if (event.envelope() instanceof OrderCreatedEventV1 created) {
 *   created.getData().getOrderId();
 * }
 * }</pre>
 */
public final class WebhookEvent {
  private static final ObjectMapper MAPPER = ApiClient.createDefaultObjectMapper();
  // The contract's discriminator mappings, read from the generated unions: event type -> envelope class.
  private static final Map<String, Class<?>> V1 = byEventType(WebhookEventV1.schemas.values());
  private static final Map<String, Class<?>> V2 = byEventType(WebhookEventV2.schemas.values());

  private final String type;
  private final String id;
  private final int version;
  private final Object envelope;
  private final JsonNode raw;

  private WebhookEvent(String type, String id, int version, Object envelope, JsonNode raw) {
    this.type = type;
    this.id = id;
    this.version = version;
    this.envelope = envelope;
    this.raw = raw;
  }

  /** Types an already verified body. Throws IllegalArgumentException on a body that is no envelope. */
  public static WebhookEvent parse(byte[] body) {
    try {
      return parse(MAPPER.readTree(body));
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
  }

  /** {@link #parse(byte[])} from a string. */
  public static WebhookEvent parse(String body) {
    try {
      return parse(MAPPER.readTree(body));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** {@link #parse(byte[])} from parsed JSON (what {@link WebhookVerifier#verify} returns). */
  public static WebhookEvent parse(JsonNode json) {
    if (json == null || !json.isObject() || !json.path("event").isTextual() || !json.path("id").isTextual()) {
      throw new IllegalArgumentException("not a webhook envelope: an object with string event and id is expected");
    }
    String type = json.get("event").asText();
    boolean v2 = json.has("api_version");
    Class<?> model = (v2 ? V2 : V1).get(type);
    Object envelope = null;
    if (model != null) {
      try {
        envelope = MAPPER.treeToValue(json, model);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("not a " + model.getSimpleName() + ": " + e.getOriginalMessage(), e);
      }
    }
    return new WebhookEvent(type, json.get("id").asText(), v2 ? json.path("api_version").asInt(2) : 1, envelope, json);
  }

  /** The event type ({@code order.created}, ...), known or not. */
  public String type() {
    return type;
  }

  /** The event id: the same id may arrive more than once (retries, redelivery), drop duplicates by it. */
  public String id() {
    return id;
  }

  /** The envelope version: 1, or the body's {@code api_version}. */
  public int version() {
    return version;
  }

  /** Whether this SDK knows the event type ({@link #envelope()} is then not null). */
  public boolean isKnown() {
    return envelope != null;
  }

  /** The typed envelope ({@code OrderCreatedEventV1}, ...), or null for an unknown event type. */
  public Object envelope() {
    return envelope;
  }

  /** The envelope as {@code type}, when it is one. */
  public <T> Optional<T> as(Class<T> type) {
    return type.isInstance(envelope) ? Optional.of(type.cast(envelope)) : Optional.empty();
  }

  /** The contract's v1 union ({@code WebhookEventV1}), for a known v1 event. */
  public Optional<WebhookEventV1> v1() {
    if (envelope == null || version != 1) return Optional.empty();
    WebhookEventV1 union = new WebhookEventV1();
    union.setActualInstance(envelope);
    return Optional.of(union);
  }

  /** The contract's v2 union ({@code WebhookEventV2}), for a known v2 event. */
  public Optional<WebhookEventV2> v2() {
    if (envelope == null || version == 1) return Optional.empty();
    WebhookEventV2 union = new WebhookEventV2();
    union.setActualInstance(envelope);
    return Optional.of(union);
  }

  /** The body as JSON, every field included. */
  public JsonNode raw() {
    return raw;
  }

  @Override
  public String toString() {
    return "WebhookEvent{" + type + " " + id + " v" + version + (envelope == null ? " unknown" : "") + "}";
  }

  /** Each envelope class's {@code event} constant (its EventEnum's one known value) to the class. */
  private static Map<String, Class<?>> byEventType(Collection<Class<?>> envelopes) {
    Map<String, Class<?>> map = new HashMap<>();
    for (Class<?> envelope : envelopes) {
      for (Class<?> nested : envelope.getDeclaredClasses()) {
        if (!nested.isEnum() || !nested.getSimpleName().equals("EventEnum")) continue;
        for (Object constant : nested.getEnumConstants()) {
          if (!((Enum<?>) constant).name().equals("UNKNOWN_DEFAULT_OPEN_API")) map.put(constant.toString(), envelope);
        }
      }
    }
    return Map.copyOf(map);
  }
}
