package io.snapds.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The home server's command port before the token (issue #42): a connection that sends nothing,
 * or a huge first string, is closed within the handshake timeout and never counts as a running
 * command (which kept the server from idling out); a flood of such connections neither takes a
 * thread each nor keeps a client with the token from running its command. A command whose client
 * goes away is interrupted, and a stop interrupts the commands that outlast its grace.
 */
class CommandServiceTest {
  @TempDir
  static Path home;
  private static CommandService service;

  /**
   * Prints its arguments, or with {@code block} waits until interrupted (a command that runs
   * until stopped, as {@code reconcile --watch} does) and counts down the latches it is given.
   */
  private static CommandService.Runner runner(CountDownLatch blocked, CountDownLatch interrupted) {
    return (args, dir, h, env, out, err) -> {
      if (args.equals(List.of("block"))) {
        blocked.countDown();
        try {
          new CountDownLatch(1).await();
        } catch (InterruptedException e) {
          interrupted.countDown();
          return OptionalInt.of(130);
        }
      }
      out.print("ran " + String.join(" ", args));
      return OptionalInt.of(0);
    };
  }

  @BeforeAll
  static void start() throws IOException {
    System.setProperty(CommandService.HANDSHAKE_TIMEOUT_MS, "300");
    service = CommandService.start(home.toAbsolutePath().normalize(), null,
        runner(new CountDownLatch(1), new CountDownLatch(1)));
  }

  @AfterAll
  static void stop() {
    service.close();
    System.clearProperty(CommandService.HANDSHAKE_TIMEOUT_MS);
  }

  @Test
  void aConnectionThatSendsNothingIsClosedAndNeverCountsAsACommand() throws IOException {
    try (Socket idle = connect()) {
      assertEquals(-1, readOrTimeOut(idle), "the server closes a connection that sends no token");
      assertEquals(0, service.running());
    }
  }

  @Test
  void aTokenTrickledByteByByteIsCutAtTheHandshakeTimeoutInAll() throws Exception {
    try (Socket slow = connect()) {
      OutputStream out = slow.getOutputStream();
      boolean cut = false;
      try {
        for (int i = 0; i < 20; i++) { // 2 s in all, each byte well within the 300 ms timeout
          out.write('a');
          out.flush();
          Thread.sleep(100);
        }
      } catch (IOException closedMeanwhile) {
        cut = true; // the server closed it while the client still sent
      }
      assertTrue(cut, "the server went on reading a handshake that had outlasted its timeout");
    }
  }

  @Test
  void aFirstStringLongerThanAnyTokenIsNotReadOn() throws IOException {
    try (Socket big = connect()) {
      OutputStream out = big.getOutputStream();
      byte[] mebibyte = new byte[1 << 20];
      java.util.Arrays.fill(mebibyte, (byte) 'a');
      try {
        out.write(mebibyte);
      } catch (IOException closedMeanwhile) {
        // the server closed it after the token's length: what this test wants
      }
      assertEquals(-1, readOrTimeOut(big));
    }
  }

