package io.snapds.cli.server;

import io.snapds.cli.env.Environment;
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
 * newer than the server's). The client sends nothing after its command line: when its connection
 * ends (the launcher ended, or a Ctrl-C stopped it) the command's thread is interrupted, so no
 * command outlives its client.
 *
 * <p>Before the token nothing is spent on a connection: it is read by one of a few handshake
 * threads (a bounded queue behind them; past it a connection is closed at once), within
 * {@value #DEFAULT_HANDSHAKE_TIMEOUT_MS} ms in all ({@link #HANDSHAKE_TIMEOUT_MS}) and no longer than the token,
 * and only a connection with the right token counts as a running command (which keeps the server
 * from idling out) and gets a thread of its own.
 */
public final class CommandService implements AutoCloseable {
  /** Runs one command line inside the server. */
  @FunctionalInterface
  public interface Runner {
    /**
     * @param clientDir the client's working directory: relative paths name files there
     * @return the exit code, or empty if the command must run in the client's own JVM
     */
    java.util.OptionalInt run(List<String> args, Path clientDir, Path home, Environment env, PrintWriter out,
        PrintWriter err);
  }

  private static final Logger LOG = LoggerFactory.getLogger(CommandService.class);
  private static final int MAX_ARGS = 1_000;
  private static final int MAX_STRING = 1 << 20;
  /**
   * How long a connection may take to send its token and its command line, in milliseconds (the
   * launcher sends them at once): a connection that sends nothing is closed then.
   */
  static final String HANDSHAKE_TIMEOUT_MS = "snapds.server.handshake.timeout.ms";
  private static final int DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;
  /** Connections whose token is being read at once, and how many more may wait for a thread. */
  private static final int HANDSHAKE_THREADS = 4;
  private static final int HANDSHAKE_QUEUE = 32;
  /** How long a stop waits for the commands it interrupted (HBase's client gives up within seconds). */
  static final long INTERRUPTED_WAIT_MS = 30_000;

  private final Path home;
  private final Environment env;
  private final Runner runner;
  private final ServerSocket socket;
  private final String token;
  private final long build;
  private final ExecutorService workers;
  /** Reads tokens and command lines: bounded, so connections that never send one cost little. */
  private final java.util.concurrent.ThreadPoolExecutor handshakes;
  private final int handshakeTimeoutMs;
  private final AtomicInteger running = new AtomicInteger();
  /** The connections of the commands running now, to interrupt them when a stop has waited long enough. */
  private final java.util.Set<Watch> watches = java.util.concurrent.ConcurrentHashMap.newKeySet();
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
    this.handshakeTimeoutMs = Integer.getInteger(HANDSHAKE_TIMEOUT_MS, DEFAULT_HANDSHAKE_TIMEOUT_MS);
    this.handshakes = new java.util.concurrent.ThreadPoolExecutor(HANDSHAKE_THREADS, HANDSHAKE_THREADS, 30,
        TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(HANDSHAKE_QUEUE), r -> {
          Thread t = new Thread(r, "snapds-command-handshake");
          t.setDaemon(true);
          return t;
        });
    handshakes.allowCoreThreadTimeOut(true);
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
        try {
          handshakes.execute(() -> handshake(client));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          LOG.warn("refused a command connection: {} connections are already waiting to send a token",
              HANDSHAKE_THREADS + HANDSHAKE_QUEUE);
          closeQuietly(client);
        }
      } catch (SocketException e) {
        return; // closed
      } catch (IOException | RuntimeException e) {
        LOG.warn("accepting a command connection failed: {}", e.toString());
      }
    }
  }

  /** A command line a client with the token sent. */
  private record Request(Path clientDir, Path clientHome, List<String> args) {}

  /**
   * Reads the token, within the handshake timeout and no more bytes than the token has (32 hex
   * characters; a longer first string is not read further), then the
   * command line; only a connection with the right token counts as a command and gets a thread of
   * its own. Anything else is closed here.
   */
  private void handshake(Socket client) {
    Request request;
    try {
      InputStream in = new BufferedInputStream(new DeadlineInput(client, System.nanoTime()
          + TimeUnit.MILLISECONDS.toNanos(handshakeTimeoutMs)));
      if (!MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
          readString(in, token.length()).getBytes(StandardCharsets.UTF_8))) {
        LOG.warn("refused a command connection with a wrong token");
        closeQuietly(client);
        return;
      }
      Path clientDir = Path.of(readString(in, MAX_STRING));
      Path clientHome = Path.of(readString(in, MAX_STRING)).toAbsolutePath().normalize();
      int n = Integer.parseInt(readString(in, MAX_STRING));
      if (n < 0 || n > MAX_ARGS) {
        throw new IOException("bad argument count " + n);
      }
      List<String> args = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        args.add(readString(in, MAX_STRING));
      }
      client.setSoTimeout(0);
      if (!clientDir.isAbsolute()) {
        throw new IOException("the working directory " + clientDir + " is not absolute");
      }
      request = new Request(clientDir.normalize(), clientHome, args);
    } catch (IOException | RuntimeException e) {
      LOG.warn("a command connection failed before its command: {}", e.toString());
      closeQuietly(client);
      return;
    }
    running.incrementAndGet();
    try {
      workers.execute(() -> serve(client, request));
    } catch (java.util.concurrent.RejectedExecutionException e) { // stopping
      running.decrementAndGet();
      closeQuietly(client);
    }
  }

  /**
   * The socket's input until a deadline for the whole handshake, not per read: a client that sends
   * a byte now and then would otherwise hold a handshake thread for as long as it likes.
   */
  private static final class DeadlineInput extends java.io.FilterInputStream {
    private final Socket socket;
    private final long deadlineNanos;

    DeadlineInput(Socket socket, long deadlineNanos) throws IOException {
      super(socket.getInputStream());
      this.socket = socket;
      this.deadlineNanos = deadlineNanos;
    }

    private void untilDeadline() throws IOException {
      long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (leftMs <= 0) {
        throw new java.net.SocketTimeoutException("the handshake took longer than its timeout");
      }
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMs));
    }

    @Override
    public int read() throws IOException {
      untilDeadline();
      return super.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      untilDeadline();
      return super.read(b, off, len);
    }
  }

  private static void closeQuietly(Socket client) {
    try {
      client.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  private void serve(Socket client, Request request) {
    Watch watch = new Watch(client, Thread.currentThread());
    watches.add(watch);
    try (client; OutputStream raw = client.getOutputStream()) {
      Path clientHome = request.clientHome();
      List<String> args = request.args();
      if (!clientHome.equals(home) || ServerInfo.currentBuild() != build) {
        send(raw, "R\n");
        return;
      }
      send(raw, "A\n"); // from here on the command may run: the client must not run it again itself
      watch.start();
      long t0 = System.nanoTime();
      PrintWriter out = new PrintWriter(new FrameWriter(raw, 'O'), true);
      PrintWriter err = new PrintWriter(new FrameWriter(raw, 'E'), true);
      java.util.OptionalInt code = runner.run(args, request.clientDir(), home, env, out, err);
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
      watch.end();
      watches.remove(watch);
      lastUsed.set(Instant.now());
      running.decrementAndGet();
    }
  }

  /**
   * Watches a running command's connection: the client sends nothing after its command line, so
   * the end of its input means the client went (it ended, or a Ctrl-C killed the launcher), and
   * the command's thread is interrupted (whatever it waits on, a sleep between passes of
   * {@code reconcile --watch}, HBase's client, a lock, gives up). It never interrupts the thread
   * once the command has ended, since the pool's thread then runs another.
   */
  private static final class Watch {
    private final Socket client;
    private final Thread command;
    private boolean ended;

    Watch(Socket client, Thread command) {
      this.client = client;
      this.command = command;
    }

    void start() {
      Thread t = new Thread(this::watch, "snapds-command-watch");
      t.setDaemon(true);
      t.start();
    }

    private void watch() {
      try {
        InputStream in = client.getInputStream();
        while (in.read() >= 0) {
          // nothing more is expected; anything sent is ignored
        }
        LOG.info("the client of a running command went away; interrupting the command");
      } catch (IOException e) {
        // closed at the end of the command, or reset by the client: either way the client is gone
      }
      interrupt();
    }

    /** Interrupts the command if it still runs (the client went, or a stop waited long enough). */
    synchronized void interrupt() {
      if (!ended) {
        command.interrupt();
      }
    }

    /** The command ended: no interrupt from here on, and none left over for the pool's next command. */
    void end() {
      synchronized (this) {
        ended = true;
      }
      Thread.interrupted();
    }
  }

  private static void send(OutputStream raw, String frame) throws IOException {
    synchronized (raw) {
      raw.write(frame.getBytes(StandardCharsets.US_ASCII));
      raw.flush();
    }
  }

  private static String readString(InputStream in, int max) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != 0) {
      if (b < 0) {
        throw new IOException("the client closed the connection");
      }
      if (buf.size() >= max) {
        throw new IOException("a string longer than " + max + " bytes");
      }
      buf.write(b);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  /**
   * Stops taking commands and waits for those that run: {@code graceMillis} for them to end, then
   * interrupts them (a command that runs until stopped, or one stuck on something, would hold the
   * stop for ever) and waits at most {@link #INTERRUPTED_WAIT_MS} more for them to give up.
   */
  void stop(long graceMillis) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    handshakes.shutdownNow();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
        LOG.warn("{} commands still running after {} ms; interrupting them", running.get(), graceMillis);
        watches.forEach(Watch::interrupt);
        if (!workers.awaitTermination(INTERRUPTED_WAIT_MS, TimeUnit.MILLISECONDS)) {
          LOG.warn("{} commands still running {} ms after their interrupt; stopping anyway", running.get(),
              INTERRUPTED_WAIT_MS);
        }
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
