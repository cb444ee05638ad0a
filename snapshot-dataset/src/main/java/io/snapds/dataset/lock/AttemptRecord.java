package io.snapds.dataset.lock;

import java.util.Optional;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What the lock table holds of one writer into a snapshot begun elsewhere (a task attempt): that it
 * began sending, and, once all it sent had landed, what it stored, if its counts were exact.
 *
 * @param attempt the writer's id, unique per writer
 * @param stored what it stored; empty while it writes, if it died or failed, or if its counts were not exact
 */
@InterfaceAudience.Private
public record AttemptRecord(String attempt, Optional<Stored> stored) {
  /** Rows and bytes an attempt stored, each key once, its keys from {@code first} to {@code last}. */
  public record Stored(long rows, long bytes, byte[] first, byte[] last) {}
}
