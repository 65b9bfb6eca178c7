package org.webhookservice.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.webhookservice.ApiProblemException;
import org.webhookservice.WebhookEvent;
import org.webhookservice.WebhookService;
import org.webhookservice.WebhookVerificationException;
import org.webhookservice.WebhookVerifier;
import org.webhookservice.client.model.EventType;
import org.webhookservice.client.model.Order;
import org.webhookservice.client.model.OrderCreate;
import org.webhookservice.client.model.OrderCreatedEventV1;
import org.webhookservice.client.model.OrderCreatedEventV2;
import org.webhookservice.client.model.OrderItemCreate;
import org.webhookservice.client.model.OrderStatus;
import org.webhookservice.client.model.SecretRotation;
import org.webhookservice.client.model.SignatureScheme;
import org.webhookservice.client.model.SubscriptionCreate;
import org.webhookservice.client.model.SubscriptionWithSecret;

/**
 * An integrator's program against the live service, run by test/integration/sdk/java.test.ts.
 *
 * <p>Subscribes a receiver of its own through the SDK (an HMAC v1 subscription and an Ed25519 v2
 * one), places an order, verifies and parses both deliveries, rotates both keys, places another
 * order and checks that the old and the new key each verify it alone during the overlap. Prints
 * one line per step; exits non-zero on any failure. Needs SERVICE_URL and API_KEY.
 */
public final class E2e {
  private static final long TIMEOUT_SECONDS = 60;
  private static final Map<String, List<String>> keys = new ConcurrentHashMap<>();
  private static final BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();

  private record Delivery(String path, byte[] body, Map<String, List<String>> headers) {}

  private E2e() {}

  /** Answers 204 to a delivery that verifies with the keys of its path, 401 to anything else. */
  private static void receive(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    try {
      WebhookVerifier.of(keys.getOrDefault(path, List.of("whsec_bm9uZQ=="))).verify(body, exchange.getRequestHeaders());
    } catch (WebhookVerificationException e) {
      System.out.println("refused " + path + ": " + e.getMessage());
      exchange.sendResponseHeaders(401, -1);
      exchange.close();
      return;
    }
    exchange.sendResponseHeaders(204, -1);
    exchange.close();
    received.add(new Delivery(path, body, Map.copyOf(exchange.getRequestHeaders())));
  }

  /** The next verified delivery of {@code type} for {@code orderId} to {@code path} (others are set aside). */
  private static Delivery delivery(String path, String type, long orderId) throws InterruptedException {
    List<Delivery> putBack = new ArrayList<>();
    try {
      while (true) {
        Delivery d = received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (d == null) throw new IllegalStateException("no " + type + " delivery for order " + orderId + " to " + path + " within " + TIMEOUT_SECONDS + " s");
        WebhookEvent event = WebhookEvent.parse(d.body());
        if (d.path().equals(path) && event.type().equals(type) && event.raw().path("data").path("order_id").asLong() == orderId) return d;
        putBack.add(d);
      }
    } finally {
      received.addAll(putBack);
    }
  }

  private static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  private static Order order(WebhookService service) {
    OrderCreate body = new OrderCreate().userId(1L).items(List.of(new OrderItemCreate().productId(1L).quantity(1)));
    return service.call(() -> service.orders().createOrder(body, null));
  }

  public static void main(String[] args) throws Exception {
    WebhookService service = new WebhookService(System.getenv("SERVICE_URL"), System.getenv("API_KEY"));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", E2e::receive);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    try {
      run(service, base);
    } finally {
      server.stop(0);
      ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
    System.out.println("ok");
  }

