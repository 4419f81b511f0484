package scanctl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The library in a JVM of its own, with its own environment (the JDK cannot change this one's). */
final class Child {
  record Ran(int code, String output) {
  }

  static Ran run(Map<String, String> env, String what) throws IOException, InterruptedException {
    return runIn(Path.of("").toAbsolutePath(), env, what);
  }

  static Ran runIn(Path dir, Map<String, String> env, String what) throws IOException, InterruptedException {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Where these classes and the library's came from (a launcher's class path is not java.class.path).
    String classPath = location(Child.class) + java.io.File.pathSeparator + location(Scanctl.class);
    ProcessBuilder builder = new ProcessBuilder(List.of(javaBin, "-cp", classPath, Child.class.getName(), what))
        .directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("SCANCTL_") && !name.equals("SCANCTL_BIN"));
    if (env.containsKey("PATH") && !env.containsKey("SCANCTL_BIN")) builder.environment().remove("SCANCTL_BIN");
    builder.environment().putAll(env);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Ran(process.waitFor(), output);
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public static void main(String[] args) {
    try {
      switch (args[0]) {
        case "find" -> System.out.println(Scanctl.find());
        case "start" -> Scanctl.start().close();
        case "killed" -> { // a test run killed with -9: no close, no shutdown hook
          System.out.println(Scanctl.start().pid());
          System.out.flush();
          new ProcessBuilder("kill", "-KILL", String.valueOf(ProcessHandle.current().pid())).start().waitFor();
        }
        case "attach" -> {
          try (Scanctl scanctl = Scanctl.start()) {
            scanctl.mintSession("member_9");
            System.out.println(String.join(" ", scanctl.baseUrl(), scanctl.appId(), scanctl.secretKey().substring(0, 8), String.valueOf(scanctl.pid())));
          }
        }
        default -> throw new IllegalArgumentException(args[0]);
      }
    } catch (ScanctlException e) {
      System.out.println(e.getMessage());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
