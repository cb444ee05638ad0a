package io.snapds.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.RowScan;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.ql.exec.SerializationUtilities;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFIn;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPAnd;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPLessThan;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The input format on its own, as Hive drives it: a pushed key predicate in the job must narrow
 * what the record readers return, also when the range crosses a region boundary of the data
 * table. Here nothing re-checks the rows, so a dropped predicate shows as extra rows.
 */
@ExtendWith(MiniClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HiveSnapshotInputFormatTest {
  private static final int ROWS = 60;
  private Prices prices;
  private SnapshotId current;

  @BeforeAll
  void setUp() throws Exception {
    EmbeddedHive hive = EmbeddedHive.get();
    prices = Prices.create(hive, "inputformat");
    prices.publish(1, 10);
    SnapshotInfo published = prices.publish(2, ROWS);
    current = published.id();
    // split the data table inside the current snapshot, at sku030
    MiniCluster cluster = MiniCluster.get();
    cluster.util().getAdmin().split(prices.id.dataTable(), published.keys().rowKey(Bytes.toBytes("sku030")));
    cluster.util().waitFor(60_000, () -> cluster.util().getAdmin().getRegions(prices.id.dataTable()).size() == 2);
  }

  private JobConf job(ExprNodeGenericFuncDesc pushed) {
    JobConf job = new JobConf(EmbeddedHive.get().conf());
    job.set(HiveTableProperties.DATASET, prices.id.toString());
    job.set(HiveTableProperties.COLUMNS_MAPPING, Prices.MAPPING);
    job.set("snapds.hive.columns", "sku,price,qty,name,active,ts,raw");
    job.set("snapds.hive.column.types", "string,double,int,string,boolean,timestamp,binary");
    job.set(HiveTableProperties.PINNED_SNAPSHOT, current.toString());
    if (pushed != null) {
      job.set(TableScanDesc.FILTER_EXPR_CONF_STR, SerializationUtilities.serializeExpression(pushed));
    }
    return job;
  }

  private List<String> read(JobConf job) throws Exception {
    HiveSnapshotInputFormat format = new HiveSnapshotInputFormat();
    List<String> keys = new ArrayList<>();
    for (InputSplit split : format.getSplits(job, 1)) {
      try (RecordReaderCloser r = new RecordReaderCloser(format.getRecordReader(split, job, Reporter.NULL))) {
        ImmutableBytesWritable key = r.reader.createKey();
        HiveSnapshotRow value = r.reader.createValue();
        while (r.reader.next(key, value)) {
          keys.add(Bytes.toString(value.row().key()));
        }
      }
    }
    return keys;
  }

  private List<String> javaKeys(String from, String to) {
    return prices.rows(current, RowScan.all().range(Bytes.toBytes(from), Bytes.toBytes(to))).stream()
        .map(r -> Prices.column(r, 0)).collect(Collectors.toList());
  }

  @Test
  void splitsFollowRegionsAndCoverTheSnapshotOnce() throws Exception {
    InputSplit[] splits = new HiveSnapshotInputFormat().getSplits(job(null), 1);
    assertEquals(2, splits.length, "one split per region of the snapshot");
    List<String> all = read(job(null));
    assertEquals(javaKeys("sku000", "sku999"), all);
    assertEquals(ROWS, all.size());
  }

  @Test
  void pushedEqualityReturnsOneRow() throws Exception {
    assertEquals(List.of("sku042"), read(job(call(new GenericUDFOPEqual(), key(), string("sku042")))));
  }

  @Test
  void pushedRangeAcrossTheRegionBoundary() throws Exception {
    ExprNodeGenericFuncDesc range = call(new GenericUDFOPAnd(),
        call(new GenericUDFOPEqualOrGreaterThan(), key(), string("sku025")),
        call(new GenericUDFOPLessThan(), key(), string("sku035")));
    List<String> keys = read(job(range));
    assertEquals(javaKeys("sku025", "sku035"), keys);
    assertEquals(10, keys.size());
  }

  @Test
  void pushedInReturnsItsKeysOnly() throws Exception {
    ExprNodeGenericFuncDesc in = call(new GenericUDFIn(), key(), string("sku059"), string("sku001"), string("zzz"));
    assertEquals(List.of("sku001", "sku059"), read(job(in)));
  }

  @Test
  void readsThePinnedSnapshotNotTheCurrentOne() throws Exception {
    SnapshotId older = prices.dataset.retainedSnapshots().get(1).id();
    JobConf job = job(null);
    job.set(HiveTableProperties.PINNED_SNAPSHOT, older.toString());
    List<String> keys = read(job);
    assertEquals(10, keys.size());
    assertTrue(older.compareTo(current) < 0);
  }

  private static ExprNodeDesc key() {
    return new ExprNodeColumnDesc(TypeInfoFactory.stringTypeInfo, "sku", "t", false);
  }

  private static ExprNodeDesc string(String s) {
    return new ExprNodeConstantDesc(TypeInfoFactory.stringTypeInfo, s);
  }

  private static ExprNodeGenericFuncDesc call(GenericUDF udf, ExprNodeDesc... args) {
    return new ExprNodeGenericFuncDesc(TypeInfoFactory.booleanTypeInfo, udf, List.of(args));
  }

  private static final class RecordReaderCloser implements AutoCloseable {
    final RecordReader<ImmutableBytesWritable, HiveSnapshotRow> reader;

    RecordReaderCloser(RecordReader<ImmutableBytesWritable, HiveSnapshotRow> reader) {
      this.reader = reader;
    }

    @Override
    public void close() throws Exception {
      reader.close();
    }
  }
}
