/**
 * The reading core every engine adapter is built on: the read plan
 * ({@link io.snapds.dataset.read.SnapshotRead}: pin, schema, plan, renew, release) and the
 * process's held pins ({@link io.snapds.dataset.read.PinRegistry}); which snapshot to read
 * ({@link io.snapds.dataset.read.SnapshotSelector}, resolved and pinned once), the splits of one
 * snapshot along the data table's regions ({@link io.snapds.dataset.read.SplitPlanner},
 * {@link io.snapds.dataset.read.ReadSplit}) and the reader of one split
 * ({@link io.snapds.dataset.read.SplitReader}). Free of MapReduce and Hive types: the MapReduce
 * formats ({@code snapshot-mapreduce}), the Hive storage handler and the CDAP source wrap it.
 * Public API, except the types marked {@code @InterfaceAudience.Private}.
 */
@InterfaceAudience.Public
package io.snapds.dataset.read;

import org.apache.yetus.audience.InterfaceAudience;
