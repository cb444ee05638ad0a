/**
 * The shipped example of an idempotent consumer: when a source dataset publishes, a MapReduce
 * job derives a snapshot of another dataset from exactly that snapshot, under a run id derived
 * from the event. Public API, as an example to copy from.
 */
@InterfaceAudience.Public
package io.snapds.events.example;

import org.apache.yetus.audience.InterfaceAudience;
