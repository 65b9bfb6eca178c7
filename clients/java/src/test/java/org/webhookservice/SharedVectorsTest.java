package org.webhookservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.webhookservice.client.model.OrderCreatedEventV1;
import org.webhookservice.client.model.OrderStatus;
import org.webhookservice.client.model.WebhookEventV1;

/** The shared vectors (clients/vectors/signatures.json) against the Java SDK's verifier. */
class SharedVectorsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path VECTORS = Path.of("..", "vectors", "signatures.json");

  private static List<JsonNode> vectors() throws IOException {
    List<JsonNode> list = new ArrayList<>();
    MAPPER.readTree(VECTORS.toFile()).get("vectors").forEach(list::add);
    return list;
  }

  private static WebhookVerifier verifierOf(JsonNode v) {
    List<String> keys = new ArrayList<>();
    v.get("keys").forEach(k -> keys.add(k.asText()));
    return WebhookVerifier.of(keys)
        .withScheme(v.get("scheme").asText().equals("x-signature") ? WebhookVerifier.Scheme.X_SIGNATURE : WebhookVerifier.Scheme.STANDARD_WEBHOOKS)
        .withTolerance(Duration.ofSeconds(v.get("tolerance").asLong()))
        .withClock(Clock.fixed(Instant.ofEpochSecond(v.get("now").asLong()), ZoneOffset.UTC));
  }

  private static Map<String, List<String>> headersOf(JsonNode v) {
    Map<String, List<String>> headers = new HashMap<>();
    v.get("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), List.of(e.getValue().asText())));
    return headers;
  }

  @TestFactory
  Stream<DynamicTest> sharedVectors() throws IOException {
    List<JsonNode> vectors = vectors();
    assertTrue(vectors.size() >= 25, "the shared vectors are there");
    return vectors.stream().map(v -> DynamicTest.dynamicTest(v.get("name").asText(), () -> {
      byte[] body = v.get("body").asText().getBytes(StandardCharsets.UTF_8);
      WebhookVerifier verifier = verifierOf(v);
      if (v.get("valid").asBoolean()) {
        assertEquals(MAPPER.readTree(body), verifier.verify(body, headersOf(v)));
      } else {
        assertThrows(WebhookVerificationException.class, () -> verifier.verify(body, headersOf(v)));
      }
    }));
  }

  @Test
  void aVerifiedBodyParsesIntoItsTypedEnvelope() throws Exception {
    JsonNode v = vectors().get(0);
    byte[] body = v.get("body").asText().getBytes(StandardCharsets.UTF_8);
    // Header names in any case, looked up through a function as a servlet's getHeader does.
    Map<String, String> lower = new HashMap<>();
    v.get("headers").fields().forEachRemaining(e -> lower.put(e.getKey().toLowerCase(), e.getValue().asText()));
    WebhookEvent event = verifierOf(v).verifyEvent(body, name -> lower.get(name.toLowerCase()));
    OrderCreatedEventV1 created = assertInstanceOf(OrderCreatedEventV1.class, event.envelope());
    assertEquals(5012L, created.getData().getOrderId());
    assertEquals(59.97, created.getData().getTotal().doubleValue());
    assertEquals(OrderStatus.PENDING, created.getData().getStatus());
    assertEquals(1, event.version());
    WebhookEventV1 union = event.v1().orElseThrow();
    assertEquals(created, union.getActualInstance());
    // A field the SDK does not know yet is no error; it stays readable in raw().
    assertEquals("crème brûlée", event.raw().path("data").path("note").asText());
  }

  @Test
  void unknownEventTypesAndEnumValuesAreNoError() {
    WebhookEvent unknown = WebhookEvent.parse("{\"event\":\"invoice.paid\",\"id\":\"evt_1\",\"data\":{}}");
    assertFalse(unknown.isKnown());
    assertEquals("invoice.paid", unknown.type());
    WebhookEvent refunded = WebhookEvent.parse(
        "{\"event\":\"order.created\",\"id\":\"evt_2\",\"api_version\":2,\"created_at\":\"2026-01-01T00:00:00Z\",\"data\":{\"order_id\":1,\"total\":1.5,\"currency\":\"EUR\",\"status\":\"refunded\",\"user_id\":1,\"url\":\"https://x.example/api/orders/1\"}}");
    assertEquals(2, refunded.version());
    assertEquals(OrderStatus.UNKNOWN_DEFAULT_OPEN_API, refunded.as(org.webhookservice.client.model.OrderCreatedEventV2.class).orElseThrow().getData().getStatus());
    assertThrows(IllegalArgumentException.class, () -> WebhookEvent.parse("[1]"));
  }

  @Test
  void problemDocumentsKeepExtensionMembers() {
    ApiProblemException e = new ApiProblemException(409,
        "{\"type\":\"about:blank\",\"title\":\"Insufficient stock\",\"status\":409,\"short_items\":[{\"product_id\":1,\"requested\":3,\"available\":1}]}");
    assertEquals(409, e.status());
    assertEquals("Insufficient stock", e.title());
    assertInstanceOf(List.class, e.extension("short_items"));
    assertEquals("HTTP error", new ApiProblemException(502, "<html>bad gateway</html>").title());
  }
}
