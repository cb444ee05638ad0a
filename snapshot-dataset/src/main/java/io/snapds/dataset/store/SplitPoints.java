package io.snapds.dataset.store;

import com.google.common.base.Splitter;
import com.google.common.io.BaseEncoding;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The stored form of {@code data.presplit.first.points}: each user key in lower-case hex, joined
 * by commas, so that any byte (a comma included) survives the properties map of strings.
 */
final class SplitPoints {
  private static final BaseEncoding HEX = BaseEncoding.base16().lowerCase();

  private SplitPoints() {}

  static String format(List<byte[]> points) {
    return points.stream().map(HEX::encode).collect(Collectors.joining(","));
  }

  /** @throws IllegalArgumentException naming the entry that is not hex */
  static List<byte[]> parse(String stored) {
    List<byte[]> points = new ArrayList<>();
    for (String p : Splitter.on(',').split(stored)) {
      try {
        points.add(HEX.decode(p));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("data.presplit.first.points: '" + p + "' is not hex", e);
      }
    }
    return points;
  }
}