  @Test
  void nothingPastTheTokensLengthIsReadBeforeTheToken() throws Exception {
    System.setProperty(CommandService.HANDSHAKE_TIMEOUT_MS, "600000"); // no timeout ends this one
    CommandService patient;
    try {
      patient = CommandService.start(home.toAbsolutePath().normalize(), null,
          runner(new CountDownLatch(1), new CountDownLatch(1)));
    } finally {
      System.setProperty(CommandService.HANDSHAKE_TIMEOUT_MS, "300");
    }
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), patient.port())) {
      // one byte more than a token, and no end of the string yet
      s.getOutputStream().write("a".repeat(patient.token().length() + 1).getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      assertEquals(-1, readOrTimeOut(s), "the server closes a first string longer than the token");
    } finally {
      patient.close();
    }
  }

  @Test
  void aFloodOfSilentConnectionsDoesNotKeepAClientWithTheTokenFromRunning() throws IOException {
    List<Socket> flood = new ArrayList<>();
    try {
      for (int i = 0; i < 200; i++) {
        flood.add(connect());
      }
      String answer = runWithToken("status", "--json");
      assertTrue(answer.startsWith("A\n"), "the command was taken on: " + answer);
      assertTrue(answer.contains("ran status --json") && answer.endsWith("X0\n"), answer);
    } finally {
      for (Socket s : flood) {
        s.close();
      }
    }
  }

  @Test
  void aCommandWhoseClientGoesAwayIsInterrupted() throws Exception {
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    CommandService other = CommandService.start(home.toAbsolutePath().normalize(), null,
        runner(blocked, interrupted));
    try {
      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), other.port())) {
        send(client, other.token(), "block");
        assertEquals('A', client.getInputStream().read(), "the command was taken on");
        assertTrue(blocked.await(1, TimeUnit.MINUTES), "the command runs");
      } // the client goes, as when a Ctrl-C ends the launcher
      assertTrue(interrupted.await(1, TimeUnit.MINUTES), "the command went on for a minute after its client went");
    } finally {
      other.close();
    }
  }

  @Test
  void aStopInterruptsTheCommandsThatOutlastItsGrace() throws Exception {
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    CommandService other = CommandService.start(home.toAbsolutePath().normalize(), null,
        runner(blocked, interrupted));
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), other.port())) {
      send(client, other.token(), "block");
      assertTrue(blocked.await(1, TimeUnit.MINUTES), "the command runs");
      other.stop(100);
      assertTrue(interrupted.await(0, TimeUnit.MILLISECONDS), "the stop returned with the command still running");
      String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals("A\nX130\n", answer, "the client learns the interrupted command's exit");
    } finally {
      other.close();
    }
  }

  private static void send(Socket s, String token, String... args) throws IOException {
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    for (String part : concat(token, "/tmp", home.toAbsolutePath().normalize().toString(),
        Integer.toString(args.length), args)) {
      req.write(part.getBytes(StandardCharsets.UTF_8));
      req.write(0);
    }
    s.getOutputStream().write(req.toByteArray());
    s.getOutputStream().flush();
  }

  /**
   * Sends a command line as the launcher does; tries again while the flood fills the handshake
   * queue (a queued silent connection leaves it after the handshake timeout, so the queue drains
   * within its length times that timeout over the handshake threads: about 3 s here).
   */
  private String runWithToken(String... args) throws IOException {
    long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < giveUp) {
      try (Socket s = connect()) {
        ByteArrayOutputStream req = new ByteArrayOutputStream();
        for (String part : concat(service.token(), "/tmp", home.toAbsolutePath().normalize().toString(),
            Integer.toString(args.length), args)) {
          req.write(part.getBytes(StandardCharsets.UTF_8));
          req.write(0);
        }
        s.getOutputStream().write(req.toByteArray());
        s.getOutputStream().flush();
        String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!answer.isEmpty()) {
          return answer;
        }
      } catch (IOException refusedWhileFlooded) {
        // closed before an answer: the queue was full; the launcher then runs the command itself
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("no answer in 2 minutes while the flood's connections timed out");
  }

  private static List<String> concat(String a, String b, String c, String d, String[] rest) {
    List<String> all = new ArrayList<>(List.of(a, b, c, d));
    all.addAll(List.of(rest));
    return all;
  }

  private static Socket connect() throws IOException {
    return new Socket(InetAddress.getLoopbackAddress(), service.port());
  }

  /** The next byte, -1 at the end; fails if the server keeps the connection open for 30 s. */
  private static int readOrTimeOut(Socket s) throws IOException {
    s.setSoTimeout(30_000);
    InputStream in = s.getInputStream();
    try {
      return in.read();
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept a silent connection open for 30 s");
    } catch (java.net.SocketException reset) {
      return -1; // closed with unread input: a reset
    }
  }
}
