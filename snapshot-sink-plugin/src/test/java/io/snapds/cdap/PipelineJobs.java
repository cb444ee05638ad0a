package io.snapds.cdap;

import io.cdap.cdap.api.data.batch.Input;
import io.cdap.cdap.api.data.batch.InputFormatProvider;
import io.cdap.cdap.api.data.batch.Output;
import io.cdap.cdap.api.data.batch.OutputFormatProvider;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.dataset.lib.KeyValue;
import io.cdap.cdap.etl.api.Emitter;
import io.cdap.cdap.etl.api.InvalidEntry;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.mapreduce.SnapshotRecordWritable;
import io.snapds.dataset.mapreduce.SnapshotRowWritable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

/**
 * Map-only MapReduce jobs on the local job runner that run a stage's task side as the pipeline
 * engine does: each task builds the plugin from its properties, calls {@code initialize} with a
 * runtime context that sees the driver's arguments, and {@code transform}s its records, writing
 * through the format the stage added in prepareRun.
 */
final class PipelineJobs {
  private static final String PROPERTY = "test.plugin.property.";
  private static final String ARGUMENT = "test.plugin.argument.";
  private static final String FAIL_AT = "test.fail.at";

  /** Snapshot ids that sink tasks recorded in initialize (the local runner's tasks share this JVM). */
  static final Set<SnapshotId> INITIALIZED = ConcurrentHashMap.newKeySet();
  /** The records sink tasks transform: {@code RECORDS.apply(i)} for each index; AllTypes' unless a test sets others. */
  static volatile java.util.function.IntFunction<StructuredRecord> records = AllTypes::record;
  /** The input schema of sink tasks, matching {@link #records}. */
  static volatile io.cdap.cdap.api.data.schema.Schema inputSchema = AllTypes.SCHEMA;

  /** Records that source tasks emitted. */
  static final List<StructuredRecord> EMITTED = new CopyOnWriteArrayList<>();

  private PipelineJobs() {
  }

  /**
   * Runs the sink's tasks over records {@code AllTypes.record(i)} for each i in {@code indexes},
   * split into two input files (two map tasks). {@code failAt}: a record index whose task fails.
   */
  static boolean runSinkJob(Configuration base, Path workDir, Map<String, String> properties, FakeContext driver,
      List<Integer> indexes, Integer failAt) throws Exception {
    INITIALIZED.clear();
    Output output = driver.outputs().get(0);
    OutputFormatProvider provider = ((Output.OutputFormatProviderOutput) output).getOutputFormatProvider();
    Job job = job(base, properties, driver, provider.getOutputFormatConfiguration());
    if (failAt != null) {
      job.getConfiguration().setInt(FAIL_AT, failAt);
    }
    Files.createDirectories(workDir);
    int half = indexes.size() / 2;
    write(workDir.resolve("part-0.txt"), indexes.subList(0, half));
    write(workDir.resolve("part-1.txt"), indexes.subList(half, indexes.size()));
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(workDir.toUri()));
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(SinkMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(SnapshotRowWritable.class);
    job.setOutputFormatClass(Class.forName(provider.getOutputFormatClassName()).asSubclass(OutputFormat.class));
    return job.waitForCompletion(false);
  }

  /**
   * Runs the source's tasks over the input the source set in prepareRun; returns the emitted
   * records. The pin the input took stays: the source's onRunFinish releases it.
   */
  static List<StructuredRecord> runSourceJob(Configuration base, Map<String, String> properties, FakeContext driver)
      throws Exception {
    EMITTED.clear();
    Input input = driver.inputs().get(0);
    InputFormatProvider provider = ((Input.InputFormatProviderInput) input).getInputFormatProvider();
    Job job = job(base, properties, driver, provider.getInputFormatConfiguration());
    job.setInputFormatClass(Class.forName(provider.getInputFormatClassName()).asSubclass(InputFormat.class));
    job.setMapperClass(SourceMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(NullOutputFormat.class);
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException("the source job failed");
    }
    return new ArrayList<>(EMITTED);
  }

