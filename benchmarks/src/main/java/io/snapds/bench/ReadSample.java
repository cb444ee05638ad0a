package io.snapds.bench;

import java.util.Set;
import java.util.TreeSet;

/**
 * What one read of a sample of keys found: how many of the keys had a row, and the labels
 * (versions) of every cell. A read is <em>complete</em> when it found every key and one label,
 * <em>torn</em> when it found cells of two or more versions, <em>partial</em> when some keys had
 * no row, <em>empty</em> when none had.
 */
record ReadSample(int asked, int found, Set<Integer> labels) {
  ReadSample {
    labels = Set.copyOf(new TreeSet<>(labels));
  }

  boolean empty() {
    return found == 0;
  }

  boolean partial() {
    return found > 0 && found < asked;
  }

  boolean torn() {
    return labels.size() > 1;
  }

  boolean complete() {
    return found == asked && labels.size() == 1;
  }
}
