package io.snapds.cli;

import io.snapds.cli.server.MetricsEndpoint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.cli.env.Environment;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code snapds reconcile --watch --metrics-port}: the process's dataset metrics in Prometheus text
 * format on 127.0.0.1 only, served while the command watches and gone once it stops.
 */
@ExtendWith(MiniClusterExtension.class)
class MetricsEndpointTest {
  private final MiniCluster cluster = MiniCluster.get();

  private record Scrape(int status, String contentType, String body) {}

  private static Scrape scrape(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    try {
      int status = c.getResponseCode();
      String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Scrape(status, c.getContentType(), body);
    } finally {
      c.disconnect();
    }
  }

  /** The value of the sample {@code name{labels}} in a Prometheus text body; fails if absent. */
  private static double sample(String body, String name, String labels) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$").matcher(body);
    assertTrue(m.find(), "no sample " + name + "{" + labels + "} in:\n" + body);
    return Double.parseDouble(m.group(1));
  }

  /** This host's addresses on other interfaces than loopback (none on a machine without a network). */
  private static List<InetAddress> otherAddresses() throws IOException {
    List<InetAddress> out = new ArrayList<>();
    for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (n.isUp() && !n.isLoopback()) {
        for (InetAddress a : Collections.list(n.getInetAddresses())) {
          if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
            out.add(a);
          }
        }
      }
    }
    return out;
  }

  private static void assertRefused(InetAddress address, int port) {
    assertThrows(ConnectException.class, () -> {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(address, port), 10_000);
      }
    }, "port " + port + " must not accept connections on " + address);
  }

  /** Reads what else the command prints, so that its pipe never fills. */
  private static void drain(BufferedReader reader) {
    Thread drain = new Thread(() -> {
      try {
        while (reader.readLine() != null) {
          // discard
        }
      } catch (IOException ignored) {
        // the writer went with the command
      }
    });
    drain.setDaemon(true);
    drain.start();
  }

  @Test
  void watchingReconcileServesTheNamedMetricsOnLoopbackOnlyUntilItStops() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("metrics_cli");
    cluster.datasets().create(id, DatasetProperties.defaults()).close();

    CommandLine cmd = SnapdsCommand.commandLine(options -> Environment.injected(cluster.connection(),
        cluster.txClient()));
    PipedReader errIn = new PipedReader(64 * 1024);
    PipedReader outIn = new PipedReader(64 * 1024);
    cmd.setOut(new PrintWriter(new PipedWriter(outIn), true));
    cmd.setErr(new PrintWriter(new PipedWriter(errIn), true));
    AtomicInteger exit = new AtomicInteger(-1);
    // a long interval: once the first pass has printed its line, the command sleeps until interrupted
    Thread watching = new Thread(() -> exit.set(cmd.execute("reconcile", "--watch", "1h", "--metrics-port", "0",
        "--json", id.toString())), "reconcile-watch");
    watching.start();
    int port = -1;
    try {
      BufferedReader err = new BufferedReader(errIn);
      String announced = err.readLine(); // blocks until the command printed where it serves
      Matcher at = Pattern.compile("snapds: metrics at (http://127\\.0\\.0\\.1:(\\d+)/metrics)").matcher(announced);
      assertTrue(at.matches(), announced);
      port = Integer.parseInt(at.group(2));
      BufferedReader out = new BufferedReader(outIn);
      String pass = out.readLine(); // the first pass is over: one JSON line for the one dataset
      assertTrue(pass.contains("\"dataset\":\"" + id + "\""), pass);
      drain(err);
      drain(out);

      // a publish while the endpoint serves: a registry added to the process-wide one counts from then on
      try (SnapshotDataset ds = cluster.datasets().open(id)) {
        SnapshotWriter w = ds.newSnapshot().begin();
        w.put(Bytes.toBytes("k"), "d", "v", Bytes.toBytes("v"));
        w.commit();
      }

      Scrape s = scrape(at.group(1));
      assertEquals(200, s.status());
      assertTrue(s.contentType().startsWith("text/plain; version=0.0.4"), s.contentType());
      String dataset = "dataset=\"" + id + "\"";
      assertEquals(1.0, sample(s.body(), "snapds_publish_seconds_count", dataset), "the one publish");
      sample(s.body(), "snapds_commit_retries_total", dataset);
      sample(s.body(), "snapds_cleanup_backlog_snapshots", dataset + ",waiting_for=\"pin\"");
      sample(s.body(), "snapds_reader_pins", dataset);

      for (InetAddress other : otherAddresses()) {
        assertRefused(other, port);
      }
    } finally {
      watching.interrupt();
      watching.join(120_000);
    }
    assertFalse(watching.isAlive(), "the watch stops when interrupted");
    assertRefused(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
  }

  @Test
  void theEndpointIsBoundToLoopbackAndABadPortIsRefusedNamingIt() {
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(0)) {
      assertTrue(endpoint.address().isLoopbackAddress(), endpoint.address().toString());
      assertEquals("127.0.0.1", endpoint.address().getHostAddress());
      assertTrue(endpoint.port() > 0);
    }
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> MetricsEndpoint.start(70_000));
    assertTrue(bad.getMessage().contains("70000"), bad.getMessage());
  }

  @Test
  void aMetricsPortWithoutWatchIsRefused() {
    Cli.Result r = Cli.run("reconcile", "--metrics-port", "0");
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.toString());
    assertTrue(r.err().contains("--metrics-port needs --watch"), r.toString());
  }
}
