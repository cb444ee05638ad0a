package io.snapds.bench;

import java.util.ArrayList;
import java.util.List;

/** One benchmark's part of the report: what was measured, the table, notes, and charts. */
final class Section {
  private final String title;
  private final StringBuilder body = new StringBuilder();
  private final List<String> misses = new ArrayList<>();
  private final List<Ratio> ratios = new ArrayList<>();

  Section(String title) {
    this.title = title;
  }

  String title() {
    return title;
  }

  Section text(String paragraph) {
    body.append(paragraph.strip()).append("\n\n");
    return this;
  }

  Section table(MarkdownTable table) {
    body.append(table.render()).append('\n');
    return this;
  }

  Section chart(String fileName, String alt) {
    body.append("![").append(alt).append("](").append(fileName).append(")\n\n");
    return this;
  }

  Section code(String text) {
    body.append("```\n").append(text.strip()).append("\n```\n\n");
    return this;
  }

  /** Records a missed target that is not a ratio; it is listed in the run's summary. */
  Section miss(String what) {
    misses.add(what);
    return this;
  }

  /**
   * Records a ratio against its baseline for the run's summary; one under its target (when it has
   * one) is also recorded as a miss.
   */
  Section ratio(Ratio ratio) {
    ratios.add(ratio);
    if (!ratio.meetsTarget()) {
      misses.add(ratio.label() + ": " + Format.ratio(ratio.value()) + ", target " + Format.ratio(ratio.target()));
    }
    return this;
  }

  List<Ratio> ratios() {
    return List.copyOf(ratios);
  }

  List<String> misses() {
    return List.copyOf(misses);
  }

  String render() {
    return "### " + title + "\n\n" + body;
  }
}
