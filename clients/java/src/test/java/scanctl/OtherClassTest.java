package scanctl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Another class: an emulator of its own (its own port and state), whether the classes run one by one or in parallel. */
@ExtendWith(ScanctlExtension.class)
class OtherClassTest {
  @BeforeAll
  static void record(Scanctl scanctl) throws Exception {
    Record.emulator("OtherClassTest", scanctl);
  }

  @Test
  void hasAnEmulatorOfItsOwn(Scanctl scanctl) {
    Scanctl.ScanRun run = scanctl.simulateScan("member_other"); // no webhook URL: recorded, nothing to deliver
    assertTrue(run.ok());
    List<Object> scans = Json.array(scanctl.json("GET", "/_scanctl/apps/" + scanctl.appId() + "/scans", null).get("data"));
    assertEquals(1, scans.size());
    assertEquals(run.scanId(), Json.at(scans, 0, "id"));
    assertEquals(List.of(), scanctl.deliveries(Map.of()));
  }

  @Test
  void isRestoredAfterEachTest(Scanctl scanctl) {
    hasAnEmulatorOfItsOwn(scanctl); // whichever runs first, the other finds one scan: its own
  }
}
