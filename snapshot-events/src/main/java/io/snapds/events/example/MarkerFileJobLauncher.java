package io.snapds.events.example;

import static com.google.common.base.Preconditions.checkNotNull;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@link JobLauncher} that stands for a real one: "starting" a job writes a marker file
 * {@code <directory>/<run id>} holding {@code dataset@snapshot}, once. The marker is written to a
 * temporary file and then hard-linked to its name, which the file system does atomically and
 * refuses when the name exists, so of two calls with one run id (even concurrent ones, even in two
 * processes) exactly one starts it, and a call killed half-way leaves no marker (only a temporary
 * file, which a later call ignores). A real launcher gets the same property from its scheduler's
 * run id (an Airflow dag run id, a Kubernetes Job name).
 */
public final class MarkerFileJobLauncher implements JobLauncher {
  private static final String TEMP_SUFFIX = ".tmp";
  private final Path directory;

  public MarkerFileJobLauncher(Path directory) {
    this.directory = checkNotNull(directory, "directory");
  }

  @Override
  public boolean start(String runId, DatasetId dataset, SnapshotId snapshot) throws IOException {
    Files.createDirectories(directory);
    Path marker = directory.resolve(runId);
    if (Files.exists(marker)) {
      return false;
    }
    Path temp = Files.createTempFile(directory, runId + ".", TEMP_SUFFIX);
    try {
      Files.writeString(temp, dataset + "@" + snapshot, StandardCharsets.UTF_8);
      Files.createLink(marker, temp);
      return true;
    } catch (FileAlreadyExistsException startedMeanwhile) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The run ids started so far, in name order. */
  public List<String> started() throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(TEMP_SUFFIX)).sorted().forEach(out::add);
    }
    return out;
  }
}
