package io.snapds.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts render to PNG files without a display. */
class ChartsTest {
  @Test
  void writesAPngOfTheRequestedSize(@TempDir Path dir) throws Exception {
    List<String> six = List.of("a", "b", "c", "d", "e", "f");
    String name = new Charts.Bars("t", "ratio", six).series("ours", List.of(1.0, 0.5, 0.9, 1.1, 0.2, 3.0))
        .series("target", java.util.Arrays.asList(0.9, 0.9, 0.95, 0.95, null, null)).save(dir, "c.png");
    assertEquals("c.png", name);
    BufferedImage image = ImageIO.read(dir.resolve("c.png").toFile());
    assertEquals(1400, image.getWidth(), "many categories: the wide layout");
    assertTrue(image.getHeight() > 0);
  }

  @Test
  void seriesMustMatchTheCategories() {
    Charts.Bars bars = new Charts.Bars("t", "y", List.of("a", "b"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> bars.series("s", List.of(1.0)));
    assertEquals("series 's' has 1 values for 2 categories", e.getMessage());
  }
}
