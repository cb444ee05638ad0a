package io.snapds.hive;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.tx.JobDatasets;
import io.snapds.dataset.tx.TephraServiceClientFactory;
import io.snapds.dataset.mapreduce.SnapshotMapReduceUtil;
import io.snapds.dataset.mapreduce.SnapshotRecordInputFormat;
import io.snapds.dataset.mapreduce.SnapshotRecordSplit;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.read.SnapshotSelector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.ql.DriverFactory;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.exec.FetchTask;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.hive.serde2.FetchFormatter;
import org.apache.hadoop.hive.serde2.SerDeUtils;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.PrimitiveObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.StructField;
import org.apache.hadoop.hive.serde2.objectinspector.StructObjectInspector;
import org.apache.hadoop.hive.serde2.typeinfo.DecimalTypeInfo;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.tephra.TxConstants;

/**
 * Two readers of one dataset on a real cluster, for integration-tests-cdap's interoperability test
 * (#15), in a JVM of their own (Hive cannot share one with CDAP): Hive 4.1, embedded, with a table
 * created with no column list ({@code STORED BY ... TBLPROPERTIES('snapds.dataset'=...)}) and
 * {@code SELECT *} on it, and a MapReduce job (LocalJobRunner) over {@link SnapshotRecordInputFormat}.
 * Both reach HBase through the cluster's ZooKeeper and Tephra's transaction service through its
 * ZooKeeper announcement, as on a cluster: with the default {@link TephraServiceClientFactory},
 * whose thrift is snapshot-tephra-relocated's, beside Hive's thrift 0.16.
 *
 * <p>Arguments: ZooKeeper {@code host:port}, the dataset {@code ns:name}, an output directory.
 * Writes {@code hive.json} and
 * {@code mapreduce.json}: {@code {"snapshots": [ids read], "columns": [...], "rows": [{field: text}]}},
 * values as text: bytes in HBase's printable form ({@code Bytes.toStringBinary}), decimals at
 * their column's scale, dates {@code yyyy-MM-dd}, timestamps as {@code LocalDateTime} text (Hive's
 * timestamps are in UTC), anything else its {@code toString}.
 */
public final class InteropReadersMain {
  private static final ObjectMapper JSON = new ObjectMapper();

  private InteropReadersMain() {}

  public static void main(String[] args) throws Exception {
    String quorum = args[0];
    DatasetId dataset = DatasetId.parse(args[1]);
    Path out = Path.of(args[2]);
    Configuration base = new Configuration();
    base.set("hbase.zookeeper.quorum", quorum.substring(0, quorum.lastIndexOf(':')));
    base.set("hbase.zookeeper.property.clientPort", quorum.substring(quorum.lastIndexOf(':') + 1));
    base.set(TxConstants.Service.CFG_DATA_TX_ZOOKEEPER_QUORUM, quorum);
    // the default client, named only because the test hive-site.xml names the tests' in-process one
    base.set(JobDatasets.TX_CLIENT_FACTORY, TephraServiceClientFactory.class.getName());
    base.set("hadoop.tmp.dir", out.resolve("hadoop-tmp").toString());
    base.set("mapreduce.framework.name", "local");
    Files.createDirectories(out);
    write(out.resolve("mapreduce.json"), mapReduce(base, dataset, out.resolve("mapreduce-out")));
    write(out.resolve("hive.json"), hive(base, dataset));
    System.exit(0); // HBase's and ZooKeeper's client threads would keep the JVM
  }

  private static void write(Path file, Map<String, Object> result) throws IOException {
    Files.writeString(file, JSON.writeValueAsString(result));
  }

