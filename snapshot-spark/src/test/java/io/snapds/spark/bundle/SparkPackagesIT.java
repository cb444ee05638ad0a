package io.snapds.spark.bundle;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spark-submit --packages io.snapds:snapshot-spark:<version> --repositories ...} on Spark's
 * jars as this build resolves Spark 4.0.1 (no Hive support, so no libthrift): the plain command of
 * docs/spark.md, with no exclusions ({@link SparkSubmitPackages}).
 */
class SparkPackagesIT {
  @Test
  void theReadmeExampleRunsWithTheModuleFromARepositoryThroughSparkSubmitPackages() throws Exception {
    SparkSubmitPackages.runReadmeExample(List.of("snapshot-spark"), null, List.of());
  }
}
