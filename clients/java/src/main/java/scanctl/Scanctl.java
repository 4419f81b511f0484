package scanctl;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A running scanctl emulator: its URL and the default app's test credentials, and its control plane
 * over the JDK's HttpClient. {@code Scanctl.start()} finds scanctl through SCANCTL_BASE_URL (an
 * emulator already running; never stopped), else SCANCTL_BIN, else scanctl on PATH, else
 * node_modules/.bin/scanctl, and starts {@code serve --port 0 --json --db :memory:
 * --stop-on-stdin-close}; {@link #close()} stops it. In JUnit 5, {@link ScanctlExtension} does both.
 * Safe for concurrent use.
 */
public final class Scanctl implements AutoCloseable {
  private static final String CONTROL = "/_scanctl";
  private static final List<String> ENDED = List.of("succeeded", "failed", "cancelled");

  private final String baseUrl;
  private final String appId;
  private final String secretKey;
  private final String publishableKey;
  private volatile String webhookSecret;
  private final ServeProcess process;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private String cookie;

  private Scanctl(String baseUrl, String appId, String secretKey, String publishableKey, String webhookSecret, ServeProcess process) {
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.appId = appId;
    this.secretKey = secretKey;
    this.publishableKey = publishableKey;
    this.webhookSecret = webhookSecret;
    this.process = process;
  }

  /** How {@link #start(Options)} starts serve. */
  public record Options(String fixtures, Long seed, boolean frozenClock, String clockStart, String db, int rateLimit, List<String> args,
      Duration timeout) {
    /** An in-memory database, the bundled fixtures, a running clock, the rate limit off (as in every scanctl test run). */
    public static Options defaults() {
      return new Options(null, null, false, null, ":memory:", 0, List.of(), Duration.ofSeconds(60));
    }

    public Options withFixtures(String file) {
      return new Options(file, seed, frozenClock, clockStart, db, rateLimit, args, timeout);
    }

    public Options withSeed(long n) {
      return new Options(fixtures, n, frozenClock, clockStart, db, rateLimit, args, timeout);
    }

    public Options withFrozenClock() {
      return new Options(fixtures, seed, true, clockStart, db, rateLimit, args, timeout);
    }

    public Options withClockStart(String time) {
      return new Options(fixtures, seed, frozenClock, time, db, rateLimit, args, timeout);
    }

    public Options withDb(String file) {
      return new Options(fixtures, seed, frozenClock, clockStart, file, rateLimit, args, timeout);
    }
  }

  /** {@link #start(Options)} with {@link Options#defaults()}. */
  public static Scanctl start() {
    return start(Options.defaults());
  }

  /**
   * An emulator for the caller: the one SCANCTL_BASE_URL names (never stopped by close), else a new
   * serve, ready once its JSON ready line arrived.
   */
  public static Scanctl start(Options options) {
    String base = System.getenv("SCANCTL_BASE_URL");
    if (base != null && !base.isEmpty()) return attach(base);
    List<String> args = new ArrayList<>();
    String db = options.db() == null || options.db().equals(":memory:") ? ":memory:" : Paths.get(options.db()).toAbsolutePath().toString();
    args.addAll(List.of("--db", db, "--rate-limit", String.valueOf(options.rateLimit())));
    if (options.fixtures() != null) args.addAll(List.of("--fixtures", Paths.get(options.fixtures()).toAbsolutePath().toString()));
    if (options.seed() != null) args.addAll(List.of("--seed", String.valueOf(options.seed())));
    if (options.frozenClock()) args.add("--frozen-clock");
    if (options.clockStart() != null) args.addAll(List.of("--clock-start", options.clockStart()));
    args.addAll(options.args());
    ServeProcess serve = new ServeProcess(find(), args, options.timeout().toMillis());
    Map<String, Object> ready = serve.ready;
    return new Scanctl(text(ready.get("base_url")), text(ready.get("app_id")), text(ready.get("test_secret_key")),
        text(ready.get("test_publishable_key")), text(Json.at(ready, "env", "SCANCTL_WEBHOOK_SECRET")), serve);
  }

  /** The scanctl executable start would run (SCANCTL_BIN, PATH, node_modules/.bin/scanctl in the working folder or above). */
  public static String find() {
    return ServeProcess.find(Paths.get(""));
  }

  private static Scanctl attach(String base) {
    Scanctl probe = new Scanctl(base, "", "", "", "", null);
    String app = env("SCANCTL_APP_ID");
    if (app.isEmpty()) app = text(probe.json("GET", CONTROL + "/info", null).get("default_app_id"));
    String secret = env("SCANCTL_SECRET_KEY");
    String publishable = env("SCANCTL_PUBLISHABLE_KEY");
    String whsec = env("SCANCTL_WEBHOOK_SECRET");
    if (secret.isEmpty() || publishable.isEmpty()) {
      Object keys = probe.json("GET", CONTROL + "/apps/" + app + "/fixture-keys", null).get("test");
      if (secret.isEmpty()) secret = text(Json.at(keys, "secret"));
      if (publishable.isEmpty()) publishable = text(Json.at(keys, "publishable"));
    }
    if (whsec.isEmpty()) whsec = text(probe.json("GET", CONTROL + "/apps/" + app + "/webhook-secret", null).get("webhook_secret"));
    return new Scanctl(base, app, secret, publishable, whsec, null);
  }

  public String baseUrl() {
    return baseUrl;
  }

  public String appId() {
    return appId;
  }

  public String secretKey() {
    return secretKey;
  }

  public String publishableKey() {
    return publishableKey;
  }

  public String webhookSecret() {
    return webhookSecret;
  }

  /** The emulator's process id when this library started it, else -1 (SCANCTL_BASE_URL). */
  public long pid() {
    return process == null ? -1 : process.process.pid();
  }

  /** The environment contract (SCANCTL_BASE_URL, SCANCTL_APP_ID, ...), for code of yours that reads SCANCTL_*. */
  public Map<String, String> env() {
    return Map.of("SCANCTL_BASE_URL", baseUrl, "SCANCTL_APP_ID", appId, "SCANCTL_SECRET_KEY", secretKey, "SCANCTL_PUBLISHABLE_KEY",
        publishableKey, "SCANCTL_WEBHOOK_SECRET", webhookSecret);
  }

  /** One call's answer: its status, parsed JSON body (or null) and headers. */
  public record Response(int status, Object body, java.net.http.HttpHeaders headers) {
  }

  /** One call; a status outside 2xx (and {@code ok}) throws ScanctlException. body: a Map, List, ... or null. */
  public Response request(String method, String path, Object body, Map<String, String> headers, int... ok) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(130));
    if (body == null) builder.method(method, HttpRequest.BodyPublishers.noBody());
    else builder.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body))).header("content-type", "application/json");
    headers.forEach(builder::header);
    HttpResponse<String> answer;
    try {
      answer = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new ScanctlException(method + " " + path + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScanctlException(method + " " + path + ": interrupted");
    }
    Object parsed = null;
    if (!answer.body().isEmpty()) {
      try {
        parsed = Json.parse(answer.body());
      } catch (IllegalArgumentException e) {
        parsed = answer.body();
      }
    }
    int status = answer.statusCode();
    boolean accepted = status >= 200 && status <= 299;
    for (int each : ok) accepted |= each == status;
    if (!accepted) {
      String shown = answer.body().length() > 500 ? answer.body().substring(0, 500) : answer.body();
      throw new ScanctlException(method + " " + path + " answered " + status + ": " + shown, status, parsed);
    }
    return new Response(status, parsed, answer.headers());
  }

  /** A call whose 2xx answer is a JSON object. */
  public Map<String, Object> json(String method, String path, Object body) {
    return Json.object(request(method, path, body, Map.of()).body());
  }

  /** The whole state (every table, the clock, pending deliveries), kept; its id. name may be null. */
  public String checkpoint(String name) {
    return text(json("POST", CONTROL + "/state/checkpoints", name == null ? null : Map.of("name", name)).get("id"));
  }

  /** Puts the state back as the checkpoint (id or name) holds it. */
  public Map<String, Object> restore(String checkpoint) {
    return json("POST", CONTROL + "/state/checkpoints/" + URLEncoder.encode(checkpoint, StandardCharsets.UTF_8) + "/restore", null);
  }

  /** POST /v1/sessions with the test secret key; the 201 body (session_token, expires_at). */
  public Map<String, Object> mintSession(String user) {
    return Json.object(request("POST", "/v1/sessions", Map.of("host_user_ref", user), Map.of("authorization", "Bearer " + secretKey)).body());
  }

  /** One attempt of a delivery; status 0 when no answer came (see error). */
  public record Attempt(int number, String url, int status, String error) {
    static Attempt of(Object o) {
      return new Attempt(integer(Json.at(o, "number")), text(Json.at(o, "url")), integer(Json.at(o, "status")), (String) Json.at(o, "error"));
    }
  }

  /** A delivery with its attempts, as simulateScan and waitForDeliveries report it. */
  public record Delivery(String id, String eventId, String eventType, String scanId, String status, List<Attempt> attempts,
      Map<String, Object> raw) {
    static Delivery of(Object o, String idKey, String attemptsKey) {
      List<Attempt> attempts = Json.array(Json.at(o, attemptsKey)).stream().map(Attempt::of).toList();
      return new Delivery(text(Json.at(o, idKey)), text(Json.at(o, "event_id")), text(Json.at(o, "event_type")), text(Json.at(o, "scan_id")),
          text(Json.at(o, "status")), attempts, Json.object(o));
    }

    /** The attempts' HTTP statuses, first to last ([500, 204]). */
    public List<Integer> statuses() {
      return attempts.stream().map(Attempt::status).toList();
    }
  }

  /** What simulateScan returns: the scan (as `scanctl scan simulate --json` prints it) and, with the wait, its deliveries. */
  public record ScanRun(Map<String, Object> scan, List<Delivery> deliveries, boolean ok, String reason, List<Object> clockMoves) {
    public String scanId() {
      return (String) scan.get("scan_id");
    }
  }

  /** How simulateScan plays a scan: {@code ScanOptions.defaults().playRetries()}. Immutable. */
  public static final class ScanOptions {
    final String outcome;
    final boolean playRetries;
    final boolean waits;
    final Duration timeout;

    private ScanOptions(String outcome, boolean playRetries, boolean waits, Duration timeout) {
      this.outcome = outcome;
      this.playRetries = playRetries;
      this.waits = waits;
      this.timeout = timeout;
    }

    /** completed, waiting for the deliveries (10 s at most), no clock moves. */
    public static ScanOptions defaults() {
      return new ScanOptions("completed", false, true, Duration.ofSeconds(10));
    }

    /** Move the virtual clock to each retry once it is due, no further: a retried webhook without sleeping. */
    public ScanOptions playRetries() {
      return new ScanOptions(outcome, true, waits, timeout);
    }

    /** How the scan ends: completed, failed, ... */
    public ScanOptions outcome(String how) {
      return new ScanOptions(how, playRetries, waits, timeout);
    }

    /** Answer once the scan is recorded, without waiting for its deliveries. */
    public ScanOptions noWait() {
      return new ScanOptions(outcome, playRetries, false, timeout);
    }

    /** The real time the wait may take. */
    public ScanOptions timeout(Duration d) {
      return new ScanOptions(outcome, playRetries, waits, d);
    }
  }

  /** simulateScan with the defaults: waits until the scan's deliveries are acknowledged, or cannot be. */
  public ScanRun simulateScan(String user) {
    return simulateScan(user, ScanOptions.defaults());
  }

  /** Plays one scan of user as the SDK does (POST /_scanctl/apps/{app_id}/scans/simulate). */
  public ScanRun simulateScan(String user, ScanOptions options) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("host_user_ref", user);
    body.put("outcome", options.outcome);
    body.put("wait", options.waits);
    body.put("play_retries", options.playRetries);
    body.put("timeout_ms", options.timeout.toMillis());
    Map<String, Object> run = json("POST", CONTROL + "/apps/" + appId + "/scans/simulate", body);
    Object wait = run.get("wait");
    List<Delivery> deliveries = Json.array(Json.at(wait, "log")).stream().map(o -> Delivery.of(o, "delivery_id", "attempts")).toList();
    boolean ok = wait == null || Boolean.TRUE.equals(Json.at(wait, "ok"));
    return new ScanRun(Json.object(run.get("scan")), deliveries, ok, (String) Json.at(wait, "reason"), Json.array(Json.at(wait, "clock_moves")));
  }

  /** The app's deliveries, newest first, as the control plane lists them (filters: scan_id, event_id, host_user_ref, status). */
  public List<Map<String, Object>> deliveries(Map<String, String> filters) {
    StringBuilder query = new StringBuilder("app_id=" + URLEncoder.encode(appId, StandardCharsets.UTF_8) + "&limit=1000");
    filters.forEach((k, v) -> query.append('&').append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return Json.array(json("GET", CONTROL + "/webhooks/deliveries?" + query, null).get("data")).stream().map(Json::object).toList();
  }

  /** What waitForDeliveries waits for: {@code Wait.forScan(id).until("attempted").playRetries()}. Immutable. */
  public static final class Wait {
    final Map<String, String> filters;
    final String until;
    final int count;
    final boolean playRetries;
    final Duration timeout;

    private Wait(Map<String, String> filters, String until, int count, boolean playRetries, Duration timeout) {
      this.filters = filters;
      this.until = until;
      this.count = count;
      this.playRetries = playRetries;
      this.timeout = timeout;
    }

    /** The deliveries of one scan, until acknowledged, at least one, 10 s at most. */
    public static Wait forScan(String scanId) {
      return matching(Map.of("scan_id", scanId));
    }

    /** The deliveries the filters match (scan_id, event_id, host_user_ref). */
    public static Wait matching(Map<String, String> filters) {
      return new Wait(filters, "acknowledged", 1, false, Duration.ofSeconds(10));
    }

    /** attempted, acknowledged (the default), exhausted or settled. */
    public Wait until(String goal) {
      return new Wait(filters, goal, count, playRetries, timeout);
    }

    public Wait count(int n) {
      return new Wait(filters, until, n, playRetries, timeout);
    }

    /** Move the clock to each retry once the failed attempt before it is recorded. */
    public Wait playRetries() {
      return new Wait(filters, until, count, true, timeout);
    }

    public Wait timeout(Duration d) {
      return new Wait(filters, until, count, playRetries, d);
    }
  }

  /**
   * Waits until at least wait.count() matching deliveries exist and each reached wait.until(); returns them
   * with their attempt logs. Throws ScanctlException when one can no longer get there, or after the timeout.
   */
  public List<Delivery> waitForDeliveries(Wait wait) {
    Predicate<Map<String, Object>> reached = switch (wait.until) {
      case "attempted" -> d -> integer(d.get("attempts")) >= 1;
      case "acknowledged" -> d -> "succeeded".equals(d.get("status"));
      case "exhausted" -> d -> "failed".equals(d.get("status"));
      case "settled" -> d -> ENDED.contains(d.get("status"));
      default -> throw new IllegalArgumentException("until: one of attempted, acknowledged, exhausted, settled");
    };
    long deadline = System.nanoTime() + wait.timeout.toNanos();
    while (true) {
      List<Map<String, Object>> found = deliveries(wait.filters);
      if (found.size() >= wait.count && found.stream().allMatch(reached)) {
        return found.stream().map(d -> Delivery.of(json("GET", CONTROL + "/webhooks/deliveries/" + d.get("id"), null), "id", "attempt_log"))
            .toList();
      }
      for (Map<String, Object> d : found) {
        if (ENDED.contains(d.get("status")) && !reached.test(d)) {
          throw new ScanctlException("delivery " + d.get("id") + " ended " + d.get("status") + " after " + d.get("attempts")
              + " attempts: it can no longer be " + wait.until);
        }
      }
      if (wait.playRetries && playNextRetry(found)) continue;
      if (System.nanoTime() > deadline) {
        List<String> states = found.stream().map(d -> d.get("id") + ":" + d.get("status")).toList();
        throw new ScanctlException("timed out after " + wait.timeout + " waiting for " + wait.count + " deliveries to be " + wait.until
            + ": " + states);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ScanctlException("interrupted");
      }
    }
  }

  private boolean playNextRetry(List<Map<String, Object>> found) {
    String due = found.stream().filter(d -> "pending".equals(d.get("status")) && integer(d.get("attempts")) > 0 && d.get("next_attempt_at") != null)
        .map(d -> (String) d.get("next_attempt_at")).sorted().findFirst().orElse(null);
    if (due == null || due.compareTo(text(clock().get("now"))) <= 0) return false;
    return request("POST", CONTROL + "/clock/set", Map.of("time", due), Map.of(), 400).status() == 200;
  }

  /** Moves the virtual clock forward, playing what falls due on the way; the clock after. */
  public Map<String, Object> advanceClock(Duration duration) {
    return json("POST", CONTROL + "/clock/advance", Map.of("duration", duration.toMillis() + "ms"));
  }

  /** The virtual clock (now, offset_ms, frozen). */
  public Map<String, Object> clock() {
    return json("GET", CONTROL + "/clock", null);
  }

  /** Where the app's webhooks go (the portal's setting; null removes it); the app as the portal shows it. */
  public synchronized Map<String, Object> setWebhookUrl(String url) {
    if (cookie == null) {
      Object account = json("GET", CONTROL + "/apps/" + appId, null).get("account_id");
      Response login = request("POST", CONTROL + "/portal/login", Map.of("account_id", account), Map.of());
      cookie = login.headers().firstValue("set-cookie").orElse("").split(";", 2)[0];
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("webhook_url", url);
    Map<String, Object> app = Json.object(request("PATCH", "/v1/apps/" + appId, body, Map.of("cookie", cookie)).body());
    if (app.get("webhook_secret") instanceof String secret && !secret.isEmpty()) webhookSecret = secret;
    return app;
  }

  /** Stops the emulator this library started, with every process it started; a SCANCTL_BASE_URL one is left running. */
  @Override
  public void close() {
    if (process != null) process.stop();
  }

  /**
   * Whether Service-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the webhook signing
   * secret (whsec_...). Check the bytes as received, before parsing them; the comparison takes constant time.
   */
  public static boolean verifySignature(byte[] body, String signature, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      StringBuilder expected = new StringBuilder();
      for (byte b : mac.doFinal(body)) expected.append(String.format("%02x", b));
      String given = signature == null ? "" : signature.strip().toLowerCase(java.util.Locale.ROOT);
      return MessageDigest.isEqual(expected.toString().getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String env(String name) {
    String value = System.getenv(name);
    return value == null ? "" : value;
  }

  private static String text(Object value) {
    return value == null ? "" : String.valueOf(value);
  }

  private static int integer(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }
}
