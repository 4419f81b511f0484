package scanctl;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * serve in a temporary folder of its own (its .scanctl/serve.json goes there). The JDK cannot put a
 * child in a process group of its own, so stop ends it with every descendant it has. Its stdin is a
 * pipe only this JVM holds, so serve stops by itself if the JVM dies (--stop-on-stdin-close); a
 * shutdown hook stops it on SIGTERM and Ctrl+C.
 */
final class ServeProcess {
  static final String WHERE =
      "SCANCTL_BASE_URL (a running emulator), SCANCTL_BIN (the scanctl executable), scanctl on PATH, or node_modules/.bin/scanctl";

  final Process process;
  final Map<String, Object> ready;
  private final Path folder;
  private final Path stderr;
  private final Thread hook = new Thread(this::stop, "scanctl-stop");
  private boolean stopped;

  ServeProcess(String command, List<String> args, long timeoutMillis) {
    try {
      String tmp = System.getenv("TMPDIR");
      folder = tmp == null || tmp.isEmpty() ? Files.createTempDirectory("scanctl-") : Files.createTempDirectory(Paths.get(tmp), "scanctl-");
    } catch (IOException e) {
      throw new ScanctlException("cannot make a temporary folder: " + e.getMessage());
    }
    stderr = folder.resolve("stderr.log");
    List<String> argv = new ArrayList<>(List.of(command, "serve", "--port", "0", "--json", "--stop-on-stdin-close"));
    argv.addAll(args);
    String shown = String.join(" ", argv);
    try {
      process = new ProcessBuilder(argv).directory(folder.toFile()).redirectError(stderr.toFile()).start();
    } catch (IOException e) {
      removeFolder();
      throw new ScanctlException("cannot start " + command + ": " + e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(hook);
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> first = new CompletableFuture<>();
    Thread drain = new Thread(() -> { // the ready line, then whatever else serve prints, so its stdout never fills up
      try {
        first.complete(out.readLine());
        while (out.readLine() != null) {
          // drained
        }
      } catch (IOException e) {
        first.complete(null);
      }
    }, "scanctl-stdout");
    drain.setDaemon(true);
    drain.start();
    String line;
    try {
      line = first.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      String message = shown + " printed no ready line within " + timeoutMillis / 1000 + " s: " + stderrText();
      stop();
      throw new ScanctlException(message);
    } catch (Exception e) {
      stop();
      throw new ScanctlException(shown + ": " + e);
    }
    if (line == null) {
      int code = waitFor();
      String message = shown + " exited " + code + " before it was ready: " + stderrText();
      stop();
      throw new ScanctlException(message);
    }
    Object parsed;
    try {
      parsed = Json.parse(line);
    } catch (IllegalArgumentException e) {
      parsed = null;
    }
    if (!(Json.at(parsed, "object") instanceof String object) || !object.equals("serve_ready")) {
      stop();
      throw new ScanctlException(shown + " printed " + line.substring(0, Math.min(200, line.length())) + ", not its JSON ready line");
    }
    ready = Json.object(parsed);
  }

  /** The scanctl executable to start: SCANCTL_BIN, else scanctl on PATH, else node_modules/.bin/scanctl in dir or above it. */
  static String find(Path dir) {
    String named = System.getenv("SCANCTL_BIN");
    if (named != null && !named.isEmpty()) {
      File file = new File(named);
      if (file.isFile() && file.canExecute()) return named;
      throw new ScanctlException.NotFound("SCANCTL_BIN=" + named + " is not an executable file. scanctl is found through " + WHERE + ".");
    }
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (folder.isEmpty()) continue;
      File candidate = new File(folder, "scanctl");
      if (candidate.isFile() && candidate.canExecute()) return candidate.getPath();
    }
    for (Path folder = dir.toAbsolutePath().normalize(); folder != null; folder = folder.getParent()) {
      File candidate = folder.resolve("node_modules").resolve(".bin").resolve("scanctl").toFile();
      if (candidate.isFile() && candidate.canExecute()) return candidate.getPath();
    }
    throw new ScanctlException.NotFound(
        "scanctl not found: set SCANCTL_BASE_URL to a running emulator, or SCANCTL_BIN to the scanctl executable, or put scanctl on PATH,"
            + " or install it into node_modules/.bin/scanctl (npm install scanctl). Tried " + WHERE + ".");
  }

  /** SIGTERM to it and its descendants, SIGKILL after 10 s; the folder removed. Safe to call twice. */
  synchronized void stop() {
    if (stopped) return;
    stopped = true;
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        all.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    all.forEach(ProcessHandle::destroyForcibly); // what it started, once more
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already closed
    }
    removeFolder();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: this is the hook
    }
  }

  private int waitFor() {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private String stderrText() {
    try {
      String text = Files.readString(stderr, StandardCharsets.UTF_8).strip();
      if (text.length() > 2000) text = text.substring(text.length() - 2000);
      return text.isEmpty() ? "(nothing on stderr)" : text;
    } catch (IOException e) {
      return "(nothing on stderr)";
    }
  }

  private void removeFolder() {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // already gone
    }
  }
}
