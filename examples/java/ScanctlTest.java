// A Java test against scanctl: JDK 17's single-file source launcher, java.net.http, javax.crypto.
// Run: java ScanctlTest.java (exit 0 when every check passes). In a JUnit suite, the same calls go
// in @BeforeAll (reach or start, wait, point the webhooks) and @Test methods.
//
// Reaches the emulator named by the environment contract (SCANCTL_BASE_URL and the keys: set by
// `scanctl exec`, the CI action or compose), or starts one (`scanctl serve --json`) when it is not
// set; waits on its health route; mints a session; plays a scan with `scanctl scan simulate`; and
// checks that the webhook arrived signed, with Java's own HMAC.
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class ScanctlTest {
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  // How to run scanctl's CLI (it plays the phone: `scan simulate`).
  static final List<String> SCANCTL = List.of(System.getenv().getOrDefault("SCANCTL_COMMAND", "node_modules/.bin/scanctl").split(" "));

  /** Service-Signature: hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret. */
  static boolean verify(byte[] body, String signature, String secret) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] expected = HexFormat.of().formatHex(mac.doFinal(body)).getBytes(StandardCharsets.US_ASCII);
    return signature != null && MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
  }

  /** One string field of a flat JSON answer (a JSON library does this in a real suite). */
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    if (!m.find()) throw new AssertionError("no " + name + " in " + json);
    return m.group(1);
  }

  /** GET /_scanctl/health until it answers 200 (503 while starting; refused before the port opens). */
  static void waitUntilReady(String baseUrl, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl + "/_scanctl/health")).timeout(Duration.ofSeconds(5)).build();
    while (true) {
      try {
        if (HTTP.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) return;
      } catch (java.io.IOException refused) {
        // Not listening yet.
      }
      if (System.nanoTime() > deadline) throw new AssertionError("scanctl at " + baseUrl + " not ready after " + timeout);
      Thread.sleep(100);
    }
  }

  static String scanctl(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(SCANCTL);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(env);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) throw new AssertionError("scanctl " + String.join(" ", args) + " exited " + process.exitValue());
    return out;
  }

  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
    System.out.println("ok - " + what);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    Process serve = null;
    if (env.get("SCANCTL_BASE_URL") == null) {
      List<String> command = new ArrayList<>(SCANCTL);
      command.addAll(List.of("serve", "--port", "0", "--json", "--db", ":memory:"));
      serve = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String ready = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
      for (String name : List.of("SCANCTL_BASE_URL", "SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET")) {
        env.put(name, field(ready, name));
      }
    }
    String baseUrl = env.get("SCANCTL_BASE_URL");
    String secret = env.get("SCANCTL_WEBHOOK_SECRET");
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/webhooks", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      boolean valid;
      try {
        valid = verify(body, exchange.getRequestHeaders().getFirst("Service-Signature"), secret);
      } catch (Exception e) {
        valid = false;
      }
      if (valid) events.add(new String(body, StandardCharsets.UTF_8));
      exchange.sendResponseHeaders(valid ? 204 : 400, -1);
      exchange.close();
    });
    receiver.start();
    try {
      waitUntilReady(baseUrl, Duration.ofSeconds(30));
      check(true, "scanctl at " + baseUrl + " is ready");

      HttpRequest mint = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/sessions"))
          .header("Authorization", "Bearer " + env.get("SCANCTL_SECRET_KEY"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"host_user_ref\":\"member_java\"}"))
          .build();
      HttpResponse<String> minted = HTTP.send(mint, HttpResponse.BodyHandlers.ofString());
      check(minted.statusCode() == 201 && field(minted.body(), "session_token").startsWith("vst_"), "a session minted with the test secret key");

      scanctl(env, "app", "update", "--webhook-url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/webhooks");
      String scan = scanctl(env, "scan", "simulate", "--user", "member_java", "--wait", "--json");
      String scanId = field(scan.lines().findFirst().orElseThrow(), "scan_id");
      check(events.stream().anyMatch(e -> e.contains("\"scan_id\":\"" + scanId + "\"") && e.contains("\"type\":\"scan.completed\"")),
          "scan " + scanId + " sent scan.completed, its signature verified with HmacSHA256");

      byte[] body = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      String signature = HexFormat.of().formatHex(mac.doFinal(body));
      check(verify(body, signature, secret) && !verify("{\"id\":\"evt_2\"}".getBytes(StandardCharsets.UTF_8), signature, secret), "a changed body fails the check");
    } finally {
      receiver.stop(0);
      if (serve != null) {
        serve.destroy();
        serve.waitFor();
      }
    }
  }
}
