package io.snapds.cli.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.snapds.cli.env.Environment;
import io.snapds.cli.output.DatasetReport;
import io.snapds.cli.output.Json;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetNotFoundException;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasetException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status page: a read-only web page on {@code http://127.0.0.1:PORT/} (loopback only, the
 * JDK's HTTP server, one dispatcher thread) over an {@link Environment}: the datasets, and per
 * dataset what {@code snapds status} says (ATTENTION list included, from {@link DatasetReport})
 * and a timeline of its publishes and rollbacks, drawn by uPlot (served from its WebJar on the
 * class path: no network needed). The home server serves one ({@code snapds server status}
 * prints its address), and so does {@code snapds ui}.
 *
 * <p>Every request needs the token: {@code /?token=T} checks it, sets it as an HttpOnly,
 * SameSite=Strict cookie and redirects to the address without it; a request without the cookie
 * gets 401 and one with a wrong token 403, with no data. The home server's page has the token
 * of its command service (in {@code server.properties}, readable by its owner only).
 *
 * <p>Cost per request: {@code /api/datasets} reads the status of every dataset (what {@code
 * snapds status} reads); {@code /api/datasets/NS/NAME} reads one status, the history and the
 * snapshot records the history horizon keeps ({@link DatasetReport#timeline}).
 */
public final class StatusPage implements AutoCloseable {
  /** The cookie that carries the token. */
  public static final String COOKIE = "snapds_token";
  private static final Logger LOG = LoggerFactory.getLogger(StatusPage.class);
  private static final String PAGE = "io/snapds/cli/ui/";
  private static final String UPLOT_VERSION = webJarVersion("uplot");
  private static final String UPLOT = "META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
  /** Path on the page to resource on the class path, with its content type. */
  private static final Map<String, String[]> STATIC = Map.of(
      "/", new String[] {PAGE + "index.html", "text/html; charset=utf-8"},
      "/app.js", new String[] {PAGE + "app.js", "text/javascript; charset=utf-8"},
      "/style.css", new String[] {PAGE + "style.css", "text/css; charset=utf-8"},
      "/lib/uPlot.iife.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
      "/lib/uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css; charset=utf-8"});
  private static final String API = "/api/datasets";

  private final HttpServer server;
  private final String token;
  private final Environment env;
  private final Duration stale;
  private final int timeline;

  private StatusPage(HttpServer server, String token, Environment env, Duration stale, int timeline) {
    this.server = server;
    this.token = token;
    this.env = env;
    this.stale = stale;
    this.timeline = timeline;
  }

  /** A fresh token: 16 random bytes in hex, as the home server's command service makes its own. */
  public static String newToken() {
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    return HexFormat.of().formatHex(secret);
  }

  /**
   * Starts serving {@code env}'s datasets on 127.0.0.1:{@code port} (0: a free port).
   *
   * @param stale as {@code snapds status --stale}
   * @param timeline how many changes of the current pointer a dataset's timeline shows
   * @throws IllegalArgumentException if the port is not 0-65535, the token is shorter than 16
   *     characters or {@code timeline} is not positive
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static StatusPage start(int port, Environment env, String token, Duration stale, int timeline) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("page port must be 0 (any free port) to 65535, not " + port);
    }
    if (token == null || token.length() < 16) {
      throw new IllegalArgumentException("the page's token must have at least 16 characters");
    }
    if (timeline < 1) {
      throw new IllegalArgumentException("the timeline's length must be at least 1, not " + timeline);
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress("localhost",
          new byte[] {127, 0, 0, 1}), port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the status page on 127.0.0.1:" + port + ": " + e.getMessage(), e);
    }
    StatusPage page = new StatusPage(server, token, env, stale, timeline);
    server.createContext("/", page::handle);
    server.setExecutor(null); // the dispatcher thread: one request at a time
    server.start();
    return page;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The address to open: it carries the token (the page then keeps it in a cookie). */
  public String url() {
    return url(port(), token);
  }

  /** The address of a page on {@code port} with {@code token}. */
  public static String url(int port, String token) {
    return "http://127.0.0.1:" + port + "/?token=" + token;
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      boolean head = "HEAD".equals(ex.getRequestMethod());
      if (!"GET".equals(ex.getRequestMethod()) && !head) {
        send(ex, 405, "text/plain; charset=utf-8", "only GET and HEAD\n", head);
        return;
      }
      URI uri = ex.getRequestURI();
      String path = uri.getRawPath();
      List<String> rest = new ArrayList<>();
      String given = null;
      if (uri.getRawQuery() != null) {
        for (String pair : uri.getRawQuery().split("&")) {
          if (pair.startsWith("token=")) {
            given = URLDecoder.decode(pair.substring("token=".length()), StandardCharsets.UTF_8);
          } else if (!pair.isEmpty()) {
            rest.add(pair);
          }
        }
      }
      if (given != null) {
        if (!isToken(given)) {
          send(ex, 403, "text/plain; charset=utf-8", "wrong token\n", head);
          return;
        }
        ex.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
        ex.getResponseHeaders().set("Location", path + (rest.isEmpty() ? "" : "?" + String.join("&", rest)));
        headers(ex, "text/plain; charset=utf-8");
        ex.sendResponseHeaders(303, -1);
        return;
      }
      if (!hasTokenCookie(ex)) {
        send(ex, 401, "text/plain; charset=utf-8", "the snapds status page needs its token: open the address with "
            + "?token= that 'snapds server status' or 'snapds ui' printed\n", head);
        return;
      }
      String[] file = STATIC.get(path.equals("/index.html") ? "/" : path);
      if (file != null) {
        try (InputStream in = StatusPage.class.getClassLoader().getResourceAsStream(file[0])) {
          if (in == null) {
            send(ex, 500, "text/plain; charset=utf-8", "missing from the class path: " + file[0] + "\n", head);
            return;
          }
          send(ex, 200, file[1], in.readAllBytes(), head);
        }
        return;
      }
      if (path.equals(API)) {
        send(ex, 200, "application/json", datasets(), head);
      } else if (path.startsWith(API + "/")) {
        dataset(ex, path.substring(API.length() + 1), head);
      } else {
        send(ex, 404, "text/plain; charset=utf-8", "no such page\n", head);
      }
    } catch (RuntimeException e) {
      LOG.warn("status page request {} failed", ex.getRequestURI().getRawPath(), e);
    }
  }

  private boolean isToken(String given) {
    return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }

  private boolean hasTokenCookie(HttpExchange ex) {
    for (String header : ex.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String cookie : header.split(";")) {
        String c = cookie.trim();
        if (c.startsWith(COOKIE + "=") && isToken(c.substring(COOKIE.length() + 1))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Every dataset with its status, as {@code snapds status --json} prints it. */
  private Object datasets() {
    ObjectNode node = Json.MAPPER.createObjectNode().put("at", Instant.now().toString());
    ArrayNode list = node.putArray("datasets");
    for (DatasetId id : env.datasets().list()) {
      try (SnapshotDataset ds = env.datasets().open(id)) {
        list.add(DatasetReport.toJson(DatasetReport.status(ds, stale)));
      } catch (SnapshotDatasetException e) {
        list.addObject().put("dataset", id.toString()).put("error", e.getMessage());
      }
    }
    return node;
  }

  private void dataset(HttpExchange ex, String rawName, boolean head) throws IOException {
    String[] parts = rawName.split("/", -1);
    DatasetId id;
    try {
      if (parts.length != 2) {
        throw new IllegalArgumentException("a dataset is /api/datasets/NAMESPACE/NAME, not /api/datasets/" + rawName);
      }
      id = DatasetId.of(URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
          URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      send(ex, 400, "application/json", Json.MAPPER.createObjectNode().put("error", e.getMessage()), head);
      return;
    }
    ObjectNode node = Json.MAPPER.createObjectNode();
    try (SnapshotDataset ds = env.datasets().open(id)) {
      node.set("status", DatasetReport.toJson(DatasetReport.status(ds, stale)));
      node.put("timelineLimit", timeline);
      node.set("timeline", DatasetReport.timeline(ds, timeline));
    } catch (DatasetNotFoundException e) {
      send(ex, 404, "application/json", Json.MAPPER.createObjectNode().put("error", e.getMessage()), head);
      return;
    } catch (SnapshotDatasetException e) {
      send(ex, 500, "application/json", Json.MAPPER.createObjectNode().put("error", e.getMessage()), head);
      return;
    }
    send(ex, 200, "application/json", node, head);
  }

  private static void headers(HttpExchange ex, String type) {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    ex.getResponseHeaders().set("X-Frame-Options", "DENY");
    ex.getResponseHeaders().set("Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
  }

  private static void send(HttpExchange ex, int status, String type, Object body, boolean head) throws IOException {
    byte[] bytes = body instanceof byte[] b ? b : body instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
        : Json.MAPPER.writeValueAsBytes(body);
    headers(ex, type);
    ex.sendResponseHeaders(status, head ? -1 : bytes.length == 0 ? -1 : bytes.length);
    if (!head && bytes.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The version of a WebJar on the class path, from its Maven properties. */
  private static String webJarVersion(String artifact) {
    String at = "META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
    try (InputStream in = StatusPage.class.getClassLoader().getResourceAsStream(at)) {
      if (in == null) {
        throw new IllegalStateException("the WebJar " + artifact + " is not on the class path (" + at + ")");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
