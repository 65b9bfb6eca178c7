package org.webhookservice;

/** The delivery is not authentic or not fresh: answer 401 and process nothing. */
public class WebhookVerificationException extends Exception {
  public WebhookVerificationException(String message) {
    super(message);
  }

  public WebhookVerificationException(String message, Throwable cause) {
    super(message, cause);
  }
}
