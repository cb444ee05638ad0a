package io.snapds.dataset.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs actors one step at a time, in an order drawn from one seed. Each actor is a thread; it
 * runs only while the scheduler has handed it the turn, up to its next yield point (every storage
 * and transaction call), where it hands the turn back. So a run is a sequence of steps, each the
 * code of one actor between two of its calls, and the same seed gives the same sequence.
 *
 * <p>Threads that are not actors (a cleanup's worker threads, working for the actor that waits on
 * them) pass their yield points without stopping. A crashed actor stops at its next yield point
 * and every one after it (its {@code finally} blocks reach storage no more than a killed process
 * would), by an {@link Error} that production code does not catch.
 */
public final class Scheduler {
  /** Thrown at the yield points of a crashed actor. */
  public static final class Crash extends Error {
    Crash(String actor) {
      super("actor " + actor + " crashed", null, false, false);
    }
  }

  /** One actor: a thread that runs its body step by step. */
  public final class Actor {
    private final String name;
    private final Thread thread;
    private final Semaphore turn = new Semaphore(0);
    private volatile boolean done;
    private volatile boolean crashed;
    private volatile Throwable failure;
    private volatile String at = "start";
    /** Steps this actor sits out (a stall: a process paused by GC or a slow disk). */
    private int stalledFor;

    private Actor(String name, Runnable body) {
      this.name = name;
      this.thread = new Thread(() -> {
        if (!free) {
          turn.acquireUninterruptibly();
        }
        try {
          if (!crashed) {
            body.run();
          }
        } catch (Crash e) {
          // a crash ends the actor
        } catch (Throwable t) {
          failure = t;
        } finally {
          done = true;
          if (!free) {
            toScheduler.release();
          }
        }
      }, "sim-" + name);
      thread.setDaemon(true);
    }

    public String name() {
      return name;
    }

    public boolean isDone() {
      return done;
    }

    /** What the actor's body threw, other than a crash. */
    public Throwable failure() {
      return failure;
    }

    /** Crashes the actor: from its next yield point on, it throws {@link Crash}. */
    public void crash() {
      crashed = true;
    }

    public boolean isCrashed() {
      return crashed;
    }

    public void stall(int steps) {
      stalledFor = steps;
    }
  }

  private final Random random;
  private final List<Actor> actors = new ArrayList<>();
  private final Map<Thread, Actor> byThread = new ConcurrentHashMap<>();
  private final Semaphore toScheduler = new Semaphore(0);
  private final Deque<String> trace = new ArrayDeque<>();
  private final int traceLength;
  private final long stepTimeoutSeconds;
  private final boolean free;
  private long steps;

  public Scheduler(Random random, int traceLength, long stepTimeoutSeconds) {
    this(random, traceLength, stepTimeoutSeconds, false);
  }

  private Scheduler(Random random, int traceLength, long stepTimeoutSeconds, boolean free) {
    this.random = random;
    this.traceLength = traceLength;
    this.stepTimeoutSeconds = stepTimeoutSeconds;
    this.free = free;
  }

  /**
   * A scheduler that lets the actors run freely, as threads do on a real cluster: a step is a
   * pause of the caller; a crash takes effect at the actor's next yield point and a stall sleeps
   * there.
   */
  public static Scheduler free(int traceLength) {
    return new Scheduler(new Random(0), traceLength, 0, true);
  }

  public Actor spawn(String name, Runnable body) {
    Actor a = new Actor(name, body);
    actors.add(a);
    byThread.put(a.thread, a);
    a.thread.start();
    return a;
  }

  /** Called by the clients before each call: an actor thread waits here for its next turn. */
  public void yieldPoint(String what) {
    Actor a = byThread.get(Thread.currentThread());
    if (a == null) {
      return;
    }
    if (a.crashed) {
      throw new Crash(a.name);
    }
    a.at = what;
    if (free) {
      if (a.stalledFor > 0) {
        a.stalledFor = 0;
        sleep(200);
      }
      return;
    }
    toScheduler.release();
    a.turn.acquireUninterruptibly();
    if (a.crashed) {
      throw new Crash(a.name);
    }
  }

  /** The actors that have not ended. */
  public List<Actor> live() {
    List<Actor> out = new ArrayList<>();
    for (Actor a : actors) {
      if (!a.done) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * Gives one turn to an actor drawn from the live ones that are not stalled (or to a stalled one
   * when all are); false when every actor has ended.
   *
   * @throws IllegalStateException when the actor does not come back to a yield point within the
   *     step timeout (it blocks outside the storage calls: a deadlock or a real-time wait)
   */
  public boolean step() {
    List<Actor> live = live();
    if (live.isEmpty()) {
      return false;
    }
    if (free) {
      steps++;
      sleep(5);
      return true;
    }
    List<Actor> ready = new ArrayList<>();
    for (Actor a : live) {
      if (a.stalledFor > 0) {
        a.stalledFor--;
      } else {
        ready.add(a);
      }
    }
    List<Actor> from = ready.isEmpty() ? live : ready;
    Actor a = from.get(random.nextInt(from.size()));
    run(a);
    return true;
  }

  /** Gives {@code a} one turn. */
  public void run(Actor a) {
    if (a.done) {
      return;
    }
    if (free) {
      try {
        a.thread.join(TimeUnit.SECONDS.toMillis(60));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    steps++;
    record(a.name + (a.crashed ? " (crashed)" : "") + " @ " + a.at);
    a.turn.release();
    try {
      if (!toScheduler.tryAcquire(stepTimeoutSeconds, TimeUnit.SECONDS)) {
        throw new IllegalStateException("actor " + a.name + " did not reach a yield point within "
            + stepTimeoutSeconds + " s after " + a.at + ": it blocks outside storage calls");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public synchronized void record(String line) {
    trace.addLast(steps + ": " + line);
    if (trace.size() > traceLength) {
      trace.removeFirst();
    }
  }

  public long steps() {
    return steps;
  }

  public List<Actor> actors() {
    return actors;
  }

  /** The last steps, oldest first. */
  public synchronized List<String> trace() {
    return new ArrayList<>(trace);
  }

  public Random random() {
    return random;
  }
}
