package io.snapds.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code ./snapds} (the launcher at the repository root) in new processes, as a user does. */
final class Launcher {
  static final Path ROOT = Path.of(System.getProperty("snapds.repo.root", "..")).toAbsolutePath().normalize();

  private final Path dir;

  Launcher(Path dir) {
    this.dir = dir;
  }

  /** Starts {@code snapds args...}; its output goes to files named after {@code name} in the directory. */
  Running start(String name, String... args) throws IOException {
    return start(name, java.util.Map.of(), args);
  }

  /** The same, with more environment variables for the launcher. */
  Running start(String name, java.util.Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ROOT.resolve("snapds").toString());
    command.addAll(List.of(args));
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(env);
    Process p = builder.start();
    return new Running(String.join(" ", args), p, out, err);
  }

  Cli.Result run(String... args) throws IOException, InterruptedException {
    return start("cmd", args).result();
  }

  record Running(String args, Process process, Path out, Path err) {
    Cli.Result result() throws IOException, InterruptedException {
      if (!process.waitFor(10, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("snapds " + args + " did not end");
      }
      return new Cli.Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    }
  }
}