  private static Job job(Configuration base, Map<String, String> properties, FakeContext driver,
      Map<String, String> formatConfiguration) throws IOException {
    Configuration conf = new Configuration(base);
    conf.set("mapreduce.framework.name", "local");
    formatConfiguration.forEach(conf::set);
    properties.forEach((k, v) -> conf.set(PROPERTY + k, v));
    driver.arguments().forEach((k, v) -> conf.set(ARGUMENT + k, v));
    return Job.getInstance(conf, "pipeline-stage-job");
  }

  private static void write(Path file, List<Integer> indexes) throws IOException {
    List<String> lines = new ArrayList<>();
    indexes.forEach(i -> lines.add(String.valueOf(i)));
    Files.write(file, lines);
  }

  private static Map<String, String> withPrefix(Configuration conf, String prefix) {
    Map<String, String> out = new HashMap<>();
    conf.forEach(e -> {
      if (e.getKey().startsWith(prefix)) {
        out.put(e.getKey().substring(prefix.length()), e.getValue());
      }
    });
    return out;
  }

  private static FakeContext taskContext(Configuration conf) {
    return FakeContext.builder().stage("snapshots").inputSchema(inputSchema)
        .arguments(withPrefix(conf, ARGUMENT)).build();
  }

  /** A sink task: initialize, then transform each record, writing through the stage's output. */
  public static final class SinkMapper extends Mapper<LongWritable, Text, NullWritable, SnapshotRowWritable> {
    private SnapshotSink sink;
    private int failAt;

    @Override
    protected void setup(Context context) throws IOException {
      Configuration conf = context.getConfiguration();
      sink = new SnapshotSink(PluginConfigs.create(SnapshotSinkConfig.class, withPrefix(conf, PROPERTY)));
      try {
        sink.initialize(taskContext(conf).runtimeContext());
      } catch (Exception e) {
        throw new IOException(e);
      }
      INITIALIZED.add(sink.writingSnapshot().orElseThrow());
      failAt = conf.getInt(FAIL_AT, -1);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException {
      int i = Integer.parseInt(line.toString().trim());
      if (i == failAt) {
        throw new IOException("task fails on record " + i + " (as asked)");
      }
      sink.transform(records.apply(i), new TaskEmitter<>(kv -> {
        try {
          context.write(kv.getKey(), kv.getValue());
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
    }
  }

  /** A source task: initialize, then transform each row into records. */
  public static final class SourceMapper extends Mapper<ImmutableBytesWritable, SnapshotRecordWritable, NullWritable, NullWritable> {
    private SnapshotSource source;

    @Override
    protected void setup(Context context) throws IOException {
      Configuration conf = context.getConfiguration();
      source = new SnapshotSource(PluginConfigs.create(SnapshotSourceConfig.class, withPrefix(conf, PROPERTY)));
      try {
        source.initialize(taskContext(conf).runtimeContext());
      } catch (Exception e) {
        throw new IOException(e);
      }
    }

    @Override
    protected void map(ImmutableBytesWritable key, SnapshotRecordWritable row, Context context) {
      source.transform(new KeyValue<>(key, row), new TaskEmitter<>(EMITTED::add));
    }
  }

  /** An emitter that hands records on; errors and alerts are not expected here. */
  private static final class TaskEmitter<T> implements Emitter<T> {
    private final java.util.function.Consumer<T> target;

    TaskEmitter(java.util.function.Consumer<T> target) {
      this.target = target;
    }

    @Override
    public void emit(T value) {
      target.accept(value);
    }

    @Override
    public void emitAlert(Map<String, String> payload) {
      throw new UnsupportedOperationException("alert " + payload);
    }

    @Override
    public void emitError(InvalidEntry<T> invalidEntry) {
      throw new UnsupportedOperationException("error " + invalidEntry.getErrorMsg());
    }
  }
}
