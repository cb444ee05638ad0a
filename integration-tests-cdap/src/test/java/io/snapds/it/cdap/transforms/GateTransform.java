package io.snapds.it.cdap.transforms;

import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.annotation.Plugin;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.etl.api.Emitter;
import io.cdap.cdap.etl.api.PipelineConfigurer;
import io.cdap.cdap.etl.api.Transform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * A test stage that holds a pipeline run in the middle of reading: at its first record it
 * creates {@code <dir>/entered}, then passes nothing on until {@code <dir>/open} exists (at most
 * five minutes, then it fails the run). Lets a test publish into a dataset while a source reads it.
 */
@Plugin(type = Transform.PLUGIN_TYPE)
@Name(GateTransform.NAME)
public class GateTransform extends Transform<StructuredRecord, StructuredRecord> {
  public static final String NAME = "TestGate";
  private static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private final GateConfig config;
  private boolean opened;

  public GateTransform(GateConfig config) {
    this.config = config;
  }

  @Override
  public void configurePipeline(PipelineConfigurer configurer) {
    configurer.getStageConfigurer().setOutputSchema(configurer.getStageConfigurer().getInputSchema());
  }

  @Override
  public void transform(StructuredRecord input, Emitter<StructuredRecord> emitter) throws Exception {
    if (!opened) {
      Path dir = Path.of(config.dir);
      try {
        Files.createDirectories(dir);
        if (!Files.exists(dir.resolve("entered"))) {
          Files.createFile(dir.resolve("entered"));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Instant giveUp = Instant.now().plus(LONGEST_WAIT);
      while (!Files.exists(dir.resolve("open"))) {
        if (Instant.now().isAfter(giveUp)) {
          throw new IllegalStateException("the gate " + dir + " was not opened within " + LONGEST_WAIT);
        }
        Thread.sleep(100);
      }
      opened = true;
    }
    emitter.emit(input);
  }
}
