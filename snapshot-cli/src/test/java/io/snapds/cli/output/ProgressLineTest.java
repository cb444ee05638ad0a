package io.snapds.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The throttled progress line load and diff share, on a clock the test moves. */
class ProgressLineTest {
  private final StringWriter out = new StringWriter();
  private final AtomicLong clock = new AtomicLong();

  @Test
  void onATerminalALineRewritesItselfAtMostTwiceASecondAndTheTextIsMadeOnlyWhenPrinted() {
    ProgressLine line = new ProgressLine(new PrintWriter(out), true, clock::get);
    List<String> asked = new ArrayList<>();
    clock.set(499_999_999L);
    line.update(() -> text(asked, "a"));
    clock.set(500_000_000L);
    line.update(() -> text(asked, "b"));
    clock.set(999_999_999L);
    line.update(() -> text(asked, "c"));
    clock.set(1_000_000_000L);
    line.update(() -> text(asked, "d"));
    line.finish("e");
    assertEquals("\rb\rd\re" + System.lineSeparator(), out.toString());
    assertEquals(List.of("b", "d"), asked);
  }

  @Test
  void intoAFileALineOfItsOwnEveryFiveSecondsAndTheFinalLineIsNotRepeated() {
    ProgressLine line = new ProgressLine(new PrintWriter(out), false, clock::get);
    clock.set(4_999_999_999L);
    line.update(() -> "early");
    clock.set(5_000_000_000L);
    line.update(() -> "five");
    line.finish("five");
    String n = System.lineSeparator();
    assertEquals("five" + n, out.toString());
  }

  private static String text(List<String> asked, String text) {
    asked.add(text);
    return text;
  }
}
