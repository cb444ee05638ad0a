package io.snapds.cli.server;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.snapds.dataset.SnapshotMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The process's dataset metrics ({@link SnapshotMetrics#registry()}) in Prometheus text format,
 * served by the JDK's HTTP server at {@code http://127.0.0.1:PORT/metrics}, on the loopback
 * interface only: nothing on another interface can reach it. One daemon thread; a scrape reads
 * only the registry, never HBase or Tephra. Closing it stops the server and the registry's feed.
 * {@code snapds reconcile --watch --metrics-port} serves one, and so does the home server (on a
 * free port it announces in {@code server.properties}; {@code snapds server status} prints it).
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** The path the metrics are served under. */
  public static final String PATH = "/metrics";
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final InetAddress LOOPBACK;

  static {
    try {
      LOOPBACK = InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
    } catch (java.net.UnknownHostException e) {
      throw new ExceptionInInitializerError(e); // never: an address of four bytes is valid
    }
  }

  private final PrometheusMeterRegistry registry;
  private final HttpServer server;

  private MetricsEndpoint(PrometheusMeterRegistry registry, HttpServer server) {
    this.registry = registry;
    this.server = server;
  }

  /**
   * Starts serving on the loopback address at {@code port} (0: a free port the system picks).
   *
   * @throws IllegalArgumentException if {@code port} is not 0-65535
   * @throws UncheckedIOException if the port cannot be bound (in use)
   */
  public static MetricsEndpoint start(int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("metrics port must be 0 (any free port) to 65535, not " + port);
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(LOOPBACK, port), 8);
    } catch (IOException e) {
      registry.close();
      throw new UncheckedIOException("cannot serve metrics on 127.0.0.1:" + port + ": " + e.getMessage(), e);
    }
    server.createContext(PATH, exchange -> {
      try (exchange) {
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
          exchange.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(200, head ? -1 : body.length);
        if (!head) {
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        }
      }
    });
    server.setExecutor(null); // the server's own dispatcher thread: one scrape at a time
    SnapshotMetrics.use(registry);
    server.start();
    return new MetricsEndpoint(registry, server);
  }

  /** The port it listens on (the one the system picked, for 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The address it is bound to (127.0.0.1). */
  public InetAddress address() {
    return server.getAddress().getAddress();
  }

  /** Where to scrape. */
  public String url() {
    return "http://" + LOOPBACK.getHostAddress() + ":" + port() + PATH;
  }

  @Override
  public void close() {
    server.stop(0);
    SnapshotMetrics.stopUsing(registry);
    registry.close();
  }
}
