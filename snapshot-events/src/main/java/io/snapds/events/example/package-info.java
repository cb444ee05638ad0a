/**
 * The shipped examples of idempotent consumers, public API to copy from: when a source dataset
 * publishes, a MapReduce job derives a snapshot of another dataset from exactly that snapshot,
 * under a run id derived from the event ({@link io.snapds.events.example.DerivedSnapshotJob}); and
 * the event-driven quality gate, a consumer that audits each staged snapshot and publishes or
 * discards it, and one that starts a downstream job per published snapshot
 * ({@link io.snapds.events.example.QualityGateExample}); and a consumer of changes that keeps a
 * plain HBase table equal to the current snapshot from the rows each publish changed
 * ({@link io.snapds.events.example.TableMirror}).
 */
@InterfaceAudience.Public
package io.snapds.events.example;

import org.apache.yetus.audience.InterfaceAudience;
