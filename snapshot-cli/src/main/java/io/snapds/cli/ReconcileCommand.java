package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.Json;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.LogEventSink;
import io.snapds.dataset.Reconciler;
import io.snapds.dataset.Reconciler.ReconcileResult;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = {"Repair what needs no person: abort snapshots whose writer died, set missing cleanup fences, "
        + "delete what no reader can see, prune the metadata, drop expired waiter and pin rows, and (with "
        + "--relay) relay undelivered outbox events.",
        "Prints what it found, repaired and left (what only a person or time can fix). Safe to run in several "
            + "processes at once (each pass holds the dataset's 'reconciler' lock) and to kill at any point.",
        "Exit code 8 when something is left that needs a person."})
final class ReconcileCommand extends EnvCommand {
  @Parameters(paramLabel = "DATASET", arity = "0..*", description = "namespace:name (default: every dataset)")
  List<DatasetId> datasets;

  @Option(names = "--watch", paramLabel = "INTERVAL", converter = Converters.DurationConverter.class,
      description = "Run a pass every INTERVAL until stopped, instead of once.")
  Duration watch;

  @Option(names = "--stale", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
      description = "How long readers may hold a snapshot before that needs attention (default: 1h).")
  Duration stale = Duration.ofHours(1);

  @Option(names = "--json", description = "One JSON object per dataset and pass, one per line.")
  boolean json;

  /** The sinks the command line can relay to (the Kafka sink lives in snapshot-events, not here). */
  enum RelaySink {
    /** JSON lines to the SLF4J logger io.snapds.events; its delivered position is named 'log'. */
    log
  }

  @Option(names = "--relay", paramLabel = "SINK",
      description = "Also relay undelivered outbox events to SINK, at least once and in order, recording its "
          + "delivered position: 'log' (one JSON line per event to the logger io.snapds.events). Repeatable.")
  List<RelaySink> relays;

  @Override
  int run(Environment env) throws InterruptedException {
    String owner = "snapds-reconcile/" + ManagementFactory.getRuntimeMXBean().getName();
    while (true) {
      boolean left = pass(env, owner);
      if (watch == null) {
        return left ? ExitCodes.ATTENTION : ExitCodes.OK;
      }
      Thread.sleep(watch.toMillis());
    }
  }

  private boolean pass(Environment env, String owner) {
    List<DatasetId> ids = datasets == null || datasets.isEmpty() ? env.datasets().list() : datasets;
    boolean left = false;
    for (DatasetId id : ids) {
      ReconcileResult r;
      try (SnapshotDataset ds = env.datasets().open(id)) {
        r = Reconciler.runOnce(ds, owner, stale, sinks());
      } catch (SnapshotDatasetException e) {
        if (watch == null && datasets != null && !datasets.isEmpty()) {
          throw e;
        }
        err().println("snapds: " + id + ": " + e.getMessage());
        err().flush();
        left = true;
        continue;
      }
      left |= !r.remaining().isEmpty();
      if (json) {
        Json.println(out(), toJson(r));
      } else {
        print(r);
      }
    }
    out().flush();
    return left;
  }

  private Map<String, EventSink> sinks() {
    Map<String, EventSink> sinks = new TreeMap<>();
    for (RelaySink s : relays == null ? List.<RelaySink>of() : relays) {
      sinks.put(s.name(), switch (s) {
        case log -> LogEventSink.toLog();
      });
    }
    return sinks;
  }

  private void print(ReconcileResult r) {
    if (r.skippedFor().isPresent()) {
      out().printf("%s: skipped, %s is reconciling it%n", r.dataset(), r.skippedFor().get());
      return;
    }
    if (r.found().isEmpty() && !r.repaired()) {
      out().printf("%s: nothing to do%n", r.dataset());
      return;
    }
    out().printf("%s:%n", r.dataset());
    r.found().forEach(f -> out().println("  found:    " + f));
    r.cleanup().abortedDeadWriters().forEach(s -> out().println("  repaired: aborted snapshot " + s
        + " of a writer that is gone"));
    if (!r.cleanup().cleaned().isEmpty()) {
      out().printf("  repaired: cleaned %s (%,d rows)%n", r.cleanup().cleaned(), r.cleanup().rowsDeleted());
    }
    r.lifecycle().forEach(l -> out().println("  repaired: " + l));
    r.relayed().stream().filter(x -> x.delivered() > 0).forEach(x -> out().printf(
        "  repaired: relayed %,d events to '%s' (delivered up to sequence %d)%n", x.delivered(), x.relay(),
        x.toPosition()));
    r.remaining().forEach(f -> out().println("  left:     " + f));
  }

  private static ObjectNode toJson(ReconcileResult r) {
    ObjectNode node = Json.MAPPER.createObjectNode().put("dataset", r.dataset().toString());
    r.skippedFor().ifPresentOrElse(h -> node.put("skippedFor", h), () -> node.putNull("skippedFor"));
    ArrayNode found = node.putArray("found");
    r.found().forEach(found::add);
    ArrayNode aborted = node.putArray("aborted");
    ArrayNode cleaned = node.putArray("cleaned");
    if (r.cleanup() != null) {
      r.cleanup().abortedDeadWriters().forEach(s -> aborted.add(s.value()));
      r.cleanup().cleaned().forEach(s -> cleaned.add(s.value()));
      node.put("rowsDeleted", r.cleanup().rowsDeleted());
    }
    ArrayNode relayed = node.putArray("relayed");
    r.relayed().forEach(x -> {
      ObjectNode relay = relayed.addObject().put("relay", x.relay()).put("fromPosition", x.fromPosition())
          .put("toPosition", x.toPosition()).put("delivered", x.delivered()).put("undelivered", x.undelivered());
      x.failure().ifPresentOrElse(f -> relay.put("failure", f), () -> relay.putNull("failure"));
    });
    node.put("eventsRelayed", r.eventsRelayed());
    ArrayNode lifecycle = node.putArray("lifecycle");
    r.lifecycle().forEach(lifecycle::add);
    ArrayNode remaining = node.putArray("remaining");
    r.remaining().forEach(remaining::add);
    return node;
  }
}
