package io.snapds.dataset.mapreduce;

import io.snapds.dataset.StorageException;
import java.io.IOException;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.mapreduce.Job;

/**
 * On a Kerberos-secured cluster, the job's tasks cannot log in themselves: the submitting
 * process (logged in, for example with {@code snapds --principal --keytab}) obtains an HBase
 * delegation token and puts it in the job's credentials, exactly as
 * {@link TableMapReduceUtil#initCredentials} does for HBase's own formats. A no-op on a cluster
 * without Kerberos.
 */
final class JobCredentials {
  private JobCredentials() {}

  static void obtain(Job job) {
    try {
      TableMapReduceUtil.initCredentials(job);
    } catch (IOException e) {
      throw new StorageException("obtaining an HBase delegation token for job " + job.getJobName(), e);
    }
  }
}
