package org.webhookservice;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.webhookservice.client.ApiClient;
import org.webhookservice.client.model.Problem;
import org.webhookservice.client.model.ProblemErrorsInner;

/**
 * A non-2xx answer of the service: its RFC 9457 problem document, typed ({@link #problem()},
 * extension members in {@code problem().getAdditionalProperties()}), and the raw body.
 * Unchecked, like the errors of most Java HTTP clients: catch it where a status matters.
 */
public class ApiProblemException extends RuntimeException {
  private static final ObjectMapper MAPPER = ApiClient.createDefaultObjectMapper();

  private final int status;
  private final transient Problem problem;
  private final String body;

  /** From a raw answer; a body that is no problem document still gives a usable one. */
  public ApiProblemException(int status, String body) {
    this(status, parse(status, body), body);
  }

  private ApiProblemException(int status, Problem problem, String body) {
    super(status + " " + problem.getTitle() + (problem.getDetail() != null ? ": " + problem.getDetail() : ""));
    this.status = status;
    this.problem = problem;
    this.body = body == null ? "" : body;
  }

  private static Problem parse(int status, String body) {
    try {
      Problem p = body == null || body.isBlank() ? null : MAPPER.readValue(body, Problem.class);
      if (p != null && p.getTitle() != null) return p;
    } catch (JsonProcessingException e) {
      // Not JSON (a proxy's HTML page, say): described below.
    }
    String detail = body == null ? null : body.substring(0, Math.min(body.length(), 200));
    return new Problem().type("about:blank").title("HTTP error").status(status).detail(detail == null || detail.isBlank() ? null : detail);
  }

  /** The HTTP status of the answer. */
  public int status() {
    return status;
  }

  /** The whole problem document; members the contract does not name are in {@code getAdditionalProperties()}. */
  public Problem problem() {
    return problem;
  }

  /** The problem document as another of the contract's problem types (e.g. {@code InsufficientStockProblem}). */
  public <T> T problemAs(Class<T> type) {
    try {
      return MAPPER.readValue(body, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the answer is not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  /** The problem type URI ({@code about:blank} when nothing more specific). */
  public String type() {
    return problem.getType();
  }

  /** Short summary of the problem type. */
  public String title() {
    return problem.getTitle();
  }

  /** This occurrence's explanation, or null. */
  public String detail() {
    return problem.getDetail();
  }

  /** The offending request fields (empty when the problem is not about the request's content). */
  public List<ProblemErrorsInner> errors() {
    return problem.getErrors() == null ? List.of() : problem.getErrors();
  }

  /** One extension member by name (e.g. {@code short_items}), as plain JSON values, or null. */
  public Object extension(String name) {
    Map<String, Object> extra = problem.getAdditionalProperties();
    return extra == null ? null : extra.get(name);
  }

  /** The raw response body. */
  public String body() {
    return body;
  }
}
