package io.snapds.dataset.testing;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeded random and adversarial inputs for property tests. {@code -Dfuzz.count=N} runs N cases
 * (default: a few hundred, a few seconds in {@code mvn verify}); {@code -Dfuzz.seed=S} replays a
 * run. Every failure message carries the seed and the case number.
 */
public final class Fuzz {
  private static final String[] NASTY = {"", " ", ":", "::", "\u0000", "a\u0000b", "-", "_", ".", "..", "\n",
      "\r\n", "\"", "'", "\\", "{", "[", "}", "]", ",", "=", "\uFFFD", "\uD800", "é", "漢字", "\uD83D\uDE00",
      "9223372036854775807", "-9223372036854775808", "99999999999999999999", "NaN", "-1", "0", "1e309", "null",
      "true", "default", "hbase", "PT1S", "P-1D", "PT999999999999999H"};

  private final long seed;
  private final Random random;

  private Fuzz(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  /** A generator with {@code -Dfuzz.seed} (default {@code defaultSeed}: the same cases every build). */
  public static Fuzz seeded(long defaultSeed) {
    return new Fuzz(Long.getLong("fuzz.seed", defaultSeed));
  }

  /** How many cases to run: {@code -Dfuzz.count}, or {@code defaultCount}. */
  public static int count(int defaultCount) {
    return Integer.getInteger("fuzz.count", defaultCount);
  }

  public String where(int i) {
    return "fuzz case " + i + " (seed " + seed + ", replay with -Dfuzz.seed=" + seed + ")";
  }

  public Random random() {
    return random;
  }

  public int between(int lo, int hi) {
    return lo + random.nextInt(hi - lo + 1);
  }

  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  /** A string: usually short and plausible, sometimes nasty, sometimes huge or made of random code points. */
  public String string() {
    int kind = random.nextInt(10);
    if (kind < 3) {
      return NASTY[random.nextInt(NASTY.length)] + (chance(0.5) ? NASTY[random.nextInt(NASTY.length)] : "");
    }
    int length = kind == 9 ? between(1000, 20_000) : between(0, 40);
    StringBuilder sb = new StringBuilder(length);
    String alphabet = kind < 6 ? "abcXYZ019_-:.," : null;
    for (int i = 0; i < length; i++) {
      if (alphabet != null) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      } else {
        sb.appendCodePoint(random.nextInt(0x10FFFF + 1)); // includes lone surrogates and NUL
      }
    }
    return sb.toString();
  }

  /** Random bytes: sometimes UTF-8 of {@link #string()}, sometimes invalid UTF-8, sometimes empty. */
  public byte[] bytes() {
    if (chance(0.4)) {
      return string().getBytes(StandardCharsets.UTF_8);
    }
    byte[] b = new byte[chance(0.05) ? between(1000, 20_000) : between(0, 24)];
    random.nextBytes(b);
    return b;
  }

  public long anyLong() {
    return chance(0.3) ? new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE}[random.nextInt(5)] : random.nextLong();
  }
}
