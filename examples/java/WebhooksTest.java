import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import scanctl.Scanctl;
import scanctl.ScanctlExtension;

@ExtendWith(ScanctlExtension.class) // one emulator for the class; each test restored to the checkpoint of its setup
class WebhooksTest {
  static App app;

  @BeforeAll
  static void setUp(Scanctl scanctl) throws Exception {
    app = new App(name -> scanctl.env().get(name)); // the app reads SCANCTL_* as it would in production
    scanctl.setWebhookUrl(app.url + "/webhooks");
  }

  @AfterAll
  static void tearDown() {
    app.close();
  }

  @AfterEach
  void forget() {
    app.received.clear();
  }

  @Test
  void mintsThroughOurApp() throws Exception {
    HttpRequest mint = HttpRequest.newBuilder(URI.create(app.url + "/sessions")).POST(HttpRequest.BodyPublishers.ofString("{\"user\": \"member_1\"}")).build();
    assertEquals(201, HttpClient.newHttpClient().send(mint, HttpResponse.BodyHandlers.ofString()).statusCode());
  }

  @Test
  void aRetriedWebhookIsVerified(Scanctl scanctl) {
    Scanctl.ScanRun run = scanctl.simulateScan("member_1", Scanctl.ScanOptions.defaults().playRetries()); // moves the clock to the retry
    Scanctl.Delivery delivery = run.deliveries().get(0);
    assertEquals(List.of(500, 204), delivery.statuses());
    assertEquals(List.of(delivery.eventId(), delivery.eventId()), app.received);
  }

  @Test
  void aTamperedBodyIsRefused(Scanctl scanctl) {
    assertFalse(Scanctl.verifySignature("{\"id\":\"evt_1\"} ".getBytes(), "0".repeat(64), scanctl.webhookSecret()));
  }

  @Test
  void eachTestStartsFromTheCheckpoint(Scanctl scanctl) {
    assertEquals(List.of(), scanctl.deliveries(Map.of()));
  }
}
