package io.snapds.it.cdap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.snapds.dataset.testing.GoldenRecords;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The readers of the interoperability test that cannot live in the CDAP test JVM, each run as a
 * JVM of its own against the test's mini cluster and Tephra service: Hive 4.1 and a MapReduce job
 * ({@code io.snapds.hive.InteropReadersMain}, with snapshot-hive's bundle jar in place of the
 * handler's own jars and dependencies), and
 * {@code snapds scan --json} (snapshot-cli's jar on its launcher classpath, as {@code ./snapds}
 * runs it). Each gives the snapshot ids it read and its rows as {field: text}, the text already in
 * the one canonical form of the comparison ({@link ValueText} of {@link GoldenRecords}' Java value).
 */
final class ReaderJvms {
  /** What one reader read. */
  record Read(List<String> snapshots, List<String> columns, List<Map<String, String>> rows) {}

  private static final Pattern SCANNED = Pattern.compile("(\\d+) rows? of snapshot (\\d+)");
  /**
   * The jars whose classes snapshot-hive's bundle holds (its pom's artifactSet), left out of the
   * child's class path. Its Guice is relocated, so any Guice, javax.inject or aopalliance jar
   * stays. The child has Hive's own Guava 22 first, as a Hive installation's lib/ puts it before
   * the aux jars, so the bundle's Guava 33 is shadowed where the two share a class.
   */
  private static final Pattern IN_BUNDLE = Pattern.compile(".*/(snapshot-dataset-[^/]*(?<!-tests)\\.jar"
      + "|snapshot-mapreduce-[^/]*\\.jar|snapshot-tephra-relocated-[^/]*\\.jar|tephra-api-[^/]*\\.jar"
      + "|fastutil-[^/]*\\.jar|failsafe-[^/]*\\.jar|guava-[^/]*\\.jar|failureaccess-[^/]*\\.jar)");
  private static final Map<String, String> TYPES = new LinkedHashMap<>();

  static {
    for (String f : GoldenRecords.FIELDS) {
      String[] words = f.split(" ");
      TYPES.put(words[0], words[1]);
    }
  }

  private ReaderJvms() {}

  /** Hive's {@code SELECT *} over a table with no column list, and a MapReduce job's typed records. */
  static Map<String, Read> hiveAndMapReduce(String quorum, String dataset, Path workDir) throws IOException,
      InterruptedException {
    Path out = workDir.resolve("interop-readers");
    deleteRecursively(out); // an earlier run's results (and MapReduce's output directory) must not count
    // as a Hive installation runs the handler: Hive's lib/ Guava 22 first, InteropReadersMain's
    // class, the bundle jar (its Guava 33 shadowed by 22 where they share a class), then the rest
    // of snapshot-hive's test classpath (Hive, Hadoop, HBase) without what the bundle holds
    Path bundle = Path.of(System.getProperty("hive.bundle.jar"));
    if (!Files.isRegularFile(bundle)) {
      throw new IllegalStateException("no " + bundle + ": package snapshot-hive first");
    }
    Path hiveGuava = Path.of(System.getProperty("hive.lib.guava.jar"));
    if (!Files.isRegularFile(hiveGuava)) {
      throw new IllegalStateException("no " + hiveGuava + ": the hive-lib-guava copy did not run");
    }
    List<String> classpath = new ArrayList<>(List.of(hiveGuava.toString()));
    classpath.addAll(Arrays.asList(System.getProperty("hive.child.classes").split(":")));
    classpath.add(bundle.toString());
    for (String entry : Files.readString(Path.of(System.getProperty("hive.child.classpath"))).trim().split(":")) {
      if (!IN_BUNDLE.matcher(entry).matches()) {
        classpath.add(entry);
      }
    }
    List<String> command = java(List.of("-Xmx1g", "-Dsnapds.hive.dir=" + out.resolve("hive"),
        "-Dderby.stream.error.file=" + out.resolve("derby.log")), classpath);
    command.addAll(List.of("io.snapds.hive.InteropReadersMain", quorum, dataset, out.toString()));
    run(command, workDir.resolve("interop-readers.log"), workDir);
    Map<String, Read> reads = new LinkedHashMap<>();
    reads.put("Hive", parse(out.resolve("hive.json"), ReaderJvms::fromHive));
    reads.put("MapReduce", parse(out.resolve("mapreduce.json"), (field, v) -> v.isJsonNull() ? null : v.getAsString()));
    return reads;
  }

  /**
   * {@code snapds scan DATASET --json} against the cluster ({@code --zookeeper}, {@code --tx-service}),
   * both on the current snapshot. {@code --json} prints rows only, so the snapshot id is the one
   * the same scan without {@code --json} reports on stderr ({@code N rows of snapshot ID}).
   */
  static Read commandLine(String quorum, String dataset, Path workDir) throws IOException, InterruptedException {
    Files.deleteIfExists(workDir.resolve("cli-scan.json")); // not an earlier run's rows
    String table = cli(List.of("scan", dataset), quorum, workDir.resolve("cli-scan.txt"), workDir);
    Matcher scanned = SCANNED.matcher(table);
    List<String> snapshots = new ArrayList<>();
    while (scanned.find()) {
      snapshots.add(scanned.group(2));
    }
    Path json = workDir.resolve("cli-scan.json");
    cli(List.of("scan", dataset, "--json"), quorum, json, workDir);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : Files.readAllLines(json, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        rows.add(values(parseJson(line).getAsJsonObject(), ReaderJvms::fromCommandLine));
      }
    }
    return new Read(snapshots, List.of(), rows);
  }

  /** Runs one command of snapshot-cli's jar on its launcher classpath, as {@code ./snapds} does; returns stderr. */
  private static String cli(List<String> arguments, String quorum, Path stdout, Path workDir) throws IOException,
      InterruptedException {
    Path cli = Path.of(System.getProperty("cli.dir"));
    Path jar;
    try (Stream<Path> jars = Files.list(cli)) {
      jar = jars.filter(p -> p.getFileName().toString().matches("snapshot-cli-.*(?<!-tests)\\.jar")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no snapshot-cli jar in " + cli));
    }
    List<String> classpath = new ArrayList<>(List.of(jar.toString()));
    classpath.addAll(Arrays.asList(Files.readString(cli.resolve("launcher/classpath.txt")).trim().split(":")));
    List<String> command = java(List.of("-XX:+UseSerialGC", "-Dlog4j2.configurationFile=snapds-log4j2.properties"),
        classpath);
    command.add("io.snapds.cli.Main");
    command.addAll(arguments);
    command.addAll(List.of("--zookeeper", quorum, "--tx-service", quorum, "--home", workDir.resolve("cli-home").toString()));
    Path stderr = Path.of(stdout + ".err");
    Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    await(p, command, stderr);
    return Files.readString(stderr);
  }

  /** Hive's text (InteropReadersMain): its timestamps are in UTC with no zone, a timestamptz's instant. */
  private static String fromHive(String field, JsonElement v) {
    if (v.isJsonNull()) {
      return null;
    }
    return TYPES.get(field).equals("timestamptz") ? LocalDateTime.parse(v.getAsString()).toInstant(ZoneOffset.UTC)
        .toString() : v.getAsString();
  }

  /** {@code scan --json}'s forms (snapshot-cli/README): numbers, base64 bytes, decimal and time strings. */
  private static String fromCommandLine(String field, JsonElement v) {
    if (v.isJsonNull()) {
      return null;
    }
    String s = v.getAsString();
    String type = TYPES.get(field);
    Object value = switch (type.replaceAll("\\(.*", "")) {
      case "boolean" -> v.getAsBoolean();
      case "int" -> Integer.parseInt(s);
      case "long" -> Long.parseLong(s);
      case "float" -> Float.parseFloat(s);
      case "double" -> Double.parseDouble(s);
      case "string" -> s;
      case "bytes" -> Base64.getDecoder().decode(s);
      case "decimal" -> new BigDecimal(s);
      case "date" -> LocalDate.parse(s);
      case "timestamp" -> LocalDateTime.parse(s);
      case "timestamptz" -> Instant.parse(s);
      default -> throw new IllegalArgumentException("field " + field + ": no reading of type " + type);
    };
    return ValueText.of(value);
  }

  private static Read parse(Path file, BiFunction<String, JsonElement, String> text) throws IOException {
    JsonObject result = parseJson(Files.readString(file)).getAsJsonObject();
    List<Map<String, String>> rows = new ArrayList<>();
    for (JsonElement row : result.getAsJsonArray("rows")) {
      rows.add(values(row.getAsJsonObject(), text));
    }
    return new Read(strings(result.getAsJsonArray("snapshots")),
        result.has("columns") ? strings(result.getAsJsonArray("columns")) : List.of(), rows);
  }

  /** Every field the reader gave, in its order, as canonical text. */
  private static Map<String, String> values(JsonObject row, BiFunction<String, JsonElement, String> text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : row.entrySet()) {
      if (!TYPES.containsKey(e.getKey())) {
        throw new IllegalStateException("a field the input does not have: " + e.getKey() + " in " + row);
      }
      out.put(e.getKey(), text.apply(e.getKey(), e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    array.forEach(e -> out.add(e.getAsString()));
    return out;
  }

  @SuppressWarnings("deprecation")
  private static JsonElement parseJson(String text) {
    return new JsonParser().parse(text); // Gson 2.3.1 here
  }

  private static List<String> java(List<String> options, List<String> classpath) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(System.getProperty("child.jvm.flags").trim().split("\\s+")));
    command.addAll(options);
    command.add("-cp");
    command.add(String.join(":", classpath));
    return command;
  }

  private static void run(List<String> command, Path log, Path dir) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    await(p, command, log);
  }

  /** A guard against a hung child, not a speed check: the reader fails with its log named. */
  private static void await(Process p, List<String> command, Path log) throws InterruptedException {
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(command.get(command.size() - 1) + " did not end; see " + log);
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("the reader JVM failed (exit " + p.exitValue() + "); see " + log + ": "
          + String.join(" ", command.subList(command.indexOf("-cp") + 2, command.size())));
    }
  }
}
