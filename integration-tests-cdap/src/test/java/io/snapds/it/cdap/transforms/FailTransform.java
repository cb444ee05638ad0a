package io.snapds.it.cdap.transforms;

import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.etl.api.Emitter;
import io.cdap.cdap.etl.api.PipelineConfigurer;
import io.cdap.cdap.etl.api.Transform;

/** A test stage that fails the run at the record whose field {@code name} is {@code failOn}. */
@Plugin(type = Transform.PLUGIN_TYPE)
@Name(FailTransform.NAME)
public class FailTransform extends Transform<StructuredRecord, StructuredRecord> {
  public static final String NAME = "TestFail";

  private final GateConfig config;

  public FailTransform(GateConfig config) {
    this.config = config;
  }

  @Override
  public void configurePipeline(PipelineConfigurer configurer) {
    configurer.getStageConfigurer().setOutputSchema(configurer.getStageConfigurer().getInputSchema());
  }

  @Override
  public void transform(StructuredRecord input, Emitter<StructuredRecord> emitter) {
    if (config.failOn != null && config.failOn.equals(input.get("name"))) {
      throw new IllegalStateException("test stage fails the run at record '" + config.failOn + "'");
    }
    emitter.emit(input);
  }
}
