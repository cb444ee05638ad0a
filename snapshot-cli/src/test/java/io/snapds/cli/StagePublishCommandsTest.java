package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.snapds.cli.output.Json;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write, audit, publish on the command line: {@code load --stage}, {@code publish} (one dataset or
 * several together), {@code discard}, {@code rollback --group}, run as commands against the mini
 * cluster; each step checked in the stored state and in what {@code scan} of the current snapshot
 * returns.
 */
@ExtendWith(MiniClusterExtension.class)
class StagePublishCommandsTest {
  private static final Pattern STAGED = Pattern.compile("staged snapshot (\\d+):");

  @TempDir
  Path dir;

  private Path csv(String name, String value) throws Exception {
    Path f = dir.resolve(name + ".csv");
    Files.writeString(f, "k,v\na," + value + "\nb," + value + "\n");
    return f;
  }

  private static Cli.Result ok(String... args) {
    Cli.Result r = Cli.run(args);
    assertEquals(0, r.exitCode(), r.toString());
    return r;
  }

  private SnapshotId publish(DatasetId id, String value) throws Exception {
    ok("load", id.toString(), csv(id.name() + "-" + value, value).toString(), "-k", "k");
    return current(id);
  }

  private SnapshotId stage(DatasetId id, String value) throws Exception {
    Cli.Result r = ok("load", id.toString(), csv(id.name() + "-" + value, value).toString(), "-k", "k", "--stage");
    Matcher m = STAGED.matcher(r.out());
    assertTrue(m.find(), r.toString());
    SnapshotId staged = SnapshotId.parse(m.group(1));
    assertTrue(r.out().contains("snapds publish " + id + "@" + staged), r.toString());
    assertTrue(r.out().contains("snapds discard " + id + "@" + staged), r.toString());
    assertEquals(SnapshotState.STAGED, info(id, staged).state());
    return staged;
  }

