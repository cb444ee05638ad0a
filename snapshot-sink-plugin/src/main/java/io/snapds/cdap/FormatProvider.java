package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.InputFormatProvider;
import io.cdap.cdap.api.data.batch.OutputFormatProvider;
import java.util.Map;

/** A format class name and the configuration it runs with: what CDAP asks of an input or output. */
final class FormatProvider implements InputFormatProvider, OutputFormatProvider {
  private final String className;
  private final Map<String, String> configuration;

  FormatProvider(String className, Map<String, String> configuration) {
    this.className = className;
    this.configuration = Map.copyOf(configuration);
  }

  @Override
  public String getInputFormatClassName() {
    return className;
  }

  @Override
  public Map<String, String> getInputFormatConfiguration() {
    return configuration;
  }

  @Override
  public String getOutputFormatClassName() {
    return className;
  }

  @Override
  public Map<String, String> getOutputFormatConfiguration() {
    return configuration;
  }

  @Override
  public String toString() {
    return className + configuration;
  }
}