  private static void run(WebhookService service, String base) throws Exception {
    SubscriptionWithSecret hmacSub = service.call(() -> service.subscriptions().createSubscriptionV1(
        new SubscriptionCreate().url(URI.create(base + "/hmac")).events(Set.of(EventType.ORDER_CREATED)), null));
    keys.put("/hmac", List.of(hmacSub.getSecret()));
    SubscriptionWithSecret edSub = service.call(() -> service.subscriptions().createSubscriptionV2(
        new SubscriptionCreate().url(URI.create(base + "/ed25519")).events(Set.of(EventType.ORDER_CREATED)).signature(SignatureScheme.ED25519), null));
    // What any receiver can read at any time: the public key.
    String publicKey = service.call(() -> service.subscriptions().getSubscription(edSub.getId())).getPublicKey();
    check(publicKey.equals(edSub.getSecret()) && publicKey.startsWith("whpk_"), "public key " + publicKey);
    keys.put("/ed25519", List.of(publicKey));
    System.out.println("subscribed " + hmacSub.getId() + " hmac-sha256 " + edSub.getId() + " ed25519");

    Order first = order(service);
    System.out.println("ordered " + first.getId() + " total " + first.getTotal());
    Delivery d = delivery("/hmac", "order.created", first.getId());
    WebhookEvent event = WebhookVerifier.of(keys.get("/hmac")).verifyEvent(d.body(), d.headers());
    OrderCreatedEventV1 v1 = event.as(OrderCreatedEventV1.class).orElseThrow(() -> new AssertionError("not an OrderCreatedEventV1: " + event));
    check(v1.getData().getTotal().equals(first.getTotal()) && v1.getData().getStatus() == OrderStatus.PENDING, "v1 data " + v1.getData());
    check(event.v1().orElseThrow().getActualInstance() == v1, "the WebhookEventV1 union holds the envelope");
    System.out.println("verified hmac " + v1.getId() + " " + v1.getEvent() + " order " + v1.getData().getOrderId());

    d = delivery("/ed25519", "order.created", first.getId());
    WebhookEvent edEvent = WebhookVerifier.of(keys.get("/ed25519")).verifyEvent(d.body(), d.headers());
    if (!(edEvent.envelope() instanceof OrderCreatedEventV2 v2)) throw new AssertionError("not an OrderCreatedEventV2: " + edEvent);
    check(edEvent.version() == 2 && v2.getApiVersion() == OrderCreatedEventV2.ApiVersionEnum.NUMBER_2 && v2.getData().getOrderId().equals(first.getId()), "v2 envelope " + v2);
    System.out.println("verified ed25519 " + v2.getId() + " " + v2.getEvent() + " order " + v2.getData().getOrderId() + " v" + edEvent.version());

    // Rotate both: the old key keeps signing for the overlap, beside the new one.
    Map<String, String> old = Map.of("/hmac", keys.get("/hmac").get(0), "/ed25519", keys.get("/ed25519").get(0));
    SecretRotation overlap = new SecretRotation().expirePreviousInSeconds(3600);
    Map<String, String> rotated = Map.of(
        "/hmac", service.call(() -> service.subscriptions().rotateSubscriptionSecret(hmacSub.getId(), overlap)).getSecret(),
        "/ed25519", service.call(() -> service.subscriptions().rotateSubscriptionSecret(edSub.getId(), overlap)).getSecret());
    check(!rotated.get("/hmac").equals(old.get("/hmac")) && rotated.get("/ed25519").startsWith("whpk_") && !rotated.get("/ed25519").equals(old.get("/ed25519")), "rotated keys");
    keys.put("/hmac", List.of(rotated.get("/hmac"), old.get("/hmac")));
    keys.put("/ed25519", List.of(rotated.get("/ed25519"), old.get("/ed25519")));

    Order second = order(service);
    for (String path : List.of("/hmac", "/ed25519")) {
      Delivery r = delivery(path, "order.created", second.getId());
      for (Map.Entry<String, String> which : List.of(Map.entry("old", old.get(path)), Map.entry("new", rotated.get(path)))) {
        WebhookEvent e = WebhookVerifier.of(which.getValue()).verifyEvent(r.body(), r.headers());
        check(e.raw().path("data").path("order_id").asLong() == second.getId(), "order of " + e);
        System.out.println("rotation " + path.substring(1) + ": the " + which.getKey() + " key alone verifies " + e.id());
      }
      if (path.equals("/hmac")) {
        WebhookVerifier.of(old.get(path)).withScheme(WebhookVerifier.Scheme.X_SIGNATURE).verify(r.body(), r.headers());
        System.out.println("rotation hmac: X-Signature-Previous verifies with the old secret");
      }
    }

    try {
      service.call(() -> service.orders().getOrder(999_999_999L));
      throw new AssertionError("a missing order did not throw");
    } catch (ApiProblemException e) {
      check(e.status() == 404 && e.problem().getStatus() == 404, "problem " + e.problem());
      System.out.println("ApiProblemException " + e.status() + " " + e.title());
    }
  }
}
