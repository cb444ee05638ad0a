package io.snapds.dataset.mapreduce;

import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.PinKeeper;
import io.snapds.dataset.ReaderPin;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader pins this process took when it computed splits, kept with the datasets they were
 * taken through until the job ends and its client releases them. While held, each pin is renewed
 * every third of its time-to-live, so a job that outlasts the TTL stays protected as long as the
 * process that submitted it lives; if that process dies, the pin lapses at its TTL.
 */
final class HeldPins {
  private static final Logger LOG = LoggerFactory.getLogger(HeldPins.class);
  private static final Map<String, Held> HELD = new ConcurrentHashMap<>();
  private record Held(JobDatasets datasets, PinKeeper keeper) {}

  private HeldPins() {}

  static void hold(JobDatasets datasets, ReaderPin pin, Duration ttl) {
    HELD.put(pin.pinId(), new Held(datasets, new PinKeeper(pin, ttl)));
  }

  /** Releases the pin; false if this process does not hold it (it then lapses at its TTL). */
  static boolean release(String pinId) {
    Held held = HELD.remove(pinId);
    if (held == null) {
      return false;
    }
    try {
      held.keeper().close();
    } finally {
      try {
        held.datasets().close();
      } catch (IOException e) {
        LOG.warn("closing the connection of reader pin {} failed: {}", pinId, e.toString());
      }
    }
    return true;
  }
}
