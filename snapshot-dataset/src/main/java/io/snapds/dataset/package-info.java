/**
 * The snapshot dataset: open, read, write, publish, expire and clean up versioned snapshots of
 * one HBase dataset under Tephra transactions. Public API (see {@code docs/api.md}), except the
 * types marked {@code @InterfaceAudience.Private}, which other modules of this project use.
 */
@InterfaceAudience.Public
package io.snapds.dataset;

import org.apache.yetus.audience.InterfaceAudience;
