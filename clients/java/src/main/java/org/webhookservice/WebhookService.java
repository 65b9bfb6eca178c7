package org.webhookservice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.webhookservice.client.ApiClient;
import org.webhookservice.client.ApiException;
import org.webhookservice.client.api.CatalogApi;
import org.webhookservice.client.api.InventoryApi;
import org.webhookservice.client.api.OrdersApi;
import org.webhookservice.client.api.PortalApi;
import org.webhookservice.client.api.SubscriptionsApi;
import org.webhookservice.client.api.UsersApi;

/**
 * The generated client behind one object: authenticated with an API key, and raising
 * {@link ApiProblemException} (unchecked) instead of the generated checked {@code ApiException}.
 *
 * <pre>{@code
 * WebhookService service = new WebhookService("http://localhost:3000", apiKey);
 * Order order = service.call(() -> service.orders().createOrder(new OrderCreate().userId(1L)...));
 * }</pre>
 */
public final class WebhookService {
  /** A generated operation, e.g. {@code () -> service.orders().getOrder(id)}. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws ApiException;
  }

  /** A generated operation without a result, e.g. {@code () -> service.subscriptions().deleteSubscription(id)}. */
  @FunctionalInterface
  public interface Run {
    void run() throws ApiException;
  }

  private final ApiClient client;

  /** A client of the service at {@code baseUrl} (e.g. {@code http://localhost:3000}), with a Bearer API key (null for none). */
  public WebhookService(String baseUrl, String apiKey) {
    this(baseUrl, apiKey, Duration.ofSeconds(30));
  }

  /** As {@link #WebhookService(String, String)}, with a read timeout per request. */
  public WebhookService(String baseUrl, String apiKey, Duration timeout) {
    client = new ApiClient();
    client.updateBaseUri(baseUrl.replaceAll("/+$", ""));
    client.setReadTimeout(timeout);
    client.setConnectTimeout(timeout);
    if (apiKey != null && !apiKey.isEmpty()) client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + apiKey));
  }

  /** The generated client, configured: for APIs this class has no accessor for. */
  public ApiClient apiClient() {
    return client;
  }

  public SubscriptionsApi subscriptions() {
    return new SubscriptionsApi(client);
  }

  public OrdersApi orders() {
    return new OrdersApi(client);
  }

  public UsersApi users() {
    return new UsersApi(client);
  }

  public CatalogApi catalog() {
    return new CatalogApi(client);
  }

  public InventoryApi inventory() {
    return new InventoryApi(client);
  }

  public PortalApi portal() {
    return new PortalApi(client);
  }

  /**
   * Runs one operation and returns its parsed 2xx body. A non-2xx answer throws
   * {@link ApiProblemException}; a network failure {@link UncheckedIOException}.
   */
  public <T> T call(Call<T> operation) {
    try {
      return operation.call();
    } catch (ApiException e) {
      throw unchecked(e);
    }
  }

  /** {@link #call} for an operation without a result (204). */
  public void run(Run operation) {
    call(() -> {
      operation.run();
      return null;
    });
  }

  private static RuntimeException unchecked(ApiException e) {
    if (e.getCode() != 0) return new ApiProblemException(e.getCode(), e.getResponseBody());
    // The generated client wraps transport failures with code 0.
    if (e.getCause() instanceof IOException io) return new UncheckedIOException(io);
    if (e.getCause() instanceof InterruptedException) Thread.currentThread().interrupt();
    return new IllegalStateException(e.getMessage(), e.getCause() != null ? e.getCause() : e);
  }
}
