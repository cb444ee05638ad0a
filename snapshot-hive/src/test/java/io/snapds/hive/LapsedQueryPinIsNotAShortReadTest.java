package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.CleanupResult;
import io.snapds.dataset.SnapshotCleanedException;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.io.IOException;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 1 for Hive: a task whose query pin lapsed (its session stopped renewing it) may
 * find its snapshot cleaned under it. It must then fail, never end its split with fewer rows and
 * no error. (Before, the record reader simply ran out of rows: the query returned a short result.)
 */
@ExtendWith(MiniClusterExtension.class)
class LapsedQueryPinIsNotAShortReadTest {

  @Test
  void aSplitWhoseSnapshotIsCleanedUnderItFails() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    Prices prices = Prices.create(hive, "lapsed");
    SnapshotId old = prices.publish(1, 50).id();
    prices.publish(2, 5);

    JobConf job = new JobConf(hive.conf());
    job.set(HiveTableProperties.DATASET, prices.id.toString());
    job.set(HiveTableProperties.COLUMNS_MAPPING, Prices.MAPPING);
    job.set("snapds.hive.columns", "sku,price,qty,name,active,ts,raw");
    job.set("snapds.hive.column.types", "string,double,int,string,boolean,timestamp,binary");
    job.set(HiveTableProperties.PINNED_SNAPSHOT, old.toString());
    HiveSnapshotInputFormat format = new HiveSnapshotInputFormat();
    InputSplit[] splits = format.getSplits(job, 1);
    assertEquals(1, splits.length);

    RecordReader<ImmutableBytesWritable, HiveSnapshotRow> reader = format.getRecordReader(splits[0], job, Reporter.NULL);
    try {
      ImmutableBytesWritable key = reader.createKey();
      HiveSnapshotRow value = reader.createValue();
      assertTrue(reader.next(key, value), "the task read its first row");

      // no pin holds the old snapshot any more (the query's pin lapsed): it expires and is cleaned
      prices.dataset.expireSnapshots().expire(old).commit();
      CleanupResult cleaned = prices.dataset.cleanup();
      assertTrue(cleaned.cleaned().contains(old), "cleanup deleted the old snapshot's rows: " + cleaned);

      IOException failure = assertThrows(IOException.class, () -> {
        while (reader.next(key, value)) {
          // read on: rows the scanner had fetched still come, then the end of the split must fail
        }
      });
      assertInstanceOf(SnapshotCleanedException.class, failure.getCause(), failure.toString());
      assertTrue(failure.getMessage().contains(old.toString()), failure.getMessage());
    } finally {
      reader.close();
    }
  }
}