  /** {@code CREATE EXTERNAL TABLE} with no column list, then {@code SELECT *}. */
  private static Map<String, Object> hive(Configuration base, DatasetId dataset) throws Exception {
    HiveConf conf = new HiveConf(base, HiveConf.class);
    for (Map.Entry<String, String> e : base) {
      conf.set(e.getKey(), e.getValue()); // over hive-site.xml's test settings
    }
    conf.set(SerDeUtils.LIST_SINK_OUTPUT_FORMATTER, JavaValues.class.getName());
    SessionState session = SessionState.start(new SessionState(conf));
    run(session, "CREATE EXTERNAL TABLE golden STORED BY '" + SnapshotStorageHandler.class.getName()
        + "' TBLPROPERTIES ('" + HiveTableProperties.DATASET + "'='" + dataset + "')");
    IDriver driver = DriverFactory.newDriver(session.getConf());
    try {
      driver.compileAndRespond("SELECT * FROM golden");
      // the snapshot the compiled query pinned (the plan is gone once the results are fetched)
      FetchTask fetch = driver.getPlan().getFetchTask();
      String pinned = fetch == null ? null
          : fetch.getTblDesc().getJobProperties().get(HiveTableProperties.PINNED_SNAPSHOT);
      driver.run();
      List<String> names = new ArrayList<>();
      List<String> columns = new ArrayList<>();
      for (FieldSchema f : driver.getSchema().getFieldSchemas()) {
        String name = f.getName().substring(f.getName().lastIndexOf('.') + 1);
        names.add(name);
        columns.add(name + " " + f.getType());
      }
      List<Object> batch = new ArrayList<>();
      List<Map<String, String>> rows = new ArrayList<>();
      while (driver.getResults(batch)) {
        for (Object r : batch) {
          if (!(r instanceof List<?> values)) {
            throw new IllegalStateException("Hive did not use " + JavaValues.class.getName() + ": " + r);
          }
          Map<String, String> row = new LinkedHashMap<>();
          for (int i = 0; i < names.size(); i++) {
            row.put(names.get(i), (String) values.get(i));
          }
          rows.add(row);
        }
        batch.clear();
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("snapshots", pinned == null ? List.of() : List.of(pinned));
      result.put("columns", columns);
      result.put("rows", rows);
      return result;
    } finally {
      driver.close();
    }
  }

  private static void run(SessionState session, String statement) throws Exception {
    IDriver driver = DriverFactory.newDriver(session.getConf());
    try {
      driver.run(statement);
    } finally {
      driver.close();
    }
  }

  /** Hive's row as the list of its values' texts (the fetch formatter of {@code SELECT *}). */
  public static final class JavaValues implements FetchFormatter<List<String>> {
    @Override
    public void initialize(Configuration hconf, Properties props) {}

    @Override
    public List<String> convert(Object row, ObjectInspector rowOI) {
      StructObjectInspector struct = (StructObjectInspector) rowOI;
      List<String> out = new ArrayList<>();
      for (StructField f : struct.getAllStructFieldRefs()) {
        Object data = struct.getStructFieldData(row, f);
        out.add(data == null ? null : text((PrimitiveObjectInspector) f.getFieldObjectInspector(), data));
      }
      return out;
    }

    private static String text(PrimitiveObjectInspector oi, Object data) {
      Object v = oi.getPrimitiveJavaObject(data);
      if (v == null) {
        return null;
      }
      return switch (oi.getPrimitiveCategory()) {
        case BINARY -> Bytes.toStringBinary((byte[]) v);
        case DECIMAL -> ((HiveDecimal) v).bigDecimalValue().setScale(((DecimalTypeInfo) oi.getTypeInfo()).getScale())
            .toString();
        case DATE -> LocalDate.ofEpochDay(((Date) v).toEpochDay()).toString();
        case TIMESTAMP -> LocalDateTime.ofEpochSecond(((Timestamp) v).toEpochSecond(), ((Timestamp) v).getNanos(),
            ZoneOffset.UTC).toString();
        default -> v.toString();
      };
    }

    @Override
    public void close() {}
  }

  /** A job over the typed records of the dataset's current snapshot; one JSON line per record. */
  private static Map<String, Object> mapReduce(Configuration base, DatasetId dataset, Path dir) throws Exception {
    Job job = Job.getInstance(new Configuration(base), "interop-typed-read");
    SnapshotRecordInputFormat.setInput(job, dataset, SnapshotSelector.current());
    job.setMapperClass(RecordsMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(dir.toUri()));
    if (!SnapshotMapReduceUtil.runJob(job, false)) {
      throw new IllegalStateException("the MapReduce job failed: " + job.getStatus());
    }
    TreeSet<String> snapshots = new TreeSet<>();
    List<Map<String, String>> rows = new ArrayList<>();
    List<Path> parts;
    try (Stream<Path> files = Files.list(dir)) {
      parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
    }
    for (Path part : parts) {
      for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
        @SuppressWarnings("unchecked")
        Map<String, Object> record = JSON.readValue(line, Map.class);
        snapshots.add((String) record.get("snapshot"));
        @SuppressWarnings("unchecked")
        Map<String, String> values = (Map<String, String>) record.get("values");
        rows.add(values);
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("snapshots", new ArrayList<>(snapshots));
    result.put("rows", rows);
    return result;
  }

  /** Each typed record as {"snapshot": its split's snapshot id, "values": {field: text}}. */
  public static final class RecordsMapper extends Mapper<ImmutableBytesWritable, SnapshotRecordWritable, NullWritable, Text> {
    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRecordWritable value, Context context)
        throws IOException, InterruptedException {
      Map<String, String> values = new LinkedHashMap<>();
      value.record().toMap().forEach((k, v) -> values.put(k, v == null ? null
          : v instanceof byte[] b ? Bytes.toStringBinary(b) : v.toString()));
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("snapshot", ((SnapshotRecordSplit) context.getInputSplit()).split().snapshotId().toString());
      record.put("values", values);
      context.write(NullWritable.get(), new Text(JSON.writeValueAsString(record)));
    }
  }
}
