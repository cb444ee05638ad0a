/**
 * The Spark connector: {@code format("snapds")} ({@link io.snapds.spark.SnapshotTableProvider})
 * and the catalog ({@link io.snapds.spark.SnapshotCatalog}), on the core's reading package and
 * task writer. Public API: the two entry points by name, their options and the behaviour
 * documented in {@code docs/spark.md} and {@code docs/api.md}; every other type here is internal.
 */
@InterfaceAudience.Public
package io.snapds.spark;

import org.apache.yetus.audience.InterfaceAudience;
