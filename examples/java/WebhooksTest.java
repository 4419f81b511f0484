import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A retried, verified webhook, proven with scanctl; each test starts from a checkpoint of the
 * emulator's state. Plain JDK 17, no test framework (with JUnit 5 the same calls go in @BeforeAll,
 * @AfterEach and @Test methods). Run: javac -d build *.java && java -cp build WebhooksTest
 */
public class WebhooksTest {
  static Scanctl scanctl;
  static Scanctl.Receiver receiver;
  static String checkpoint;

  public static void main(String[] args) throws Exception {
    int failed = 0;
    try (Scanctl emulator = Scanctl.startOrReach(); Scanctl.Receiver endpoint = new Scanctl.Receiver(emulator.env.get("SCANCTL_WEBHOOK_SECRET"))) {
      scanctl = emulator;
      receiver = endpoint;
      // The suite's setup, done once, then checkpointed: the state each test starts from.
      scanctl.run("app", "update", "--webhook-url", receiver.url());
      checkpoint = Scanctl.field(scanctl.json("state", "checkpoint", "java-setup"), "id");
      failed += test("a failed webhook is retried, verified and acknowledged", WebhooksTest::retriedVerifiedAndAcknowledged);
      failed += test("each test starts from the checkpoint", WebhooksTest::startsFromTheCheckpoint);
      failed += test("mints a session with the test secret key", WebhooksTest::mintsASession);
      failed += test("a changed body fails the signature check", WebhooksTest::aChangedBodyFails);
    }
    System.out.println(failed == 0 ? "all passed" : failed + " failed");
    System.exit(failed == 0 ? 0 : 1);
  }

  interface Check {
    void run() throws Exception;
  }

  /** Runs one test, then puts the whole emulator state (clock and pending deliveries too) back to the checkpoint. */
  static int test(String name, Check check) throws Exception {
    try {
      check.run();
      System.out.println("ok - " + name);
      return 0;
    } catch (Exception | AssertionError e) {
      System.out.println("not ok - " + name + ": " + e.getMessage());
      return 1;
    } finally {
      scanctl.run("state", "restore", checkpoint);
      receiver.clear();
    }
  }

  static void check(boolean condition, String message) {
    if (!condition) throw new AssertionError(message);
  }

  static void retriedVerifiedAndAcknowledged() throws Exception {
    // --play-retries moves the emulator's clock to each retry when it is due: no sleeping.
    String result = scanctl.json("scan", "simulate", "--user", "member_java", "--wait", "--play-retries");
    check(Scanctl.field(result, "ok").equals("true"), "not acknowledged: " + result);
    String eventId = Scanctl.field(result, "event_id");
    String attempts = result.substring(result.indexOf("\"attempts\":["));
    List<String> statuses = new ArrayList<>();
    for (Matcher m = Pattern.compile("\"status\":(\\d+)").matcher(attempts); m.find(); ) statuses.add(m.group(1));
    check(statuses.equals(List.of("500", "204")), "attempts answered " + statuses + ", want [500, 204]");
    // The receiver saw the same event twice, each signature valid.
    List<Scanctl.Delivery> seen = receiver.seen();
    check(seen.size() == 2, "the receiver saw " + seen.size() + " deliveries");
    for (Scanctl.Delivery d : seen) check(d.eventId().equals(eventId) && d.verified(), "unexpected delivery " + d);
    check(seen.get(1).body().contains("\"scan_id\":\"" + Scanctl.field(result, "scan_id") + "\""), "the event is for another scan");
  }

  static void startsFromTheCheckpoint() throws Exception {
    // The scan of the test before was rolled back with the rest of the state.
    String scans = scanctl.json("scan", "list", "--user", "member_java");
    check(scans.replaceAll("\\s", "").contains("\"data\":[]"), "scans left over: " + scans);
    check(receiver.seen().isEmpty(), "deliveries left over");
  }

  static void mintsASession() throws Exception {
    HttpRequest mint = HttpRequest.newBuilder(URI.create(scanctl.baseUrl() + "/v1/sessions"))
        .header("Authorization", "Bearer " + scanctl.env.get("SCANCTL_SECRET_KEY"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"host_user_ref\":\"member_java\"}"))
        .build();
    HttpResponse<String> answer = Scanctl.HTTP.send(mint, HttpResponse.BodyHandlers.ofString());
    check(answer.statusCode() == 201, "mint answered " + answer.statusCode());
    check(Scanctl.field(answer.body(), "session_token").startsWith("vst_"), "no session token: " + answer.body());
  }

  static void aChangedBodyFails() throws Exception {
    String secret = scanctl.env.get("SCANCTL_WEBHOOK_SECRET");
    byte[] body = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String signature = HexFormat.of().formatHex(mac.doFinal(body));
    check(Verify.verify(body, signature, secret), "the signed body is refused");
    check(!Verify.verify("{\"id\":\"evt_2\"}".getBytes(StandardCharsets.UTF_8), signature, secret), "a changed body is accepted");
  }
}
