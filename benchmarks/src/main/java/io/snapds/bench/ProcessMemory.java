package io.snapds.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's peak resident set size (Linux {@code VmHWM}) and peak heap use. */
final class ProcessMemory {
  private ProcessMemory() {}

  /** Peak RSS in bytes, from {@code /proc/self/status}. */
  static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String kb = line.substring("VmHWM:".length()).trim().split("\\s+")[0];
          return Long.parseLong(kb) * 1024;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading /proc/self/status", e);
    }
    throw new IllegalStateException("no VmHWM line in /proc/self/status");
  }

  /** Sum of the heap pools' peak use (an upper bound of the live heap at any moment). */
  static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
