/**
 * MapReduce input and output formats over snapshots (new API). Public API, except the types marked
 * {@code @InterfaceAudience.Private}, which the Hive and CDAP adapters share.
 */
@InterfaceAudience.Public
package io.snapds.dataset.mapreduce;

import org.apache.yetus.audience.InterfaceAudience;
