package io.snapds.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.yetus.audience.InterfaceAudience;
import org.junit.jupiter.api.Test;

/**
 * The module's public types are the ones docs/api.md lists under {@code io.snapds.spark}, as the
 * core's ArchitectureTest checks its own: public, top-level or nested, and not marked Private.
 */
class PublicApiTest {
  private static final Pattern LISTED = Pattern.compile("^- `(io\\.snapds\\.spark\\.[A-Za-z.]+)`", Pattern.MULTILINE);

  @Test
  void publicTypesAreTheDocumentedOnes() throws IOException, ClassNotFoundException {
    String doc = Files.readString(Path.of("..", "docs", "api.md"));
    int start = doc.indexOf("### `io.snapds.spark`");
    String section = doc.substring(start, doc.indexOf("\n### ", start + 1));
    Set<String> listed = new TreeSet<>();
    Matcher m = LISTED.matcher(section);
    while (m.find()) {
      listed.add(m.group(1));
    }
    Set<String> found = new TreeSet<>();
    Path classes = Path.of("target", "classes", "io", "snapds", "spark");
    try (Stream<Path> files = Files.list(classes)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = f.getFileName().toString().replace(".class", "");
        if (name.equals("package-info") || name.matches(".*\\$\\d+.*")) {
          continue;
        }
        Class<?> c = Class.forName("io.snapds.spark." + name);
        boolean visible = Modifier.isPublic(c.getModifiers())
            && (c.getEnclosingClass() == null || Modifier.isPublic(c.getEnclosingClass().getModifiers()));
        if (visible && !c.isAnnotationPresent(InterfaceAudience.Private.class)) {
          found.add(c.getName().replace('$', '.'));
        }
      }
    }
    assertEquals(listed, found, "public types of io.snapds.spark and docs/api.md's list");
  }
}
