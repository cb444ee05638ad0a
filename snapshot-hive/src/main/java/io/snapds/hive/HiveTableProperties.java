package io.snapds.hive;

/** The table properties and settings the storage handler reads, and the job properties it writes. */
public final class HiveTableProperties {
  /** Table property: the dataset, {@code namespace:name}. Required. */
  public static final String DATASET = "snapds.dataset";
  /** Table property: the column mapping, see {@link ColumnMappings}. Required. */
  public static final String COLUMNS_MAPPING = "snapds.columns.mapping";
  /** Session setting or table property: read this snapshot id instead of the current one. */
  public static final String SNAPSHOT_ID = "snapds.snapshot.id";
  /**
   * Session setting or table property: read the snapshot that was current at this time, an
   * ISO-8601 instant ({@code 2026-11-30T08:00:00Z}) or epoch milliseconds.
   */
  public static final String SNAPSHOT_AS_OF = "snapds.snapshot.asof";
  /**
   * Session setting or table property: read the snapshot this tag names when the query is
   * compiled (the tag is exact, case included; the query form {@code db.table.tag_<name>} is
   * folded to lower case by Hive's parser).
   */
  public static final String SNAPSHOT_TAG = "snapds.snapshot.tag";
  /**
   * Table property or session setting, {@code true} or {@code false} (default): an
   * {@code INSERT OVERWRITE} stages its snapshot instead of publishing it (write, audit, publish):
   * complete and readable by id ({@code FOR SYSTEM_VERSION AS OF}, {@link #SNAPSHOT_ID}), but not
   * current until {@code SnapshotDataset.publish} (or {@code snapds publish}) makes it so. The
   * table property wins over the session setting.
   */
  public static final String WRITE_STAGE = "snapds.write.stage";
  /**
   * Session setting written by a staging {@code INSERT OVERWRITE} once its snapshot is staged: the
   * staged snapshot's id (the last one this session staged), for {@code SET snapds.write.staged.snapshot}
   * or {@code FOR SYSTEM_VERSION AS OF ${hiveconf:snapds.write.staged.snapshot}}.
   */
  public static final String STAGED_SNAPSHOT = "snapds.write.staged.snapshot";
  /**
   * Session setting or table property: read the rows that differ between this snapshot and
   * {@link #DIFF_TO} instead of one snapshot: {@code current}, a snapshot id, {@code tag:NAME} or
   * {@code @TIME} (a time as {@link #SNAPSHOT_AS_OF} takes it). Each of the two is read from the
   * table property first, then from the session setting; both must be set, or neither.
   */
  public static final String DIFF_FROM = "snapds.diff.from";
  /** Session setting or table property: the newer snapshot of a diff, see {@link #DIFF_FROM}. */
  public static final String DIFF_TO = "snapds.diff.to";
  /**
   * The change-type column of a diff: ADDED, REMOVED or CHANGED (NULL when the table reads one
   * snapshot). Mapped as {@code :change} in {@link #COLUMNS_MAPPING}; a table that takes its
   * columns from the dataset's schema gets it first, under this name, while it reads a diff.
   */
  public static final String CHANGE_COLUMN = "snapds_change";

  /** Setting: how long a query's reader pin keeps its snapshot from cleanup, seconds (default 86400). */
  public static final String PIN_TTL_SECONDS = "snapds.reader.pin.ttl.seconds";

  /** Job property written at compile time: the snapshot id every scan of the query reads. */
  public static final String PINNED_SNAPSHOT = "snapds.snapshot.pinned";

  /** Job property written at compile time: the older snapshot id of the diff the query reads. */
  public static final String PINNED_DIFF_FROM = "snapds.diff.pinned.from";
  /** Job property written at compile time: the newer snapshot id of the diff the query reads. */
  public static final String PINNED_DIFF_TO = "snapds.diff.pinned.to";

  /** Hadoop counter group of the record reader. */
  public static final String COUNTER_GROUP = "snapds";
  /**
   * Counter: rows the record readers returned to Hive (after the key ranges were applied); for a
   * diff, the changes they returned.
   */
  public static final String ROWS_READ = "ROWS_READ";

  /** Counter: the diff splits the record readers read (one per piece between region starts of either snapshot). */
  public static final String DIFF_SPLITS = "DIFF_SPLITS";

  private HiveTableProperties() {}
}
