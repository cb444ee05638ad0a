/**
 * The distributed write shared by the engines whose tasks write into a snapshot their driver
 * began: the task side ({@link io.snapds.dataset.write.SnapshotTaskWriter}) on the
 * {@link io.snapds.dataset.SnapshotHandle} the driver hands out. Internal: shared by the project's
 * modules, not public API.
 */
@InterfaceAudience.Private
package io.snapds.dataset.write;

import org.apache.yetus.audience.InterfaceAudience;
