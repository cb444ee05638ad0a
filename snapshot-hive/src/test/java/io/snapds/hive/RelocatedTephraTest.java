package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.tephra.distributed.TransactionServiceClient;
import org.junit.jupiter.api.Test;

/**
 * The Tephra this module runs on is snapshot-tephra-relocated's: one jar with Tephra's classes and
 * its libthrift 0.9.3 under {@code io.snapds.shaded.thrift}, none of them referring to Hive's
 * {@code org.apache.thrift}.
 */
class RelocatedTephraTest {
  private static final byte[] UNRELOCATED = "org/apache/thrift/".getBytes(StandardCharsets.US_ASCII);

  @Test
  void tephraAndItsThriftComeFromTheRelocatedJarAndReferToNoUnrelocatedThrift() throws Exception {
    Path tephraJar = location(TransactionServiceClient.class);
    assertTrue(tephraJar.getFileName().toString().startsWith("snapshot-tephra-relocated-"), tephraJar.toString());
    assertEquals(tephraJar, location(Class.forName("io.snapds.shaded.thrift.transport.TFramedTransport")),
        "Tephra's thrift is relocated into the same jar");

    List<String> unrelocated = new ArrayList<>();
    int tephraClasses = 0;
    try (JarFile jar = new JarFile(tephraJar.toFile())) {
      for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
        JarEntry e = entries.nextElement();
        if (e.getName().startsWith("org/apache/thrift/")) {
          unrelocated.add(e.getName());
        } else if (e.getName().endsWith(".class") && refersToUnrelocatedThrift(jar, e)) {
          unrelocated.add(e.getName() + " (a reference)");
        }
        if (e.getName().startsWith("org/apache/tephra/") && e.getName().endsWith(".class")) {
          tephraClasses++;
        }
      }
    }
    assertTrue(tephraClasses > 500, "Tephra's classes are in the jar: " + tephraClasses);
    assertEquals(List.of(), unrelocated, "nothing in " + tephraJar + " names org.apache.thrift");
  }

  private static Path location(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Whether the class file's constant pool holds the text {@code org/apache/thrift/}. */
  private static boolean refersToUnrelocatedThrift(JarFile jar, JarEntry e) throws IOException {
    byte[] bytes;
    try (InputStream in = jar.getInputStream(e)) {
      bytes = in.readAllBytes();
    }
    outer:
    for (int i = 0; i <= bytes.length - UNRELOCATED.length; i++) {
      for (int j = 0; j < UNRELOCATED.length; j++) {
        if (bytes[i + j] != UNRELOCATED[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
