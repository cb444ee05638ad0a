package io.snapds.bench;

import java.util.List;

/**
 * Sizes and repetitions of one run. {@link #FULL} gives the published figures; {@link #SMOKE}
 * runs every benchmark at small sizes in a few minutes, to check that they work.
 */
record Scale(String name, List<SizedReps> writes, SizedReps publishSmallest, long readRows, int readReps,
    int pointGets, long replaceRows, int replaceRounds, long cleanupRows, int cleanupReps, long mapReduceRows,
    int mapReduceReps, int sharedJobs, int sharedKeys, long sharedRowsPerBuild, int sharedReps, String clientHeap) {

  /** A size and how often it is repeated. */
  record SizedReps(long rows, int reps) {}

  static final Scale FULL = new Scale("full",
      List.of(new SizedReps(100_000, 5), new SizedReps(1_000_000, 5)), new SizedReps(10_000, 5),
      100_000, 9, 5_000, 100_000, 5, 100_000, 5, 100_000, 3, 100, 10, 1_000, 3, "512m");

  static final Scale SMOKE = new Scale("smoke",
      List.of(new SizedReps(5_000, 3), new SizedReps(20_000, 1)), new SizedReps(1_000, 3),
      5_000, 3, 500, 5_000, 2, 5_000, 2, 5_000, 2, 20, 4, 100, 2, "512m");

  static Scale named(String name) {
    return switch (name) {
      case "full" -> FULL;
      case "smoke" -> SMOKE;
      default -> throw new IllegalArgumentException("scale must be full or smoke, got '" + name + "'");
    };
  }
}