  private static SnapshotId current(DatasetId id) {
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      return ds.currentSnapshot().orElseThrow().id();
    }
  }

  private static SnapshotInfo info(DatasetId id, SnapshotId s) {
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      return ds.snapshot(s);
    }
  }

  private static List<String> reasons(DatasetId id) {
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      return ds.history().stream().map(h -> h.snapshot() + " " + h.reason()).toList();
    }
  }

  /** The rows {@code scan} of the current snapshot prints. */
  private static List<String> scanCurrent(DatasetId id) {
    return ok("scan", id.toString()).outLines();
  }

  private static DatasetId created(String name) {
    DatasetId id = MiniCluster.uniqueDataset(name);
    ok("create", id.toString(), "--retain-last", "5");
    return id;
  }

  @Test
  void stagedLoadIsInvisibleAsCurrentUntilPublishedAndAPublishRetriedPublishesOnce() throws Exception {
    DatasetId id = created("wap");
    SnapshotId v1 = publish(id, "old");
    SnapshotId staged = stage(id, "new");

    assertEquals(List.of("KEY  d:v", "a    old", "b    old"), scanCurrent(id), "a stage is not current");
    assertEquals(v1, current(id));
    assertEquals(List.of("KEY  d:v", "a    new", "b    new"),
        ok("scan", id.toString(), "--snapshot", staged.toString()).outLines(), "a stage is readable by id");

    Cli.Result status = Cli.run("status", id.toString());
    assertEquals(0, status.exitCode(), "a fresh stage needs no attention: " + status);
    assertTrue(status.outLines().stream().anyMatch(l -> l.trim().startsWith(staged + " ")
        && l.contains(" 2 ") && l.endsWith("snapds publish " + id + "@" + staged)), status.toString());
    assertTrue(status.out().contains("WAITING FOR AUDIT"), status.toString());
    JsonNode json = Json.MAPPER.readTree(ok("status", id.toString(), "--json").out());
    assertEquals(staged.value(), json.get("staged").get(0).get("id").asLong());
    assertEquals("STAGED", json.get("staged").get(0).get("state").asText());

    Cli.Result show = ok("show", id.toString(), staged.toString());
    assertTrue(show.out().contains("state        STAGED"), show.out());
    assertTrue(show.out().matches("(?s).*staged at    [-0-9]+ [:0-9]+Z \\(waiting for audit\\).*"), show.out());
    assertTrue(show.out().contains("committed at -"), show.out());
    assertTrue(ok("history", id.toString()).outLines().get(1).startsWith("   " + staged + "  STAGED"));

    Cli.Result published = ok("publish", id + "@" + staged);
    assertEquals("dataset " + id + ": current snapshot is now " + staged + ", 2 rows (was " + v1 + ")\n",
        published.out());
    assertEquals(staged, current(id));
    assertEquals(List.of("KEY  d:v", "a    new", "b    new"), scanCurrent(id));
    assertEquals(staged + " publish staged", reasons(id).get(reasons(id).size() - 1));
    assertFalse(ok("status", id.toString()).out().contains("WAITING FOR AUDIT"));
    JsonNode shown = Json.MAPPER.readTree(ok("show", id.toString(), "--json").out());
    assertTrue(shown.get("current").asBoolean());
    assertTrue(shown.has("stagedAt"), shown.toString());

    Cli.Result again = ok("publish", id + "@" + staged);
    assertEquals("dataset " + id + ": snapshot " + staged + " was published already; nothing changed\n", again.out());
    assertEquals(2, reasons(id).size(), "the retried publish changed nothing: " + reasons(id));
  }

  @Test
  void aStagedRunIdIsStagedOnceAndTheSecondLoadSaysWhichSnapshotWaits() throws Exception {
    DatasetId id = created("wap_run");
    Path f = csv("run", "x");
    Cli.Result first = ok("load", id.toString(), f.toString(), "-k", "k", "--stage", "--run-id", "r-1");
    Matcher m = STAGED.matcher(first.out());
    assertTrue(m.find(), first.toString());
    Cli.Result second = ok("load", id.toString(), f.toString(), "-k", "k", "--stage", "--run-id", "r-1");
    assertTrue(second.out().startsWith("dataset " + id + ": run r-1 was staged already as snapshot " + m.group(1)
        + "; nothing loaded"), second.toString());
    assertTrue(second.out().contains("snapds publish " + id + "@" + m.group(1)), second.toString());
    assertEquals(id + "@" + m.group(1) + "\n",
        ok("load", id.toString(), f.toString(), "-k", "k", "--stage", "--run-id", "r-1", "-q").out());
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      assertEquals(1, ds.stagedSnapshots().size());
      assertTrue(ds.currentSnapshot().isEmpty());
    }
  }

  @Test
  void aDiscardedStageIsNeverCurrentAndCannotBePublished() throws Exception {
    DatasetId id = created("wap_discard");
    SnapshotId v1 = publish(id, "good");
    SnapshotId bad = stage(id, "bad");

    Cli.Result discarded = ok("discard", id + "@" + bad);
    assertTrue(discarded.out().startsWith("dataset " + id + ": discarded staged snapshot " + bad), discarded.out());
    assertTrue(info(id, bad).discarded());
    assertEquals(SnapshotState.EXPIRED, info(id, bad).state());
    assertTrue(ok("history", id.toString()).outLines().get(1).startsWith("   " + bad + "  DISCARDED"));
    assertTrue(ok("show", id.toString(), bad.toString()).out().contains("(discarded)"));
    assertEquals("dataset " + id + ": staged snapshot " + bad + " was discarded already; nothing changed\n",
        ok("discard", id + "@" + bad).out());

    Cli.Result publish = Cli.run("publish", id + "@" + bad);
    assertEquals(ExitCodes.FAILED, publish.exitCode(), "it exists; its state refuses: " + publish);
    assertTrue(publish.err().contains("was discarded"), publish.err());
    assertEquals(v1, current(id));
    assertEquals(List.of("KEY  d:v", "a    good", "b    good"), scanCurrent(id));
    assertEquals(1, reasons(id).size(), reasons(id).toString());
  }

  @Test
  void aStageWhoseBaseMovedIsRefusedWithWhatToDoAndReplaceStillPublishesIt() throws Exception {
    DatasetId id = created("wap_moved");
    SnapshotId v1 = publish(id, "one");
    SnapshotId staged = stage(id, "staged");
    SnapshotId v2 = publish(id, "two");

    Cli.Result refused = Cli.run("publish", id + "@" + staged);
    assertEquals(ExitCodes.FAILED, refused.exitCode(), refused.toString());
    assertEquals("snapds: cannot publish staged snapshot " + id + "@" + staged + ": it was staged on snapshot " + v1
        + ", but the current snapshot is now " + v2 + "; nothing was published. Audit it against the current one,"
        + " then publish it anyway with 'snapds publish " + id + "@" + staged + " --replace', or load it again,"
        + " or drop it with 'snapds discard " + id + "@" + staged + "'\n", refused.err());
    assertEquals(v2, current(id));
    assertEquals(SnapshotState.STAGED, info(id, staged).state());

    Cli.Result replaced = ok("publish", id + "@" + staged, "--replace");
    assertEquals("dataset " + id + ": current snapshot is now " + staged + ", 2 rows (was " + v2 + ")\n",
        replaced.out());
    assertEquals(staged, current(id));
    assertEquals(List.of("KEY  d:v", "a    staged", "b    staged"), scanCurrent(id));
  }

  @Test
  void twoDatasetsPublishedTogetherAndRolledBackTogether() throws Exception {
    DatasetId orders = created("orders");
    DatasetId lines = created("order_lines");
    SnapshotId orders1 = publish(orders, "o1");
    SnapshotId lines1 = publish(lines, "l1");
    SnapshotId orders2 = stage(orders, "o2");
    // the script form: -q prints DATASET@ID alone, which publish takes as it is
    String linesRef = ok("load", lines.toString(), csv("lines-l2", "l2").toString(), "-k", "k", "--stage", "-q")
        .out().trim();
    assertTrue(linesRef.matches(Pattern.quote(lines.toString()) + "@\\d+"), linesRef);
    SnapshotId lines2 = SnapshotId.parse(linesRef.substring(linesRef.indexOf('@') + 1));
    assertEquals(SnapshotState.STAGED, info(lines, lines2).state());
    assertEquals(List.of("KEY  d:v", "a    o1", "b    o1"), scanCurrent(orders));
    assertEquals(List.of("KEY  d:v", "a    l1", "b    l1"), scanCurrent(lines));

    Cli.Result together = ok("publish", orders + "@" + orders2, linesRef, "--group", "nightly-7");
    assertEquals(List.of("publish group nightly-7: 2 datasets current together",
        "dataset " + orders + ": current snapshot is now " + orders2 + ", 2 rows (was " + orders1 + ")",
        "dataset " + lines + ": current snapshot is now " + lines2 + ", 2 rows (was " + lines1 + ")"),
        together.outLines());
    assertEquals(orders2, current(orders));
    assertEquals(lines2, current(lines));
    assertEquals(List.of("KEY  d:v", "a    o2", "b    o2"), scanCurrent(orders));
    assertEquals(List.of("KEY  d:v", "a    l2", "b    l2"), scanCurrent(lines));
    assertEquals("nightly-7", info(orders, orders2).group().orElseThrow());
    assertEquals("nightly-7", info(lines, lines2).group().orElseThrow());
    assertEquals(lines2 + " publish group nightly-7", reasons(lines).get(reasons(lines).size() - 1));
    assertTrue(ok("show", orders.toString()).out().contains("group        nightly-7"));
    // retried (without --group): it is the same group, published once; nothing changes
    Cli.Result retried = ok("publish", orders + "@" + orders2, linesRef);
    assertEquals(List.of("publish group nightly-7: 2 datasets current together",
        "dataset " + orders + ": snapshot " + orders2 + " was published already; nothing changed",
        "dataset " + lines + ": snapshot " + lines2 + " was published already; nothing changed"),
        retried.outLines());
    assertEquals(2, reasons(orders).size(), reasons(orders).toString());
    // a rollback names every member of the group
    Cli.Result part = Cli.run("rollback", "--group", "nightly-7", orders.toString());
    assertEquals(ExitCodes.USAGE, part.exitCode(), part.toString());
    assertTrue(part.err().contains("a group rolls back whole"), part.err());
    assertEquals(orders2, current(orders));

    Cli.Result back = ok("rollback", "--group", "nightly-7", orders.toString(), lines.toString());
    assertEquals(List.of("publish group nightly-7 rolled back in 2 datasets together",
        "dataset " + orders + ": current snapshot is now " + orders1 + " (was " + orders2 + ")",
        "dataset " + lines + ": current snapshot is now " + lines1 + " (was " + lines2 + ")"), back.outLines());
    assertEquals(List.of("KEY  d:v", "a    o1", "b    o1"), scanCurrent(orders));
    assertEquals(List.of("KEY  d:v", "a    l1", "b    l1"), scanCurrent(lines));
    assertEquals(orders1 + " rollback group nightly-7", reasons(orders).get(reasons(orders).size() - 1));

    // a group that is not current any more in one member: nothing moves
    Cli.Result again = Cli.run("rollback", "--group", "nightly-7", orders.toString(), lines.toString());
    assertEquals(ExitCodes.USAGE, again.exitCode(), again.toString());
    assertTrue(again.err().contains("nothing was rolled back"), again.err());
    assertEquals(orders1, current(orders));
    assertEquals(lines1, current(lines));
  }

  @Test
  void aGroupWithOneRefusedMemberPublishesNone() throws Exception {
    DatasetId orders = created("orders_refused");
    DatasetId lines = created("lines_refused");
    publish(orders, "o1");
    publish(lines, "l1");
    SnapshotId orders2 = stage(orders, "o2");
    SnapshotId lines2 = stage(lines, "l2");
    SnapshotId lines3 = publish(lines, "l3"); // lines2's base moved

    Cli.Result refused = Cli.run("publish", orders + "@" + orders2, lines + "@" + lines2);
    assertEquals(ExitCodes.FAILED, refused.exitCode(), refused.toString());
    assertTrue(refused.err().startsWith("snapds: cannot publish staged snapshot " + lines + "@" + lines2),
        refused.err());
    assertTrue(refused.err().contains("'snapds publish " + orders + "@" + orders2 + " " + lines + "@" + lines2
        + " --replace'"), refused.err());
    assertEquals(List.of("KEY  d:v", "a    o1", "b    o1"), scanCurrent(orders), "orders did not go alone");
    assertEquals(lines3, current(lines));
    assertEquals(SnapshotState.STAGED, info(orders, orders2).state());
    assertEquals(SnapshotState.STAGED, info(lines, lines2).state());
  }

  @Test
  void badArgumentsNameTheBadValueAndChangeNothing() throws Exception {
    DatasetId id = created("wap_bad");
    SnapshotId v1 = publish(id, "one");
    SnapshotId staged = stage(id, "two");
    String[][] usage = {
        {"publish", id.toString()},
        {"publish", id + "@"},
        {"publish", id + "@abc"},
        {"publish", id + "@0"},
        {"publish", "@" + staged},
        {"publish", "bad name!@" + staged},
        {"publish", id + "@" + staged, id + "@" + staged},
        {"discard", id + "#" + staged},
        {"rollback", "--group", "g", id.toString(), staged.toString()},
        {"rollback", id.toString()},
    };
    String[] named = {"'" + id + "'", "'" + id + "@'", "'abc'", "> 0, got 0", "'@" + staged + "'", "'bad name!'",
        "dataset " + id + " is given twice", "'" + id + "#" + staged + "'", "snapshot id '" + staged + "'",
        "missing the snapshot ID"};
    for (int i = 0; i < usage.length; i++) {
      Cli.Result r = Cli.run(usage[i]);
      assertEquals(ExitCodes.USAGE, r.exitCode(), r.toString());
      assertEquals(1, r.err().split("\n").length, r.toString());
      assertTrue(r.err().contains(named[i]), "expected " + named[i] + " in " + r);
    }
    Cli.Result badGroup = Cli.run("publish", id + "@" + staged, "--group", "no spaces");
    assertEquals(ExitCodes.USAGE, badGroup.exitCode(), badGroup.toString());
    assertTrue(badGroup.err().contains("invalid publish group id 'no spaces'"), badGroup.toString());

    Cli.Result missing = Cli.run("publish", id + "@999999");
    assertEquals(ExitCodes.NOT_FOUND, missing.exitCode(), missing.toString());
    assertTrue(missing.err().contains("999999"), missing.err());
    Cli.Result notStaged = Cli.run("discard", id + "@" + v1);
    assertEquals(ExitCodes.FAILED, notStaged.exitCode(), "it exists; its state refuses: " + notStaged);
    assertTrue(notStaged.err().contains("only a STAGED snapshot can be discarded"), notStaged.err());

    assertEquals(v1, current(id));
    assertEquals(SnapshotState.STAGED, info(id, staged).state());
    assertEquals(1, reasons(id).size(), reasons(id).toString());
    assertEquals(List.of("KEY  d:v", "a    one", "b    one"), scanCurrent(id));
  }

  @Test
  void createTakesTheStagedMaxAge() {
    DatasetId id = MiniCluster.uniqueDataset("wap_age");
    Cli.Result r = ok("create", id.toString(), "--staged-max-age", "2h");
    assertTrue(r.out().contains("stages discarded after PT2H"), r.out());
    try (SnapshotDataset ds = MiniCluster.get().datasets().open(id)) {
      assertEquals(Duration.ofHours(2), ds.properties().stagedMaxAge());
    }
  }
}
