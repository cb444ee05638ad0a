package io.snapds.dataset.mapreduce;

import java.io.IOException;
import java.net.InetAddress;

/** How a job appears as the owner of its locks and pins: {@code mapreduce:<job name>@<host>}. */
final class JobOwner {
  private static final int MAX_NAME = 200;

  private JobOwner() {}

  static String of(String jobName) {
    String name = jobName == null || jobName.isBlank() ? "job" : jobName;
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown-host";
    }
    return "mapreduce:" + (name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name) + "@" + host;
  }
}
