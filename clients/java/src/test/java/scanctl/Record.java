package scanctl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** With SCANCTL_TEST_RECORD set, each test class writes its emulator's pid and URL there (the npm suite checks that none is left). */
final class Record {
  private Record() {
  }

  static void emulator(String name, Scanctl scanctl) throws IOException {
    String folder = System.getenv("SCANCTL_TEST_RECORD");
    if (folder == null) return;
    Files.writeString(Path.of(folder, name + ".json"), Json.write(Map.of("worker", name, "pid", scanctl.pid(), "base_url", scanctl.baseUrl())));
  }
}
