import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import scanctl.Scanctl;

/** The team's own backend, in miniature: it mints sessions through the service and takes the service's webhooks. */
class App implements AutoCloseable {
  final List<String> received = new ArrayList<>(); // the event id of each verified delivery
  final String url;
  private final HttpServer server;

  /** settings: SCANCTL_* by name (System::getenv in production). */
  App(Function<String, String> settings) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/sessions", exchange -> { // POST {"user": ...}: mints through the service
      String user = new String(exchange.getRequestBody().readAllBytes()).replaceAll(".*\"user\"\\s*:\\s*\"([^\"]+)\".*", "$1");
      HttpRequest mint = HttpRequest.newBuilder(URI.create(settings.apply("SCANCTL_BASE_URL") + "/v1/sessions"))
          .header("Authorization", "Bearer " + settings.apply("SCANCTL_SECRET_KEY")).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"host_user_ref\":\"" + user + "\"}")).build();
      try {
        HttpResponse<byte[]> answer = HttpClient.newHttpClient().send(mint, HttpResponse.BodyHandlers.ofByteArray());
        reply(exchange, answer.statusCode(), answer.body());
      } catch (InterruptedException e) {
        reply(exchange, 502, new byte[0]);
      }
    });
    server.createContext("/webhooks", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes(); // the raw bytes: verified before parsing
      if (!Scanctl.verifySignature(body, exchange.getRequestHeaders().getFirst("Service-Signature"), settings.apply("SCANCTL_WEBHOOK_SECRET"))) {
        reply(exchange, 400, new byte[0]);
        return;
      }
      String event = exchange.getRequestHeaders().getFirst("Service-Event-Id");
      boolean first = !received.contains(event);
      received.add(event);
      reply(exchange, first ? 500 : 204, new byte[0]); // fails each event's first attempt: every test plays a retry
    });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) exchange.getResponseBody().write(body);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
