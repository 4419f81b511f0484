package scanctl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ScanctlExtension.class)
class ScanctlTest {
  static TeamApp app;

  @BeforeAll
  static void setUp(Scanctl scanctl) throws IOException {
    app = new TeamApp(scanctl);
    scanctl.setWebhookUrl(app.url + "/webhooks");
    Record.emulator("ScanctlTest", scanctl);
  }

  @AfterAll
  static void tearDown() {
    app.close();
  }

  @AfterEach
  void forget() {
    synchronized (app.received) {
      app.received.clear();
    }
  }

  @Test
  void mintsThroughTheTeamsOwnApp(Scanctl scanctl) throws Exception {
    HttpResponse<String> answer = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(app.url + "/sessions")).POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"member_1\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(201, answer.statusCode());
    assertTrue(String.valueOf(Json.at(Json.parse(answer.body()), "token")).startsWith("vst_"));
    assertTrue(String.valueOf(scanctl.mintSession("member_1").get("session_token")).startsWith("vst_"));
  }

  @Test
  void aRetriedWebhookIsVerifiedAndAcknowledged(Scanctl scanctl) {
    Scanctl.ScanRun run = scanctl.simulateScan("member_1", Scanctl.ScanOptions.defaults().playRetries());
    assertTrue(run.ok(), run.toString());
    assertEquals("recorded", run.scan().get("state"));
    assertEquals(1, run.deliveries().size());
    Scanctl.Delivery delivery = run.deliveries().get(0);
    assertEquals(List.of(500, 204), delivery.statuses());
    assertEquals(List.of(delivery.eventId(), delivery.eventId()), app.received());
    assertEquals(run.scanId(), delivery.scanId());
    assertEquals(1, run.clockMoves().size());
  }

  @Test
  void eachTestStartsFromTheCheckpoint(Scanctl scanctl) {
    assertEquals(List.of(), scanctl.deliveries(Map.of()));
    assertEquals(List.of(), scanctl.json("GET", "/_scanctl/apps/" + scanctl.appId() + "/scans", null).get("data"));
  }

  @Test
  void aTamperedBodyIsRefused(Scanctl scanctl) throws Exception {
    byte[] body = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec(scanctl.webhookSecret().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    StringBuilder signature = new StringBuilder();
    for (byte b : mac.doFinal(body)) signature.append(String.format("%02x", b));
    assertTrue(Scanctl.verifySignature(body, signature.toString(), scanctl.webhookSecret()));
    assertTrue(Scanctl.verifySignature(body, " " + signature.toString().toUpperCase() + " ", scanctl.webhookSecret()));
    assertFalse(Scanctl.verifySignature("{\"id\":\"evt_1\"} ".getBytes(StandardCharsets.UTF_8), signature.toString(), scanctl.webhookSecret()));
    assertFalse(Scanctl.verifySignature(body, null, scanctl.webhookSecret()));
  }

  @Test
  void waitForDeliveriesPlaysRetriesOnTheClock(Scanctl scanctl) {
    Scanctl.ScanRun run = scanctl.simulateScan("member_2", Scanctl.ScanOptions.defaults().noWait());
    List<Scanctl.Delivery> attempted = scanctl.waitForDeliveries(Scanctl.Wait.forScan(run.scanId()).until("attempted"));
    assertEquals(List.of(500), attempted.get(0).statuses());
    List<Scanctl.Delivery> done = scanctl.waitForDeliveries(Scanctl.Wait.forScan(run.scanId()).playRetries());
    assertEquals(List.of(500, 204), done.get(0).statuses());
    ScanctlException timedOut = assertThrows(ScanctlException.class,
        () -> scanctl.waitForDeliveries(Scanctl.Wait.forScan("scn_none").timeout(Duration.ofMillis(200))));
    assertTrue(timedOut.getMessage().contains("timed out"), timedOut.getMessage());
  }

  @Test
  void advanceClockMovesTheVirtualClock(Scanctl scanctl) {
    long start = ((Number) scanctl.clock().get("offset_ms")).longValue();
    long moved = ((Number) scanctl.advanceClock(Duration.ofHours(2)).get("offset_ms")).longValue();
    assertTrue(moved - start >= 7_200_000, start + " -> " + moved);
  }

  @Test
  void aRefusedMintThrowsWithTheStatus(Scanctl scanctl) {
    assertEquals(400, assertThrows(ScanctlException.class, () -> scanctl.mintSession("")).status());
  }

  @Test
  @ScanctlExtension.NoRestore
  void checkpointAndRestoreByName(Scanctl scanctl) {
    scanctl.checkpoint("before");
    scanctl.mintSession("member_3");
    assertEquals("checkpoint_restore", scanctl.restore("before").get("object"));
  }

  @Test
  void theRateLimitIsOffAsInEveryTestRun(Scanctl scanctl) {
    for (int n = 0; n < 120; n++) scanctl.mintSession("member_" + n); // serve's default is 100 a second per key
  }

  @Test
  void jsonReadsAndWritesTheEmulatorsBodies() {
    Object parsed = Json.parse("{\"a\":[1,2.5,\"x\\n\\u00e9\",true,null],\"b\":{}}");
    assertEquals(1L, Json.at(parsed, "a", 0));
    assertEquals("x\né", Json.at(parsed, "a", 2));
    assertEquals("{\"a\":[1,2.5,\"x\\né\",true,null],\"b\":{}}", Json.write(parsed));
  }

  @Test
  void notFoundNamesAllFourWays(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Child.Ran ran = Child.run(Map.of("PATH", "/nonexistent"), "start");
    for (String name : List.of("SCANCTL_BASE_URL", "SCANCTL_BIN", "PATH", "node_modules/.bin/scanctl")) {
      assertTrue(ran.output().contains(name), ran.output());
    }
    ran = Child.run(Map.of("PATH", "/nonexistent", "SCANCTL_BIN", dir.resolve("missing").toString()), "start");
    assertTrue(ran.output().contains("SCANCTL_BIN=") && ran.output().contains("not an executable"), ran.output());
  }

  @Test
  void findsNodeModulesBinAboveTheWorkingFolder(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path bin = dir.resolve("node_modules/.bin/scanctl");
    Files.createDirectories(bin.getParent());
    Files.writeString(bin, "#!/bin/sh\n");
    assertTrue(bin.toFile().setExecutable(true));
    Files.createDirectories(dir.resolve("deep"));
    Child.Ran ran = Child.runIn(dir.resolve("deep"), Map.of("PATH", "/nonexistent"), "find");
    assertEquals(bin.toString(), ran.output().strip());
  }

  @Test
  void usesARunningEmulatorFromScanctlBaseUrlAndNeverStopsIt(Scanctl scanctl) throws Exception {
    Child.Ran ran = Child.run(Map.of("SCANCTL_BASE_URL", scanctl.baseUrl()), "attach");
    assertEquals(0, ran.code(), ran.output());
    assertEquals(List.of(scanctl.baseUrl(), scanctl.appId(), "sk_test_", "-1"), List.of(ran.output().strip().split(" ")));
    assertEquals("clock", scanctl.clock().get("object")); // still running
  }

  @Test
  void aServeThatFailsToStartSaysWhy(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path fake = dir.resolve("scanctl");
    Files.writeString(fake, "#!/bin/sh\necho 'scanctl: cannot start: nope' >&2\nexit 2\n");
    assertTrue(fake.toFile().setExecutable(true));
    Child.Ran ran = Child.run(Map.of("SCANCTL_BIN", fake.toString()), "start");
    assertTrue(ran.output().contains("exited 2 before it was ready") && ran.output().contains("cannot start: nope"), ran.output());
  }
}
