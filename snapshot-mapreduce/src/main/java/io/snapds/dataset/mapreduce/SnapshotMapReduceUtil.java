package io.snapds.dataset.mapreduce;

import io.snapds.dataset.read.SnapshotSelector;
import com.google.inject.assistedinject.FactoryModuleBuilder;
import dev.failsafe.Failsafe;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import it.unimi.dsi.fastutil.longs.LongList;
import java.io.IOException;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.thrift.TException;
import org.apache.tephra.Transaction;
import org.apache.tephra.distributed.TransactionServiceClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The common job setups, in the style of HBase's {@code TableMapReduceUtil}: read a snapshot with a
 * mapper, write a snapshot from a reducer (or a map-only job), copy a snapshot into a new snapshot
 * of another dataset; and {@link #runJob}, which submits a job, waits for it and then releases
 * what its submission held.
 * <pre>{@code
 * Job job = Job.getInstance(conf, "copy prices");
 * SnapshotMapReduceUtil.initSnapshotCopyJob(source, SnapshotSelector.current(), target, "prices-2026-11-30", job, true);
 * boolean ok = SnapshotMapReduceUtil.runJob(job, true);
 * }</pre>
 */
public final class SnapshotMapReduceUtil {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotMapReduceUtil.class);

  private SnapshotMapReduceUtil() {}

  /**
   * Maps over the snapshot of {@code dataset} that {@code selector} names at submission. The
   * mapper gets the user's row key and a {@link SnapshotRowWritable}; a null output class leaves
   * that setting alone.
   */
  @SuppressWarnings("rawtypes")
  public static void initSnapshotMapperJob(DatasetId dataset, SnapshotSelector selector,
      Class<? extends Mapper> mapper, Class<?> outputKeyClass, Class<?> outputValueClass, Job job,
      boolean addDependencyJars) throws IOException {
    SnapshotInputFormat.setInput(job, dataset, selector);
    job.setMapperClass(mapper);
    if (outputKeyClass != null) {
      job.setMapOutputKeyClass(outputKeyClass);
    }
    if (outputValueClass != null) {
      job.setMapOutputValueClass(outputValueClass);
    }
    if (addDependencyJars) {
      addDependencyJars(job);
    }
  }

  /**
   * Writes the job's output (values are {@link SnapshotRowWritable}s) as a new snapshot of
   * {@code dataset}, published when the job succeeds. {@code runId} may be null; a run id is
   * published at most once. {@code reducer} may be null for a map-only job.
   */
  @SuppressWarnings("rawtypes")
  public static void initSnapshotReducerJob(DatasetId dataset, String runId, Class<? extends Reducer> reducer,
      Job job, boolean addDependencyJars) throws IOException {
    SnapshotOutputFormat.setOutput(job, dataset, runId);
    if (reducer != null) {
      job.setReducerClass(reducer);
    }
    job.setOutputKeyClass(ImmutableBytesWritable.class);
    job.setOutputValueClass(SnapshotRowWritable.class);
    if (addDependencyJars) {
      addDependencyJars(job);
    }
  }

  /** A map-only job that copies a snapshot of {@code source}, row for row, into a new snapshot of {@code target}. */
  public static void initSnapshotCopyJob(DatasetId source, SnapshotSelector selector, DatasetId target,
      String runId, Job job, boolean addDependencyJars) throws IOException {
    initSnapshotMapperJob(source, selector, Mapper.class, ImmutableBytesWritable.class,
        SnapshotRowWritable.class, job, false);
    initSnapshotReducerJob(target, runId, null, job, addDependencyJars);
    job.setNumReduceTasks(0);
  }

  /**
   * Ships the jars of HBase, Tephra and this library with the job (not needed by the local runner):
   * what the application master and the tasks need beyond a Hadoop node's own classpath. Each jar
   * is named by a class only it holds: {@code tephra-api} by {@code Transaction}
   * ({@code TransactionSystemClient} is in {@code tephra-core-shaded} too, so naming it shipped only
   * that jar), Tephra's Thrift ({@code libthrift}) by {@code TException}, Guice's assisted
   * inject, which Tephra's distributed module is wired with, by {@code FactoryModuleBuilder}, and
   * fastutil, which Tephra's client decodes transactions with, by {@code LongList}. None of the
   * four is on a Hadoop node; without them the application master of every writing job on YARN
   * died in {@code setupJob} with {@code NoClassDefFoundError}. Guice itself is on every Hadoop 3
   * node (YARN's own). The core reports its metrics through Micrometer, which no Hadoop node has
   * either: {@code micrometer-core}, {@code -commons} and {@code -observation} go too, and
   * HdrHistogram (Micrometer's runtime dependency for histograms) when the client has it.
   */
  public static void addDependencyJars(Job job) throws IOException {
    TableMapReduceUtil.addDependencyJars(job);
    java.util.List<Class<?>> classes = new java.util.ArrayList<>(java.util.List.of(SnapshotDataset.class,
        Transaction.class, TransactionServiceClient.class, TException.class, FactoryModuleBuilder.class,
        LongList.class, Failsafe.class, io.micrometer.core.instrument.MeterRegistry.class,
        io.micrometer.common.KeyValue.class, io.micrometer.observation.Observation.class));
    try {
      classes.add(Class.forName("org.HdrHistogram.Histogram", false, SnapshotMapReduceUtil.class.getClassLoader()));
    } catch (ClassNotFoundException e) {
      // not on this client: its metrics have no histograms, and neither will the tasks'
    }
    TableMapReduceUtil.addDependencyJarsForClasses(job.getConfiguration(), classes.toArray(new Class<?>[0]));
  }

  /**
   * Submits {@code job}, waits for it to end, and then releases what its submission held: the
   * reader pin of a {@link SnapshotInputFormat} job, the renewal of a {@link SnapshotOutputFormat}
   * job's writer lease, and the begun snapshot of a
   * {@link SnapshotOutputFormat} job whose submission failed (a job that ran is published, or
   * staged, or aborted by its committer). A staging job's snapshot is
   * {@link SnapshotOutputFormat#outputSnapshot}.
   *
   * @return whether the job succeeded
   */
  public static boolean runJob(Job job, boolean verbose)
      throws IOException, InterruptedException, ClassNotFoundException {
    try {
      job.submit();
    } catch (IOException | InterruptedException | ClassNotFoundException | RuntimeException e) {
      SnapshotInputFormat.releasePin(job);
      try {
        if (SnapshotOutputFormat.abortUnsubmitted(job.getConfiguration())) {
          LOG.info("submission of job '{}' failed: aborted the snapshot it had begun", job.getJobName());
        }
      } catch (IOException | RuntimeException abortFailure) {
        e.addSuppressed(abortFailure);
      }
      throw e;
    }
    try {
      boolean succeeded = job.waitForCompletion(verbose);
      if (succeeded && SnapshotOutputFormat.stage(job.getConfiguration())) {
        SnapshotOutputFormat.outputSnapshot(job.getConfiguration()).ifPresent(id -> LOG.info(
            "job '{}' ran with staging: its snapshot is {} of {} (SnapshotOutputFormat.outputSnapshot); audit it, then"
                + " publish or discard it",
            job.getJobName(), id, SnapshotOutputFormat.dataset(job.getConfiguration())));
      }
      return succeeded;
    } finally {
      SnapshotInputFormat.releasePin(job);
      SnapshotOutputFormat.releaseLease(job.getConfiguration());
    }
  }
}
