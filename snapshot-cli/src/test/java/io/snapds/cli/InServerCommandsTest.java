package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which command lines the home server runs itself, decided from picocli's parse and in the
 * client's working directory (issue #42): a command that runs until stopped is left to the
 * client's own JVM however its options are spelled, an {@code @argfile} is read in the client's
 * directory (by the client's JVM), and a relative {@code --home} names the client's directory.
 * No environment is given: a command the server would run with one fails instead of being left.
 */
class InServerCommandsTest {
  @TempDir
  Path clientDir;

  private OptionalInt inServer(Path home, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    return InServerCommands.run(List.of(args), clientDir, home, null, new PrintWriter(out, true),
        new PrintWriter(err, true));
  }

  @Test
  void reconcileWatchIsLeftToTheClientInEverySpelling() {
    Path home = clientDir.resolve("home");
    for (List<String> args : List.of(List.of("reconcile", "--watch", "1m"), List.of("reconcile", "--watch=1m"),
        List.of("reconcile", "--json", "--watch=30s", "shop:a"), List.of("reconcile", "shop:a", "--watch", "PT1M"))) {
      assertEquals(OptionalInt.empty(), inServer(home, args.toArray(String[]::new)), "run in the server: " + args);
    }
  }

  @Test
  void theStatusPageIsLeftToTheClient() {
    // 'snapds ui' serves until stopped: run in the server, it would outlive its client
    Path home = clientDir.resolve("home");
    for (List<String> args : List.of(List.of("ui"), List.of("ui", "--port", "8080"), List.of("ui", "--port=0"))) {
      assertEquals(OptionalInt.empty(), inServer(home, args.toArray(String[]::new)), "run in the server: " + args);
    }
  }

  @Test
  void anArgFileIsLeftToTheClientWhoseDirectoryItIsIn() throws Exception {
    Files.writeString(clientDir.resolve("cmd.args"), "reconcile\n--watch=1m\n");
    assertEquals(OptionalInt.empty(), inServer(clientDir.resolve("home"), "@cmd.args"));
  }

  @Test
  void aRelativeHomeNamesTheClientsDirectory() {
    OptionalInt code = inServer(clientDir.resolve("home"), "--home", "home", "--version");
    assertTrue(code.isPresent(), "--home home from " + clientDir + " is the server's home: run there");
    assertEquals(0, code.getAsInt());
  }
}
