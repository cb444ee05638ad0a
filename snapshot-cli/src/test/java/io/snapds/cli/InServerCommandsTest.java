package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which command lines the home server runs itself, decided from picocli's parse (issue #42): a
 * command that runs until stopped is left to the client's own JVM however its options are
 * spelled. No environment is given: a command the server would run with one fails instead of
 * being left.
 */
class InServerCommandsTest {
  @TempDir
  Path clientDir;

  private OptionalInt inServer(Path home, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    return InServerCommands.run(List.of(args), home, null, new PrintWriter(out, true),
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
}
