package io.snapds.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.snapds.cli.env.Environment;
import io.snapds.cli.server.MetricsEndpoint;
import io.snapds.cli.output.Json;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.EventSink;
import io.snapds.dataset.EventSinkProvider;
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

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "With --watch: serve the datasets' metrics in Prometheus text format at "
          + "http://127.0.0.1:PORT/metrics (loopback only; 0 picks a free port). The address is printed to "
          + "stderr. Default: not served.")
  Integer metricsPort;

  @Option(names = "--stale", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
      description = "How long readers may hold a snapshot before that needs attention (default: 1h).")
  Duration stale = Duration.ofHours(1);

  @Option(names = "--json", description = "One JSON object per dataset and pass, one per line.")
  boolean json;

  /** The sink the command line always has; others come from {@link EventSinkProvider}s on the class path. */
  static final String LOG_SINK = "log";

  @Option(names = "--relay", paramLabel = "SINK",
      description = "Also relay undelivered outbox events to SINK, at least once and in order, recording its "
          + "delivered position under the name SINK: 'log' (one JSON line per event to the logger "
          + "io.snapds.events), or a sink whose jar is on the class path, e.g. 'kafka' with snapshot-events "
          + "(see docs/events.md). Repeatable.")
  List<String> relays;

  @Option(names = "--relay-config", paramLabel = "SINK.KEY=VALUE",
      description = "A setting of sink SINK, e.g. kafka.topic=snapds.events, kafka.bootstrap.servers=host:9092. "
          + "Repeatable.")
  Map<String, String> relayConfig;

  @Override
  int run(Environment env) throws InterruptedException {
    String owner = "snapds-reconcile/" + ManagementFactory.getRuntimeMXBean().getName();
    if (metricsPort != null && watch == null) {
      throw new UserException(ExitCodes.USAGE, "--metrics-port needs --watch: a single pass has nothing to serve");
    }
    MetricsEndpoint metrics = metricsPort == null ? null : MetricsEndpoint.start(metricsPort);
    if (metrics != null) {
      err().println("snapds: metrics at " + metrics.url());
      err().flush();
    }
    Map<String, EventSink> sinks;
    try {
      sinks = sinks(relays == null ? List.of() : relays,
          relayConfig == null ? Map.of() : relayConfig, EventSinkProvider.available(getClass().getClassLoader()));
    } catch (RuntimeException e) {
      if (metrics != null) {
        metrics.close();
      }
      throw e;
    }
    try {
      while (true) {
        boolean left = pass(env, owner, sinks);
        if (watch == null) {
          return left ? ExitCodes.ATTENTION : ExitCodes.OK;
        }
        Thread.sleep(watch.toMillis());
      }
    } finally {
      sinks.values().forEach(EventSink::close);
      if (metrics != null) {
        metrics.close();
      }
    }
  }

  private boolean pass(Environment env, String owner, Map<String, EventSink> sinks) {
    List<DatasetId> ids = datasets == null || datasets.isEmpty() ? env.datasets().list() : datasets;
    boolean left = false;
    for (DatasetId id : ids) {
      ReconcileResult r;
      try (SnapshotDataset ds = env.datasets().open(id)) {
        r = Reconciler.runOnce(ds, owner, stale, sinks);
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

  /**
   * One sink per name of {@code names}: {@value #LOG_SINK}, or a provider's, opened with the settings
   * of {@code config} under {@code NAME.} (prefix taken off).
   *
   * @throws IllegalArgumentException naming a sink no provider on the class path has, or a setting
   *     that names no chosen sink
   */
  static Map<String, EventSink> sinks(List<String> names, Map<String, String> config,
      Map<String, EventSinkProvider> providers) {
    for (String key : config.keySet()) {
      int dot = key.indexOf('.');
      if (dot <= 0 || !names.contains(key.substring(0, dot))) {
        throw new IllegalArgumentException("--relay-config " + key + ": settings are SINK.KEY=VALUE for a sink "
            + "chosen with --relay " + names);
      }
    }
    Map<String, EventSink> sinks = new TreeMap<>();
    try {
      for (String name : names) {
        if (sinks.containsKey(name)) {
          continue;
        }
        if (name.equals(LOG_SINK)) {
          sinks.put(name, LogEventSink.toLog());
          continue;
        }
        EventSinkProvider provider = providers.get(name);
        if (provider == null) {
          throw new IllegalArgumentException("no event sink '" + name + "' on the class path (known: "
              + java.util.stream.Stream.concat(java.util.stream.Stream.of(LOG_SINK), providers.keySet().stream())
                  .toList() + "); for 'kafka' put the snapshot-events jar on the class path");
        }
        Map<String, String> settings = new TreeMap<>();
        config.forEach((k, v) -> {
          if (k.startsWith(name + ".")) {
            settings.put(k.substring(name.length() + 1), v);
          }
        });
        sinks.put(name, provider.open(settings));
      }
    } catch (RuntimeException e) {
      sinks.values().forEach(EventSink::close);
      throw e;
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
    r.repairs().forEach(l -> out().println("  repaired: " + l));
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
    ArrayNode repairs = node.putArray("repairs");
    r.repairs().forEach(repairs::add);
    ArrayNode remaining = node.putArray("remaining");
    r.remaining().forEach(remaining::add);
    return node;
  }
}
