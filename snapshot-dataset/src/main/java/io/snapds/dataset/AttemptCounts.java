package io.snapds.dataset;

import io.snapds.dataset.lock.AttemptRecord;
import io.snapds.dataset.read.SnapshotRowCounter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Whether the attempts that wrote into a snapshot say, together, what it stores: the publish of
 * a distributed write then records their sum instead of counting the stored rows
 * (docs/design.md "One write protocol"). The sum is what a reader gets when every attempt that
 * sent rows recorded what it stored (it closed with all its sends landed and exact counts: each
 * key once, ascending, nothing deleted) and no two attempts' key ranges meet, so that no key was
 * stored twice. Anything else (an attempt still writing or dead, a failed send, keys out of order,
 * a key two attempts wrote) leaves the counting to the scan, and so does a snapshot with no record
 * at all (nothing was sent, so the scan reads next to nothing, or its writers are of an earlier
 * version, which records nothing).
 */
final class AttemptCounts {
  private AttemptCounts() {}

  /** The sum of {@code attempts}' stored counts, or empty if it need not be what the snapshot holds. */
  static Optional<SnapshotRowCounter.Counts> sum(List<AttemptRecord> attempts) {
    if (attempts.isEmpty()) {
      return Optional.empty(); // no attempt sent, or one of an earlier version that records nothing: the scan is cheap then
    }
    List<AttemptRecord.Stored> stored = new ArrayList<>(attempts.size());
    for (AttemptRecord a : attempts) {
      if (a.stored().isEmpty()) {
        return Optional.empty();
      }
      stored.add(a.stored().get());
    }
    stored.sort(Comparator.comparing(AttemptRecord.Stored::first, Bytes.BYTES_COMPARATOR));
    long rows = 0;
    long bytes = 0;
    byte[] last = null;
    for (AttemptRecord.Stored s : stored) {
      if (Bytes.compareTo(s.first(), s.last()) > 0) {
        return Optional.empty(); // not a range: not what an exact attempt records
      }
      if (last != null && Bytes.compareTo(last, s.first()) >= 0) {
        return Optional.empty(); // two attempts' ranges meet: a key may be stored once and counted twice
      }
      rows += s.rows();
      bytes += s.bytes();
      last = s.last();
    }
    return Optional.of(new SnapshotRowCounter.Counts(rows, bytes));
  }
}
