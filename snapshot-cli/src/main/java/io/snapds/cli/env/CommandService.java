package io.snapds.cli.env;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands inside the {@link HomeServer}, for the launcher: a command then costs no JVM
 * start and no HBase or Tephra connection, only the command's own work (issue #14's second).
 *
 * <p>The protocol is plain enough for bash's {@code /dev/tcp} (the launcher speaks it with no JVM
 * at all): the client sends NUL-terminated strings: the token (from the owner-only
 * {@code server.properties}: other local users cannot run commands as the owner), the working
 * directory, the home it resolved, the number of arguments, and the arguments. The server answers
 * with frames: {@code A\n} when it takes the command on (after that, a lost connection means the
 * command may have run, and the client must not run it again), {@code O<n>\n} or {@code E<n>\n}
 * followed by n bytes of standard output or error, and last {@code X<code>\n}, the exit code; or
 * {@code R\n}, before any output: "this one did not run, run it in your own JVM"
 * (a command that reads standard input or manages the server, another home, a cluster, or a build
 * newer than the server's).
 */
public final class CommandService implements AutoCloseable {
  /** Runs one command line inside the server. */
  @FunctionalInterface
  public interface Runner {
    /**
     * @return the exit code, or empty if the command must run in the client's own JVM
     */
    java.util.OptionalInt run(List<String> args, Path home, Environment env, PrintWriter out, PrintWriter err);
  }

  private static final Logger LOG = LoggerFactory.getLogger(CommandService.class);
  private static final int MAX_ARGS = 1_000;
  private static final int MAX_STRING = 1 << 20;

  private final Path home;
  private final Environment env;
  private final Runner runner;
  private final ServerSocket socket;
  private final String token;
  private final long build;
  private final ExecutorService workers;
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicReference<Instant> lastUsed = new AtomicReference<>(Instant.EPOCH);
  private final Thread acceptor;

  private CommandService(Path home, Environment env, Runner runner, ServerSocket socket, String token) {
    this.home = home;
    this.env = env;
    this.runner = runner;
    this.socket = socket;
    this.token = token;
    this.build = ServerInfo.currentBuild();
    this.workers = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "snapds-command");
      t.setDaemon(true);
      return t;
    });
    this.acceptor = new Thread(this::accept, "snapds-command-accept");
    acceptor.setDaemon(true);
  }

  /** Listens on a loopback port chosen by the system. */
  static CommandService start(Path home, Environment env, Runner runner) throws IOException {
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    CommandService service = new CommandService(home, env, runner, socket, HexFormat.of().formatHex(secret));
    service.acceptor.start();
    return service;
  }

  int port() {
    return socket.getLocalPort();
  }

  String token() {
    return token;
  }

  /** Commands running now. */
  int running() {
    return running.get();
  }

  /** When the last command ended (or began, while one runs). */
  Instant lastUsed() {
    return running.get() > 0 ? Instant.now() : lastUsed.get();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        workers.execute(() -> serve(client));
      } catch (SocketException e) {
        return; // closed
      } catch (IOException | RuntimeException e) {
        LOG.warn("accepting a command connection failed: {}", e.toString());
      }
    }
  }

  private void serve(Socket client) {
    running.incrementAndGet();
    try (client; OutputStream raw = client.getOutputStream()) {
      InputStream in = new BufferedInputStream(client.getInputStream());
      if (!MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), readString(in).getBytes(StandardCharsets.UTF_8))) {
        LOG.warn("refused a command connection with a wrong token");
        return;
      }
      readString(in); // the client's working directory: commands that read files run in its own JVM
      Path clientHome = Path.of(readString(in)).toAbsolutePath().normalize();
      int n = Integer.parseInt(readString(in));
      if (n < 0 || n > MAX_ARGS) {
        throw new IOException("bad argument count " + n);
      }
      List<String> args = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        args.add(readString(in));
      }
      if (!clientHome.equals(home) || ServerInfo.currentBuild() != build) {
        send(raw, "R\n");
        return;
      }
      send(raw, "A\n"); // from here on the command may run: the client must not run it again itself
      long t0 = System.nanoTime();
      PrintWriter out = new PrintWriter(new FrameWriter(raw, 'O'), true);
      PrintWriter err = new PrintWriter(new FrameWriter(raw, 'E'), true);
      java.util.OptionalInt code = runner.run(args, home, env, out, err);
      out.flush();
      err.flush();
      if (code.isPresent()) { // logged before the client learns the exit code, so the log is never behind it
        LOG.info("command run in the server: exit {} in {} ms ({} arguments)", code.getAsInt(),
            (System.nanoTime() - t0) / 1_000_000, args.size());
      }
      send(raw, code.isPresent() ? "X" + code.getAsInt() + "\n" : "R\n");
    } catch (IOException | RuntimeException e) {
      LOG.warn("a command connection failed: {}", e.toString());
    } finally {
      lastUsed.set(Instant.now());
      running.decrementAndGet();
    }
  }

  private static void send(OutputStream raw, String frame) throws IOException {
    synchronized (raw) {
      raw.write(frame.getBytes(StandardCharsets.US_ASCII));
      raw.flush();
    }
  }

  private static String readString(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != 0) {
      if (b < 0) {
        throw new IOException("the client closed the connection");
      }
      if (buf.size() >= MAX_STRING) {
        throw new IOException("an argument longer than " + MAX_STRING + " bytes");
      }
      buf.write(b);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  /** Stops taking commands and waits (at most {@code timeoutMillis}) for those that run. */
  void stop(long timeoutMillis) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    workers.shutdown();
    try {
      if (!workers.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
        LOG.warn("{} commands still running after {} ms; stopping anyway", running.get(), timeoutMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop(0);
  }

  /** Characters written become frames of their UTF-8 bytes on the shared socket stream. */
  private static final class FrameWriter extends Writer {
    private final OutputStream raw;
    private final char kind;
    private final StringBuilder pending = new StringBuilder();

    FrameWriter(OutputStream raw, char kind) {
      this.raw = raw;
      this.kind = kind;
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
      pending.append(cbuf, off, len);
      if (pending.length() >= 8192) {
        flush();
      }
    }

    @Override
    public void flush() throws IOException {
      if (pending.isEmpty()) {
        return;
      }
      byte[] bytes = pending.toString().getBytes(StandardCharsets.UTF_8);
      pending.setLength(0);
      synchronized (raw) {
        raw.write((kind + Integer.toString(bytes.length) + "\n").getBytes(StandardCharsets.US_ASCII));
        raw.write(bytes);
        raw.flush();
      }
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
