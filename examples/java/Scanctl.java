import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The harness of the Java recipe: one emulator for the whole run, its CLI, and a webhook receiver.
 *
 * <p>The emulator is the real binary node_modules/.bin/scanctl (npm ci installs it from vendor/),
 * stopped with every process it started at the end. With SCANCTL_BASE_URL set (scanctl exec, the
 * CI action, compose), that emulator is used instead and nothing is started.
 */
public final class Scanctl implements AutoCloseable {
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final List<String> CONTRACT =
      List.of("SCANCTL_BASE_URL", "SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET");
  // How to run scanctl's CLI: the real binary npm ci installed (or SCANCTL_COMMAND, e.g. "docker compose exec -T scanctl scanctl").
  static final List<String> COMMAND =
      List.of(System.getenv().getOrDefault("SCANCTL_COMMAND", Path.of("node_modules/.bin/scanctl").toAbsolutePath().toString()).split(" "));

  final Map<String, String> env = new HashMap<>();
  private Process serve;

  /** Starts `scanctl serve`, or reaches the emulator the environment names; waits until it is ready. */
  static Scanctl startOrReach() throws Exception {
    Scanctl scanctl = new Scanctl();
    if (System.getenv("SCANCTL_BASE_URL") != null) {
      for (String name : CONTRACT) scanctl.env.put(name, System.getenv(name));
    } else {
      List<String> command = new ArrayList<>(COMMAND);
      command.addAll(List.of("serve", "--port", "0", "--json", "--db", ":memory:"));
      scanctl.serve = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(scanctl.serve.getInputStream(), StandardCharsets.UTF_8));
      // serve --json: one ready line, nothing before it; its "env" object is the contract.
      String ready = out.readLine();
      if (ready == null) throw new IllegalStateException("scanctl serve ended before its ready line");
      Matcher env = Pattern.compile("\"(SCANCTL_[A-Z_]+)\":\"([^\"]*)\"").matcher(ready);
      while (env.find()) scanctl.env.put(env.group(1), env.group(2));
      Thread drain = new Thread(() -> out.lines().forEach(line -> {}));
      drain.setDaemon(true);
      drain.start();
    }
    scanctl.waitUntilReady(Duration.ofSeconds(30));
    return scanctl;
  }

  String baseUrl() {
    return env.get("SCANCTL_BASE_URL");
  }

  /** GET /_scanctl/health until it answers 200 (503 while starting; refused before the port opens). */
  void waitUntilReady(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/_scanctl/health")).timeout(Duration.ofSeconds(5)).build();
    while (true) {
      try {
        if (HTTP.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) return;
      } catch (IOException refused) {
        // Not listening yet.
      }
      if (System.nanoTime() > deadline) throw new IllegalStateException("scanctl at " + baseUrl() + " not ready after " + timeout);
      Thread.sleep(100);
    }
  }

  /** Runs the CLI against the emulator; its standard output, or an error with its message. */
  String run(String... args) throws Exception {
    List<String> command = new ArrayList<>(COMMAND);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
    builder.environment().putAll(env);
    Process cli = builder.start();
    String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (cli.waitFor() != 0) throw new AssertionError("scanctl " + String.join(" ", args) + " exited " + cli.exitValue() + ": " + err);
    return out.strip();
  }

  /** A --json command's answer, as text: its one object, or the last of its lines (a stream's result). */
  String json(String... args) throws Exception {
    List<String> withJson = new ArrayList<>(List.of(args));
    withJson.add("--json");
    String out = run(withJson.toArray(String[]::new));
    return out.startsWith("{\n") ? out : out.substring(out.lastIndexOf('\n') + 1);
  }

  /** One field of a JSON answer (a JSON library does this in a real suite). */
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"[^\"]*\"|[^,}\\]]+)").matcher(json);
    if (!m.find()) throw new AssertionError("no " + name + " in " + json);
    return m.group(1).replaceAll("^\"|\"$", "");
  }

  /** Stops the emulator it started, with every process that started (none is left behind). */
  @Override
  public void close() throws Exception {
    if (serve == null) return;
    serve.descendants().forEach(ProcessHandle::destroy);
    serve.destroy();
    // SIGKILL to what is left if it has not ended within 10 s.
    if (!serve.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
      serve.descendants().forEach(ProcessHandle::destroyForcibly);
      serve.destroyForcibly().waitFor();
    }
  }

  /** What the receiver saw of one POST. */
  record Delivery(String eventId, boolean verified, String body) {}

  /**
   * Your backend's webhook endpoint, in miniature: it verifies before it parses, fails each event's
   * first attempt (HTTP 500) and acknowledges the second (204), so every test plays a retry.
   */
  static final class Receiver implements AutoCloseable {
    final List<Delivery> deliveries = new ArrayList<>();
    private final HttpServer server;

    Receiver(String secret) throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/webhooks", exchange -> {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String eventId = exchange.getRequestHeaders().getFirst("Service-Event-Id");
        boolean verified = Verify.verify(body, exchange.getRequestHeaders().getFirst("Service-Signature"), secret);
        boolean first;
        synchronized (deliveries) {
          first = deliveries.stream().noneMatch(d -> d.eventId().equals(eventId));
          deliveries.add(new Delivery(eventId, verified, verified ? new String(body, StandardCharsets.UTF_8) : null));
        }
        exchange.sendResponseHeaders(!verified ? 400 : first ? 500 : 204, -1);
        exchange.close();
      });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks";
    }

    List<Delivery> seen() {
      synchronized (deliveries) {
        return List.copyOf(deliveries);
      }
    }

    void clear() {
      synchronized (deliveries) {
        deliveries.clear();
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
