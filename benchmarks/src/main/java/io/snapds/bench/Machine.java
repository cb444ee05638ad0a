package io.snapds.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the run ran on: cores, memory, JDK, OS, load. */
final class Machine {
  private Machine() {}

  static String describe() {
    return Runtime.getRuntime().availableProcessors() + " cores (`nproc`), " + memTotal() + " RAM, "
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", "
        + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
  }

  /** The 1, 5 and 15 minute load averages. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }
}
