package io.snapds.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * docs/spark.md's setup without the bundle, run: {@code spark-submit --packages io.snapds:...:<version>
 * --repositories <the project's repository>,<a repository of third-party jars>}. Spark's own
 * {@code SparkSubmit} runs in a child JVM whose class path is Spark's jars
 * ({@link SparkChildJvm#sparksJars}, plus any jar a test adds); it resolves the modules and their
 * poms' dependencies with Ivy, as {@code spark-submit} does, and runs the README's Spark example
 * ({@link ReadmeExampleMain}, in a small application jar made here) against the test JVM's mini
 * cluster ({@link ReadmeExampleCluster}).
 *
 * <p>The project's repository is laid out under {@code target/} as {@code mvn deploy} would lay out
 * a snapshot (timestamped files, {@code maven-metadata.xml}, checksums): the parent pom, and the
 * jar and pom of {@code snapshot-dataset}, {@code snapshot-spark} and {@code snapshot-tephra-relocated}
 * (its dependency-reduced pom, which is what deploy uploads), taken from the reactor as they are.
 * The third-party jars come from the local Maven repository, where the build downloaded them.
 * Spark's own resolvers are kept off the network and off the user's local repository: the child's
 * {@code user.home} is a directory of its own (Spark reads its "local m2 cache" from there) and
 * {@code DEFAULT_ARTIFACT_REPOSITORY}, which Spark puts in place of Maven Central and
 * spark-packages, is an empty directory. So only the repositories given resolve: the project's,
 * the local one, and Maven Central last ({@link #CENTRAL}).
 */
final class SparkSubmitPackages {
  static final String GROUP = "io.snapds";
  /**
   * Maven Central, last: for a third-party artifact the build did not download. Ivy settles some
   * version conflicts differently from Maven (it takes the newest), so on a fresh machine, where
   * the local repository holds only what this build has downloaded so far, it may ask for a jar or
   * pom Maven never fetched; a user's --packages reaches Central the same way. The project's own
   * artifacts are not there (each resolved snapds jar is checked to be the reactor's).
   */
  static final String CENTRAL = System.getProperty("snapds.it.central", "https://repo1.maven.org/maven2/");

  private SparkSubmitPackages() {}

  /** The local Maven repository the build resolved from. */
  static Path localRepository() {
    return Path.of(System.getProperty("snapds.m2.repository",
        Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
  }

  /**
   * Runs the README's example through {@code SparkSubmit --packages} of {@code modules} (artifact ids
   * of this project), with {@code --exclude-packages excludes} unless null, on Spark's jars plus
   * {@code extraSparkJars}; checks what {@link ReadmeExampleCluster#assertExampleRan} checks, that
   * the connector and HBase's client were loaded from the resolved jars, and that each snapds jar
   * resolved is the reactor's. Returns the {@code result:} lines.
   */
  static List<String> runReadmeExample(List<String> modules, String excludes, List<String> extraSparkJars)
      throws Exception {
    String version = System.getProperty("snapds.version");
    assertTrue(version != null && !version.isBlank(), "system property snapds.version (set by the module's pom)");
    Path work = Path.of("target", "packages-it").toAbsolutePath();
    deleteTree(work);
    Path repository = work.resolve("repository");
    Reactor reactor = Reactor.find(version);
    deployed(repository, "snapds-parent", version, reactor.parentPom(), null);
    deployed(repository, "snapshot-dataset", version, reactor.pom("snapshot-dataset"), reactor.jar("snapshot-dataset"));
    deployed(repository, "snapshot-spark", version, reactor.pom("snapshot-spark"), reactor.jar("snapshot-spark"));
    deployed(repository, "snapshot-tephra-relocated", version, reactor.reducedPom("snapshot-tephra-relocated"),
        reactor.jar("snapshot-tephra-relocated"));
    Path app = applicationJar(work.resolve("readme-example.jar"));
    Path ivy = work.resolve("ivy");
    Path home = Files.createDirectories(work.resolve("home"));
    Path noCentral = Files.createDirectories(work.resolve("no-central"));

    try (ReadmeExampleCluster cluster = ReadmeExampleCluster.start()) {
      String port = cluster.zookeeperPort();
      List<String> submit = new ArrayList<>(List.of("org.apache.spark.deploy.SparkSubmit",
          "--master", "local[2]",
          "--packages", modules.stream().map(m -> GROUP + ":" + m + ":" + version).collect(Collectors.joining(",")),
          "--repositories", repository.toUri() + "," + localRepository().toUri() + "," + CENTRAL));
      if (excludes != null) {
        submit.addAll(List.of("--exclude-packages", excludes));
      }
      submit.addAll(List.of(
          "--conf", "spark.jars.ivy=" + ivy,
          "--conf", "spark.ui.enabled=false",
          "--conf", "spark.sql.shuffle.partitions=2",
          "--conf", "spark.hadoop.hbase.zookeeper.quorum=localhost",
          "--conf", "spark.hadoop.hbase.zookeeper.property.clientPort=" + port,
          "--conf", "spark.hadoop.data.tx.zookeeper.quorum=localhost:" + port,
          "--conf", "spark.sql.catalog.snapds=io.snapds.spark.SnapshotCatalog",
          "--class", ReadmeExampleMain.class.getName(),
          app.toString()));
      List<String> sparks = new ArrayList<>(SparkChildJvm.sparksJars());
      sparks.addAll(extraSparkJars);

      List<String> out = SparkChildJvm.run("packages-example-", List.of("-Duser.home=" + home), sparks, submit,
          Map.of("DEFAULT_ARTIFACT_REPOSITORY", noCentral.toUri().toString()));

      cluster.assertExampleRan(out);
      Path jars = ivy.resolve("jars");
      String resolved = "/target/packages-it/ivy/jars/";
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: snapds classes from ")
          && l.endsWith(resolved + GROUP + "_snapshot-spark-" + version + ".jar")),
          "the connector came from the resolved packages: " + out);
      assertTrue(out.stream().anyMatch(l -> l.startsWith("result: hbase client from ")
          && l.contains(resolved + "org.apache.hbase_hbase-client-")),
          "HBase's client came from the resolved packages: " + out);
      List<String> snapds = new ArrayList<>(List.of("snapshot-dataset"));
      snapds.addAll(modules);
      for (String module : snapds) {
        assertArrayEquals(Files.readAllBytes(reactor.jar(module)),
            Files.readAllBytes(jars.resolve(GROUP + "_" + module + "-" + version + ".jar")),
            module + " resolved from the project's repository, as built");
      }
      return out;
    }
  }

  /**
   * Puts an artifact into {@code repository} as {@code mvn deploy} does: a release under its
   * version, a snapshot as a timestamped build 1 with its {@code maven-metadata.xml}; SHA-1 files
   * beside each file.
   */
  private static void deployed(Path repository, String artifact, String version, Path pom, Path jar) throws Exception {
    Path dir = Files.createDirectories(repository.resolve(GROUP.replace('.', '/')).resolve(artifact).resolve(version));
    String fileVersion = version;
    if (version.endsWith("-SNAPSHOT")) {
      ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
      String timestamp = now.format(DateTimeFormatter.ofPattern("yyyyMMdd.HHmmss"));
      String updated = now.format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
      fileVersion = version.substring(0, version.length() - "-SNAPSHOT".length()) + "-" + timestamp + "-1";
      StringBuilder versions = new StringBuilder();
      for (String extension : jar == null ? List.of("pom") : List.of("jar", "pom")) {
        versions.append("      <snapshotVersion><extension>").append(extension).append("</extension><value>")
            .append(fileVersion).append("</value><updated>").append(updated).append("</updated></snapshotVersion>\n");
      }
      writeWithChecksum(dir.resolve("maven-metadata.xml"), ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<metadata modelVersion=\"1.1.0\">\n"
          + "  <groupId>" + GROUP + "</groupId>\n  <artifactId>" + artifact + "</artifactId>\n"
          + "  <version>" + version + "</version>\n"
          + "  <versioning>\n"
          + "    <snapshot><timestamp>" + timestamp + "</timestamp><buildNumber>1</buildNumber></snapshot>\n"
          + "    <lastUpdated>" + updated + "</lastUpdated>\n"
          + "    <snapshotVersions>\n" + versions + "    </snapshotVersions>\n"
          + "  </versioning>\n</metadata>\n").getBytes(StandardCharsets.UTF_8));
    }
    writeWithChecksum(dir.resolve(artifact + "-" + fileVersion + ".pom"), Files.readAllBytes(pom));
    if (jar != null) {
      writeWithChecksum(dir.resolve(artifact + "-" + fileVersion + ".jar"), Files.readAllBytes(jar));
    }
    writeWithChecksum(dir.getParent().resolve("maven-metadata.xml"), ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<metadata>\n  <groupId>" + GROUP + "</groupId>\n  <artifactId>" + artifact + "</artifactId>\n"
        + "  <versioning>\n    <latest>" + version + "</latest>\n"
        + "    <versions><version>" + version + "</version></versions>\n  </versioning>\n</metadata>\n")
        .getBytes(StandardCharsets.UTF_8));
  }

  private static void writeWithChecksum(Path file, byte[] content) throws Exception {
    Files.write(file, content);
    byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(content);
    Files.writeString(file.resolveSibling(file.getFileName() + ".sha1"), HexFormat.of().formatHex(sha1));
  }

  /** A jar holding {@link ReadmeExampleMain} only: the user's application. */
  private static Path applicationJar(Path jar) throws Exception {
    String entry = ReadmeExampleMain.class.getName().replace('.', '/') + ".class";
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry(entry));
      out.write(Files.readAllBytes(Path.of(SparkChildJvm.testClasses()).resolve(entry)));
      out.closeEntry();
    }
    return jar;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The reactor this module is built in: its parent pom, and each module's pom.xml and packaged jar. */
  private record Reactor(Path root, String version) {
    static Reactor find(String version) {
      Path root = Path.of("").toAbsolutePath().getParent();
      assertTrue(Files.isRegularFile(root.resolve("pom.xml")) && Files.isDirectory(root.resolve("snapshot-spark")),
          "the reactor's root above " + Path.of("").toAbsolutePath());
      return new Reactor(root, version);
    }

    Path parentPom() {
      return root.resolve("pom.xml");
    }

    Path pom(String module) {
      return root.resolve(module).resolve("pom.xml");
    }

    /** The pom the shade plugin writes for a module whose jar it replaces: what install and deploy publish. */
    Path reducedPom(String module) {
      Path pom = root.resolve(module).resolve("dependency-reduced-pom.xml");
      assertTrue(Files.isRegularFile(pom), "no " + pom + ": run the package phase of " + module + " first");
      return pom;
    }

    Path jar(String module) {
      Path jar = root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
      assertTrue(Files.isRegularFile(jar), "no " + jar + ": run the package phase of " + module + " first");
      return jar;
    }
  }
}
