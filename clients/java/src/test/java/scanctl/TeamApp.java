package scanctl;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A team's own backend on the JDK's HTTP server: it mints through the service and takes webhooks,
 * verified first, the first attempt of each event failed (500), the second acknowledged (204).
 */
final class TeamApp implements AutoCloseable {
  final List<String> received = new ArrayList<>(); // the event id of each verified delivery
  final String url;
  private final HttpServer server;

  TeamApp(Scanctl scanctl) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/sessions", exchange -> {
      Object user = Json.at(Json.parse(read(exchange)), "user");
      Object token = scanctl.mintSession(String.valueOf(user)).get("session_token");
      answer(exchange, 201, Json.write(Map.of("token", token)));
    });
    server.createContext("/webhooks", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (!Scanctl.verifySignature(body, exchange.getRequestHeaders().getFirst("Service-Signature"), scanctl.webhookSecret())) {
        answer(exchange, 400, "");
        return;
      }
      String event = exchange.getRequestHeaders().getFirst("Service-Event-Id");
      boolean first;
      synchronized (received) {
        first = !received.contains(event);
        received.add(event);
      }
      answer(exchange, first ? 500 : 204, "");
    });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  List<String> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  private static String read(HttpExchange exchange) throws IOException {
    return new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
