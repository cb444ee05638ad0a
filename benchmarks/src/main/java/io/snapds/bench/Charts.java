package io.snapds.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** PNG bar charts for the report (XChart, headless). */
final class Charts {
  private static final Color[] COLORS = {
      new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd)};

  private Charts() {}

  /** A grouped bar chart: one group per category, one bar per series. */
  static final class Bars {
    private final String title;
    private final String yAxis;
    private final List<String> categories;
    private final Map<String, List<Double>> series = new LinkedHashMap<>();

    Bars(String title, String yAxis, List<String> categories) {
      this.title = title;
      this.yAxis = yAxis;
      this.categories = List.copyOf(categories);
    }

    /** A series; a null value draws no bar (for example a figure without a target). */
    Bars series(String name, List<Double> values) {
      if (values.size() != categories.size()) {
        throw new IllegalArgumentException("series '" + name + "' has " + values.size() + " values for "
            + categories.size() + " categories");
      }
      series.put(name, java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values)));
      return this;
    }

    /** Writes {@code dir/fileName} (a .png name) and returns the file name for the markdown link. */
    String save(Path dir, String fileName) throws IOException {
      // no slanted labels: XChart places them off their bars
      boolean many = categories.size() > 4;
      CategoryChart chart = new CategoryChartBuilder().width(many ? 1400 : 760).height(many ? 460 : 400).title(title)
          .yAxisTitle(yAxis).build();
      Styler styler = chart.getStyler();
      styler.setLegendPosition(Styler.LegendPosition.OutsideS);
      styler.setLegendLayout(Styler.LegendLayout.Horizontal);
      if (many) {
        chart.getStyler().setAxisTickLabelsFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 11));
      }
      styler.setChartBackgroundColor(Color.WHITE);
      styler.setPlotBackgroundColor(Color.WHITE);
      styler.setSeriesColors(COLORS);
      chart.getStyler().setLabelsVisible(true);
      chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
      chart.getStyler().setLabelsFontColor(Color.BLACK);
      chart.getStyler().setDecimalPattern("#,##0.##");
      series.forEach((name, values) -> chart.addSeries(name, categories, values));
      Path out = dir.resolve(fileName);
      BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
      return fileName;
    }
  }
}
