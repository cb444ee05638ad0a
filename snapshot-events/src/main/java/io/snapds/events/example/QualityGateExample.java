package io.snapds.events.example;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotDatasets;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.events.AuditChecks;
import io.snapds.events.AuditGate;
import io.snapds.events.CheckResult;
import io.snapds.events.EventConsumer;
import java.math.BigDecimal;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The event-driven quality gate, as two consumers of a price list's events (write, audit, publish;
 * docs/events.md, "The audit gate"). The loader stages each new price list
 * ({@code writer.stage()}) instead of publishing it; then
 *
 * <ol>
 *   <li>the <b>audit</b> consumer ({@link #auditConsumer}, position {@value #AUDIT_CONSUMER}) runs
 *       the checks of {@link #gate} on each STAGED snapshot and publishes it or discards it, once;
 *   <li>the <b>job</b> consumer ({@link #jobConsumer}, position {@value #JOB_CONSUMER}) starts the
 *       downstream job of each PUBLISHED snapshot, once ({@link StartJobOnPublish}).
 * </ol>
 *
 * <p>Each runs in its own process, in the loop of {@link EventConsumer}:
 *
 * <pre>{@code
 * try (EventConsumer audit = QualityGateExample.auditConsumer(datasets, QualityGateExample.gate(datasets).build());
 *      KafkaConsumer<String, String> kafka = new KafkaConsumer<>(props)) {   // enable.auto.commit=false
 *   kafka.subscribe(List.of("snapds.events"));
 *   while (running) {
 *     audit.pollKafka(kafka, Duration.ofSeconds(1));   // or audit.pollOutbox(prices, 100) without Kafka
 *   }
 * }
 * }</pre>
 *
 * <p>Killing either process at any point and starting it again changes nothing: the audit's
 * decision is recorded in the snapshot's record in one metadata transaction (a redelivered STAGED
 * event finds it and decides nothing new), and the job's start is idempotent per run id. The
 * rows: key = product id, column {@code d:price} = the price as a decimal string.
 */
public final class QualityGateExample {
  /** The audit consumer's name: its position row in the dataset. */
  public static final String AUDIT_CONSUMER = "audit-gate";
  /** The job consumer's name. */
  public static final String JOB_CONSUMER = "downstream-job";

  private QualityGateExample() {
  }

  /**
   * The gate's checks: the row count within 20% of the snapshot it was staged on, no row without a
   * price, and a check of the example's own, every price positive. Build it, or add a
   * {@link AuditGate.Builder#beforeDecision hook} first.
   */
  public static AuditGate.Builder gate(SnapshotDatasets datasets) {
    return AuditGate.builder(datasets)
        .check("row count", AuditChecks.rowCountWithin(0.2))
        .check("no missing price", AuditChecks.noMissingValue("d", "price"))
        .check("prices positive", QualityGateExample::pricesArePositive);
  }

  /** A user check: every price present is a decimal above zero. One scan of the column. */
  public static CheckResult pricesArePositive(SnapshotDataset dataset, SnapshotInfo staged) {
    long rows = 0;
    try (RowScanner scanner = dataset.readSnapshot(staged.id()).scan(RowScan.all().column("d", "price"))) {
      for (SnapshotRow r : scanner) {
        rows++;
        String price = Bytes.toString(r.value("d", "price"));
        BigDecimal value;
        try {
          value = new BigDecimal(price);
        } catch (NumberFormatException e) {
          return CheckResult.fail("key '" + r.keyAsString() + "' has price '" + price + "', not a number");
        }
        if (value.signum() <= 0) {
          return CheckResult.fail("key '" + r.keyAsString() + "' has price " + price + ", not above zero");
        }
      }
    }
    return CheckResult.pass(rows + " prices above zero");
  }

  /** The audit consumer: the gate on the events of every dataset it is given. */
  public static EventConsumer auditConsumer(SnapshotDatasets datasets, AuditGate gate) {
    return new EventConsumer(datasets, AUDIT_CONSUMER, gate);
  }

  /** The job consumer: a downstream job per PUBLISHED snapshot of {@code source}. */
  public static EventConsumer jobConsumer(SnapshotDatasets datasets, DatasetId source, JobLauncher launcher) {
    return new EventConsumer(datasets, JOB_CONSUMER, new StartJobOnPublish(source, launcher));
  }
}
