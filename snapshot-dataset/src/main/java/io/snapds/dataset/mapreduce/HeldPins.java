package io.snapds.dataset.mapreduce;

import io.snapds.dataset.ReaderPin;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader pins this process took when it computed splits, kept with the datasets they were
 * taken through until the job ends and its client releases them.
 */
final class HeldPins {
  private static final Logger LOG = LoggerFactory.getLogger(HeldPins.class);
  private static final Map<String, Held> HELD = new ConcurrentHashMap<>();

  private record Held(JobDatasets datasets, ReaderPin pin) {}

  private HeldPins() {}

  static void hold(JobDatasets datasets, ReaderPin pin) {
    HELD.put(pin.pinId(), new Held(datasets, pin));
  }

  /** Releases the pin; false if this process does not hold it (it then lapses at its TTL). */
  static boolean release(String pinId) {
    Held held = HELD.remove(pinId);
    if (held == null) {
      return false;
    }
    try {
      held.pin().close();
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
