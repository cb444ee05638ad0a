package io.snapds.cdap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cdap.cdap.etl.api.validation.CauseAttributes;
import io.cdap.cdap.etl.api.validation.ValidationException;
import io.cdap.cdap.etl.api.validation.ValidationFailure;
import io.cdap.cdap.etl.mock.common.MockPipelineConfigurer;
import io.snapds.dataset.DatasetId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The publish action's configurePipeline against CDAP's MockPipelineConfigurer, and its group ids. */
class SnapshotPublishConfigTest {

  private static List<ValidationFailure> configure(Map<String, String> properties) {
    return configure(properties, Set.of());
  }

  private static List<ValidationFailure> configure(Map<String, String> properties, Set<String> macros) {
    SnapshotPublishAction action = new SnapshotPublishAction(
        PluginConfigs.create(SnapshotPublishConfig.class, properties, macros));
    try {
      action.configurePipeline(new MockPipelineConfigurer(null));
      return List.of();
    } catch (ValidationException e) {
      return e.getFailures();
    }
  }

  private static ValidationFailure single(List<ValidationFailure> failures) {
    assertEquals(1, failures.size(), () -> "failures: " + failures.stream().map(ValidationFailure::getMessage)
        .collect(Collectors.toList()));
    return failures.get(0);
  }

  private static Set<String> properties(ValidationFailure f) {
    return f.getCauses().stream().map(c -> c.getAttribute(CauseAttributes.STAGE_CONFIG))
        .filter(a -> a != null).collect(Collectors.toSet());
  }

  @Test
  void datasetsAreQualifiedOrInTheDefaultNamespaceInTheOrderGiven() {
    assertEquals(List.of(), configure(Map.of("datasets", "shop:orders, order_lines ,")));
    SnapshotPublishConfig config = PluginConfigs.create(SnapshotPublishConfig.class,
        Map.of("datasets", "shop:orders, order_lines ,"));
    assertEquals(List.of(DatasetId.of("shop", "orders"), DatasetId.of("default", "order_lines")), config.datasets());
  }

  @Test
  void noDatasetABadOneOrOneTwiceIsReportedNamingIt() {
    ValidationFailure none = single(configure(Map.of("datasets", " , ")));
    assertEquals("No dataset to publish.", none.getMessage());
    assertEquals(Set.of("datasets"), properties(none));
    ValidationFailure bad = single(configure(Map.of("datasets", "shop:orders,shop:or/ders")));
    assertTrue(bad.getMessage().startsWith("Invalid datasets: invalid dataset 'shop:or/ders'"), bad.getMessage());
    assertEquals(Set.of("datasets"), properties(bad));
    ValidationFailure twice = single(configure(Map.of("datasets", "orders,default:orders")));
    assertTrue(twice.getMessage().contains("dataset 'default:orders' is listed twice"), twice.getMessage());
    // a macro is checked when the run starts
    assertEquals(List.of(), configure(Map.of("datasets", "${tables}"), Set.of("datasets")));
  }

  @Test
  void aBadConnectionPropertyIsReportedAsForTheSink() {
    ValidationFailure f = single(configure(Map.of("datasets", "orders", "hbaseProperties", "a=1,oops")));
    assertEquals(Set.of("hbaseProperties"), properties(f));
  }

  @Test
  void theGroupIdIsAValidIdThatTheSameRunIdAlwaysGives() {
    Pattern valid = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    assertEquals("cdap:default.wap.publish stage_.1764000000000".replace(' ', '_'),
        SnapshotPublishAction.groupId("default.wap.publish stage/.1764000000000"));
    String longRun = "x".repeat(1024);
    String id = SnapshotPublishAction.groupId(longRun);
    assertTrue(valid.matcher(id).matches(), id);
    assertEquals(id, SnapshotPublishAction.groupId(longRun));
    assertNotEquals(id, SnapshotPublishAction.groupId("x".repeat(1023) + "y"));
  }
}
