package io.snapds.dataset.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * An HBase cluster in memory, for the protocol simulation: namespaces, tables with their
 * descriptors, rows of multi-versioned cells with HBase's delete markers (a marker hides every
 * version at or below its timestamp, also versions written after it, until a major compaction),
 * and regions that split and merge. Each call is atomic (one monitor), as one row's mutation is in
 * HBase; what HBase does per region (a scan's batches, a buffered mutator's flush) the clients in
 * {@link SimConnection} do region by region, with a yield point before each region so that other
 * actors can run in between.
 *
 * <p>Filters are HBase's own objects, applied the way a region scanner applies them (row key,
 * then each cell, then the row), so the production code's filters behave here as on a cluster.
 */
public final class SimHBase {
  /** Called before every storage call of a client thread; the scheduler parks the caller there. */
  private volatile Consumer<String> yieldPoint = what -> {};
  private final Set<String> namespaces = new HashSet<>(Set.of("default", "hbase"));
  private final Map<TableName, TableState> tables = new HashMap<>();
  /**
   * HBase's server timestamps, in milliseconds: here a counter, so that runs repeat exactly. Like a
   * region server's clock it does not move at every mutation: two mutations of one millisecond get
   * the same timestamp (a delete then hides a put of its millisecond), about one time in three.
   */
  private long serverTime = 1_000_000L;
  private final java.util.Random sameMillisecond;
  private boolean holdMillisecond;

  public SimHBase() {
    this(0);
  }

  /** @param seed draws which mutations share their millisecond with the one before */
  public SimHBase(long seed) {
    this.sameMillisecond = new java.util.Random(seed);
  }
  private long regionIds = 1;
  private long calls;

  public void onYield(Consumer<String> hook) {
    this.yieldPoint = hook;
  }

  void yieldPoint(String what) {
    yieldPoint.accept(what);
  }

  public synchronized long calls() {
    return calls;
  }

  // ---- namespaces and tables ----

  synchronized boolean namespaceExists(String ns) {
    return namespaces.contains(ns);
  }

  synchronized void createNamespace(String ns) throws IOException {
    if (!namespaces.add(ns)) {
      throw new NamespaceExistException(ns);
    }
  }

  synchronized void requireNamespace(String ns) throws IOException {
    if (!namespaces.contains(ns)) {
      throw new NamespaceNotFoundException(ns);
    }
  }

  public synchronized List<TableName> tableNames() {
    return new ArrayList<>(tables.keySet());
  }

  public synchronized boolean tableExists(TableName name) {
    return tables.containsKey(name);
  }

  synchronized void createTable(TableDescriptor desc, byte[][] splitKeys) throws IOException {
    requireNamespace(desc.getTableName().getNamespaceAsString());
    if (tables.containsKey(desc.getTableName())) {
      throw new TableExistsException(desc.getTableName());
    }
    TableState t = new TableState(desc, regionIds++);
    if (splitKeys != null) {
      for (byte[] k : splitKeys) {
        t.regions.put(k, regionIds++);
      }
    }
    tables.put(desc.getTableName(), t);
  }

  synchronized void deleteTable(TableName name) throws IOException {
    TableState t = table(name);
    if (t.enabled) {
      throw new TableNotEnabledException("table " + name + " must be disabled to be deleted");
    }
    tables.remove(name);
  }

  synchronized void setEnabled(TableName name, boolean enabled) throws IOException {
    table(name).enabled = enabled;
  }

  synchronized boolean isEnabled(TableName name) throws IOException {
    return table(name).enabled;
  }

  synchronized TableDescriptor descriptor(TableName name) throws IOException {
    return table(name).desc;
  }

  synchronized void setDescriptor(TableName name, TableDescriptor desc) throws IOException {
    table(name).desc = desc;
  }

  /** HBase's truncate: a new empty table with the same descriptor (and the same regions if kept). */
  synchronized void truncate(TableName name, boolean preserveSplits) throws IOException {
    TableState old = table(name);
    if (old.enabled) {
      throw new org.apache.hadoop.hbase.TableNotDisabledException(name);
    }
    TableState t = new TableState(old.desc, regionIds++);
    t.enabled = true;
    if (preserveSplits) {
      for (byte[] k : old.regions.keySet()) {
        if (k.length > 0) {
          t.regions.put(k, regionIds++);
        }
      }
    }
    tables.put(name, t);
  }

  private TableState table(TableName name) throws TableNotFoundException {
    TableState t = tables.get(name);
    if (t == null) {
      throw new TableNotFoundException(name);
    }
    return t;
  }

  private TableState usable(TableName name) throws IOException {
    TableState t = table(name);
    if (!t.enabled) {
      throw new TableNotEnabledException(name);
    }
    calls++;
    return t;
  }

  // ---- regions ----

  /** One region: [start, end) with end empty for the last, and its id (a new one after a split or merge). */
  public record Region(byte[] start, byte[] end, long id) {
    boolean contains(byte[] row) {
      return Bytes.compareTo(row, start) >= 0 && (end.length == 0 || Bytes.compareTo(row, end) < 0);
    }
  }

  public synchronized List<Region> regions(TableName name) throws IOException {
    return table(name).regionList();
  }

  public synchronized Region regionOf(TableName name, byte[] row) throws IOException {
    return table(name).regionOf(row);
  }

  /** The region just below the one that starts at {@code start} (which is not the first). */
  synchronized Region regionBefore(TableName name, byte[] start) throws IOException {
    TableState t = table(name);
    return t.regionOf(t.regions.lowerKey(start));
  }

  /** The last region of {@code name}. */
  synchronized Region lastRegion(TableName name) throws IOException {
    List<Region> all = table(name).regionList();
    return all.get(all.size() - 1);
  }

  /** Splits the region holding {@code point} there; false when {@code point} already starts a region. */
  public synchronized boolean split(TableName name, byte[] point) throws IOException {
    TableState t = table(name);
    if (point.length == 0 || t.regions.containsKey(point)) {
      return false;
    }
    Map.Entry<byte[], Long> holder = t.regions.floorEntry(point);
    t.regions.put(holder.getKey(), regionIds++);
    t.regions.put(point, regionIds++);
    return true;
  }

  /** Merges the region that starts at {@code start} with the one after it; false when there is none. */
  public synchronized boolean mergeWithNext(TableName name, byte[] start) throws IOException {
    TableState t = table(name);
    byte[] next = t.regions.higherKey(start);
    if (next == null || !t.regions.containsKey(start)) {
      return false;
    }
    t.regions.remove(next);
    t.regions.put(start, regionIds++);
    return true;
  }

  /** Merges the regions with these ids, which must be adjacent. */
  synchronized void merge(TableName name, List<Long> regionIdsToMerge) throws IOException {
    TableState t = table(name);
    List<Region> all = t.regionList();
    int first = -1;
    for (int i = 0; i < all.size(); i++) {
      if (regionIdsToMerge.contains(all.get(i).id())) {
        first = i;
        break;
      }
    }
    if (first < 0) {
      throw new IOException("no region of " + name + " has an id in " + regionIdsToMerge);
    }
    for (int i = first + 1; i < first + regionIdsToMerge.size(); i++) {
      if (i >= all.size() || !regionIdsToMerge.contains(all.get(i).id())) {
        throw new IOException("regions " + regionIdsToMerge + " of " + name + " are not adjacent");
      }
      t.regions.remove(all.get(i).start());
    }
    t.regions.put(all.get(first).start(), regionIds++);
  }

  /** A major compaction: drops delete markers and what they hide, and versions beyond the family's maximum. */
  public synchronized void majorCompact(TableName name) throws IOException {
    TableState t = table(name);
    t.rows.values().removeIf(row -> {
      row.compact(t.desc);
      return row.isEmpty();
    });
  }

  // ---- reads ----

  synchronized Result get(TableName name, Get get) throws IOException {
    TableState t = usable(name);
    StoredRow row = t.rows.get(get.getRow());
    if (row == null) {
      return Result.EMPTY_RESULT; // no cells: rawCells() is null here, as HBase's API allows
    }
    Filter f = get.getFilter();
    if (f != null) {
      f.reset();
    }
    List<Cell> cells = row.read(get.getRow(), t.desc, get.getFamilyMap(), get.getTimeRange(), get.getMaxVersions(), f);
    return cells == null || cells.isEmpty() ? Result.EMPTY_RESULT : Result.create(cells);
  }

  /**
   * The rows of {@code scan} inside {@code region} whose keys are at or above {@code from}
   * (exclusive of it when {@code fromExclusive}), at most {@code limit} of them (0: all), as the
   * region holds them now.
   */
  synchronized List<Result> scanRegion(TableName name, Scan scan, Region region, byte[] from, boolean fromInclusive,
      int limit) throws IOException {
    TableState t = usable(name);
    byte[] stop = scan.getStopRow();
    boolean reversed = scan.isReversed();
    NavigableMap<byte[], StoredRow> range = !reversed ? t.rows.tailMap(from, fromInclusive)
        : from.length == 0 ? t.rows.descendingMap() : t.rows.headMap(from, fromInclusive).descendingMap();
    Filter f = scan.getFilter();
    List<Result> out = new ArrayList<>();
    for (Map.Entry<byte[], StoredRow> e : range.entrySet()) {
      byte[] key = e.getKey();
      if (!region.contains(key)) {
        break;
      }
      if (stop.length > 0) {
        int c = reversed ? Bytes.compareTo(stop, key) : Bytes.compareTo(key, stop);
        if (c > 0 || c == 0 && !scan.includeStopRow()) {
          break;
        }
      }
      if (f != null) {
        f.reset();
        if (f.filterAllRemaining()) {
          break;
        }
      }
      List<Cell> cells = e.getValue().read(key, t.desc, scan.getFamilyMap(), scan.getTimeRange(),
          scan.getMaxVersions(), f);
      if (cells != null && !cells.isEmpty()) {
        out.add(Result.create(cells));
        if (limit > 0 && out.size() >= limit) {
          break;
        }
      }
    }
    return out;
  }

  // ---- writes ----

  synchronized void mutate(TableName name, Mutation m) throws IOException {
    apply(usable(name), m);
  }

  synchronized void mutateRow(TableName name, RowMutations rm) throws IOException {
    TableState t = usable(name);
    for (Mutation m : rm.getMutations()) {
      apply(t, m);
    }
  }

  /** HBase's checkAndMutate: the condition and the mutation on one row, atomically. */
  synchronized boolean checkAndMutate(TableName name, CheckAndMutate cam) throws IOException {
    TableState t = usable(name);
    StoredRow row = t.rows.get(cam.getRow());
    boolean pass;
    if (cam.hasFilter()) {
      Filter f = cam.getFilter();
      f.reset();
      List<Cell> cells = row == null ? null
          : row.read(cam.getRow(), t.desc, Map.of(), cam.getTimeRange(), 1, f);
      pass = cells != null && !cells.isEmpty();
    } else {
      Cell current = row == null ? null : row.latest(cam.getFamily(), cam.getQualifier(), cam.getTimeRange());
      byte[] expected = cam.getValue();
      if (expected != null && expected.length == 0) {
        // HBase: an empty expected value matches a missing cell as well as an empty one
        expected = null;
        if (current != null && current.getValueLength() == 0) {
          current = null;
        }
      }
      switch (cam.getCompareOp()) {
        case EQUAL:
          pass = expected == null ? current == null
              : current != null && Bytes.equals(expected, CellUtil.cloneValue(current));
          break;
        case NOT_EQUAL:
          pass = expected == null ? current != null
              : current == null || !Bytes.equals(expected, CellUtil.cloneValue(current));
          break;
        default:
          throw new UnsupportedOperationException("the simulation compares with EQUAL and NOT_EQUAL only, not "
              + cam.getCompareOp());
      }
    }
    if (pass) {
      if (cam.getAction() instanceof RowMutations rm) {
        for (Mutation m : rm.getMutations()) {
          apply(t, m);
        }
      } else {
        apply(t, (Mutation) cam.getAction());
      }
    }
    return pass;
  }

  /** From now on every mutation shares the millisecond of the one before (or, with false, draws again). */
  synchronized void holdTheMillisecond(boolean hold) {
    this.holdMillisecond = hold;
  }

  private static boolean newVersionBehavior(TableState t, byte[] family) {
    ColumnFamilyDescriptor f = t.desc.getColumnFamily(family);
    return f != null && f.isNewVersionBehavior();
  }

  private void apply(TableState t, Mutation m) throws IOException {
    long now = holdMillisecond || sameMillisecond.nextInt(3) == 0 ? serverTime : ++serverTime;
    StoredRow row = t.rows.computeIfAbsent(m.getRow(), k -> new StoredRow());
    if (m instanceof Put) {
      for (List<Cell> cells : m.getFamilyCellMap().values()) {
        for (Cell c : cells) {
          long ts = c.getTimestamp() == HConstants.LATEST_TIMESTAMP ? now : c.getTimestamp();
          row.put(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), ts, CellUtil.cloneValue(c));
        }
      }
    } else if (m instanceof Delete) {
      if (m.getFamilyCellMap().isEmpty()) { // the whole row, up to the delete's timestamp
        long ts = m.getTimestamp() == HConstants.LATEST_TIMESTAMP ? now : m.getTimestamp();
        for (ColumnFamilyDescriptor f : t.desc.getColumnFamilies()) {
          row.deleteFamily(f.getName(), ts, f.isNewVersionBehavior());
        }
      }
      for (List<Cell> cells : m.getFamilyCellMap().values()) {
        for (Cell c : cells) {
          long ts = c.getTimestamp() == HConstants.LATEST_TIMESTAMP ? now : c.getTimestamp();
          byte[] fam = CellUtil.cloneFamily(c);
          switch (c.getType()) {
            case DeleteFamily -> row.deleteFamily(fam, ts, newVersionBehavior(t, fam));
            case DeleteColumn -> row.deleteColumn(fam, CellUtil.cloneQualifier(c), ts, newVersionBehavior(t, fam));
            case Delete -> {
              if (c.getTimestamp() == HConstants.LATEST_TIMESTAMP) {
                row.deleteLatestVersion(fam, CellUtil.cloneQualifier(c));
              } else {
                row.deleteVersion(fam, CellUtil.cloneQualifier(c), ts);
              }
            }
            default -> throw new UnsupportedOperationException("delete of type " + c.getType());
          }
        }
      }
    } else {
      throw new UnsupportedOperationException("mutation " + m.getClass().getSimpleName());
    }
    if (row.isEmpty()) {
      t.rows.remove(m.getRow());
    }
  }

  /** Every row key of {@code name} with a visible cell, in order (for the checker). */
  public synchronized List<byte[]> rowKeys(TableName name) throws IOException {
    TableState t = table(name);
    List<byte[]> keys = new ArrayList<>();
    for (Map.Entry<byte[], StoredRow> e : t.rows.entrySet()) {
      List<Cell> cells = e.getValue().read(e.getKey(), t.desc, Map.of(), TimeRange.allTime(), 1, null);
      if (cells != null && !cells.isEmpty()) {
        keys.add(e.getKey());
      }
    }
    return keys;
  }

  private static final class TableState {
    TableDescriptor desc;
    boolean enabled = true;
    /** Region start key to region id; the first region starts at the empty key. */
    final TreeMap<byte[], Long> regions = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    final TreeMap<byte[], StoredRow> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);

    TableState(TableDescriptor desc, long firstRegion) {
      this.desc = TableDescriptorBuilder.newBuilder(desc).build();
      regions.put(HConstants.EMPTY_START_ROW, firstRegion);
    }

    List<Region> regionList() {
      List<Region> out = new ArrayList<>();
      List<Map.Entry<byte[], Long>> entries = new ArrayList<>(regions.entrySet());
      for (int i = 0; i < entries.size(); i++) {
        byte[] end = i + 1 < entries.size() ? entries.get(i + 1).getKey() : HConstants.EMPTY_END_ROW;
        out.add(new Region(entries.get(i).getKey(), end, entries.get(i).getValue()));
      }
      return out;
    }

    Region regionOf(byte[] row) {
      Map.Entry<byte[], Long> e = regions.floorEntry(row);
      byte[] end = regions.higherKey(e.getKey());
      return new Region(e.getKey(), end == null ? HConstants.EMPTY_END_ROW : end, e.getValue());
    }
  }

  /** One row: per family and qualifier, versions newest first, and the delete markers. */
  private static final class StoredRow {
    final TreeMap<byte[], TreeMap<byte[], TreeMap<Long, byte[]>>> families = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    final TreeMap<byte[], Long> familyDeletes = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    /** Per family and qualifier: every version at or below this is deleted. */
    final TreeMap<byte[], TreeMap<byte[], Long>> columnDeletes = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    /** Per family and qualifier: single deleted versions. */
    final TreeMap<byte[], TreeMap<byte[], TreeSet<Long>>> versionDeletes = new TreeMap<>(Bytes.BYTES_COMPARATOR);

    boolean isEmpty() {
      return families.isEmpty() && familyDeletes.isEmpty() && columnDeletes.isEmpty() && versionDeletes.isEmpty();
    }

    void put(byte[] family, byte[] qualifier, long ts, byte[] value) {
      families.computeIfAbsent(family, k -> new TreeMap<>(Bytes.BYTES_COMPARATOR))
          .computeIfAbsent(qualifier, k -> new TreeMap<>((a, b) -> Long.compare(b, a))).put(ts, value);
    }

    /**
     * A family's delete marker. With {@code NEW_VERSION_BEHAVIOR} (HBASE-15968) a marker hides only
     * what was written before it, so it is applied at once to the versions there, and a later put
     * of its timestamp or below stays visible; without, it hides every version at or below its
     * timestamp, written before or after, until a major compaction.
     */
    void deleteFamily(byte[] family, long ts, boolean newVersionBehavior) {
      if (newVersionBehavior) {
        TreeMap<byte[], TreeMap<Long, byte[]>> fam = families.get(family);
        if (fam != null) {
          fam.values().forEach(versions -> versions.keySet().removeIf(v -> v <= ts));
          fam.values().removeIf(TreeMap::isEmpty);
          if (fam.isEmpty()) {
            families.remove(family);
          }
        }
        return;
      }
      familyDeletes.merge(family, ts, Math::max);
    }

    /** A column's delete marker; see {@link #deleteFamily}. */
    void deleteColumn(byte[] family, byte[] qualifier, long ts, boolean newVersionBehavior) {
      if (newVersionBehavior) {
        TreeMap<byte[], TreeMap<Long, byte[]>> fam = families.get(family);
        TreeMap<Long, byte[]> versions = fam == null ? null : fam.get(qualifier);
        if (versions != null) {
          versions.keySet().removeIf(v -> v <= ts);
          if (versions.isEmpty()) {
            fam.remove(qualifier);
          }
          if (fam.isEmpty()) {
            families.remove(family);
          }
        }
        return;
      }
      columnDeletes.computeIfAbsent(family, k -> new TreeMap<>(Bytes.BYTES_COMPARATOR)).merge(qualifier, ts, Math::max);
    }

    void deleteVersion(byte[] family, byte[] qualifier, long ts) {
      versionDeletes.computeIfAbsent(family, k -> new TreeMap<>(Bytes.BYTES_COMPARATOR))
          .computeIfAbsent(qualifier, k -> new TreeSet<>()).add(ts);
    }

    void deleteLatestVersion(byte[] family, byte[] qualifier) {
      Cell latest = latest(family, qualifier, TimeRange.allTime());
      if (latest != null) {
        deleteVersion(family, qualifier, latest.getTimestamp());
      }
    }

    private boolean visible(byte[] family, byte[] qualifier, long ts) {
      Long fd = familyDeletes.get(family);
      if (fd != null && ts <= fd) {
        return false;
      }
      TreeMap<byte[], Long> cd = columnDeletes.get(family);
      Long c = cd == null ? null : cd.get(qualifier);
      if (c != null && ts <= c) {
        return false;
      }
      TreeMap<byte[], TreeSet<Long>> vd = versionDeletes.get(family);
      TreeSet<Long> v = vd == null ? null : vd.get(qualifier);
      return v == null || !v.contains(ts);
    }

    Cell latest(byte[] family, byte[] qualifier, TimeRange range) {
      TreeMap<byte[], TreeMap<Long, byte[]>> fam = families.get(family);
      TreeMap<Long, byte[]> versions = fam == null ? null : fam.get(qualifier);
      if (versions == null) {
        return null;
      }
      for (Map.Entry<Long, byte[]> v : versions.entrySet()) {
        if (range.withinTimeRange(v.getKey()) && visible(family, qualifier, v.getKey())) {
          return null == v.getValue() ? null : new KeyValue(new byte[0], family, qualifier, v.getKey(), v.getValue());
        }
      }
      return null;
    }

    /**
     * The cells a read gets, as a region scanner makes them: the asked columns (all when
     * {@code columns} is empty), visible versions in {@code range}, at most {@code maxVersions}
     * (and the family's maximum) per column, through {@code filter}. Null when the filter drops
     * the row.
     */
    List<Cell> read(byte[] row, TableDescriptor desc, Map<byte[], NavigableSet<byte[]>> columns, TimeRange range,
        int maxVersions, Filter filter) throws IOException {
      List<Cell> out = new ArrayList<>();
      boolean rowChecked = false;
      rowLoop:
      for (Map.Entry<byte[], TreeMap<byte[], TreeMap<Long, byte[]>>> fam : families.entrySet()) {
        byte[] family = fam.getKey();
        if (!columns.isEmpty() && !columns.containsKey(family)) {
          continue;
        }
        NavigableSet<byte[]> wanted = columns.get(family);
        ColumnFamilyDescriptor cfd = desc.getColumnFamily(family);
        int keep = Math.min(maxVersions, cfd == null ? 1 : cfd.getMaxVersions());
        for (Map.Entry<byte[], TreeMap<Long, byte[]>> col : fam.getValue().entrySet()) {
          byte[] qualifier = col.getKey();
          if (wanted != null && !wanted.isEmpty() && !wanted.contains(qualifier)) {
            continue;
          }
          int kept = 0;
          versions:
          for (Map.Entry<Long, byte[]> v : col.getValue().entrySet()) {
            long ts = v.getKey();
            if (!visible(family, qualifier, ts)) {
              continue;
            }
            if (kept >= keep) { // versions beyond the maximum are gone for readers, compacted or not
              break;
            }
            kept++;
            if (!range.withinTimeRange(ts)) {
              continue;
            }
            Cell cell = new KeyValue(row, family, qualifier, ts, KeyValue.Type.Put, v.getValue());
            if (filter == null) {
              out.add(cell);
              continue;
            }
            if (!rowChecked) {
              rowChecked = true;
              if (filter.filterRowKey(cell)) {
                return null;
              }
            }
            switch (filter.filterCell(cell)) {
              case INCLUDE -> out.add(filter.transformCell(cell));
              case INCLUDE_AND_NEXT_COL -> {
                out.add(filter.transformCell(cell));
                break versions;
              }
              case SKIP -> { }
              case NEXT_COL, SEEK_NEXT_USING_HINT -> {
                break versions;
              }
              case NEXT_ROW -> {
                break rowLoop;
              }
              case INCLUDE_AND_SEEK_NEXT_ROW -> {
                out.add(filter.transformCell(cell));
                break rowLoop;
              }
              default -> throw new IllegalStateException("unknown filter return code");
            }
          }
        }
      }
      if (filter != null) {
        filter.filterRowCells(out);
        if (filter.hasFilterRow() && filter.filterRow()) {
          return null;
        }
      }
      return out;
    }

    void compact(TableDescriptor desc) {
      for (Map.Entry<byte[], TreeMap<byte[], TreeMap<Long, byte[]>>> fam : families.entrySet()) {
        ColumnFamilyDescriptor cfd = desc.getColumnFamily(fam.getKey());
        int keep = cfd == null ? 1 : cfd.getMaxVersions();
        for (Map.Entry<byte[], TreeMap<Long, byte[]>> col : fam.getValue().entrySet()) {
          List<Long> drop = new ArrayList<>();
          int kept = 0;
          for (Long ts : col.getValue().keySet()) {
            if (!visible(fam.getKey(), col.getKey(), ts) || kept >= keep) {
              drop.add(ts);
            } else {
              kept++;
            }
          }
          drop.forEach(col.getValue()::remove);
        }
        fam.getValue().values().removeIf(Map::isEmpty);
      }
      families.values().removeIf(Map::isEmpty);
      familyDeletes.clear();
      columnDeletes.clear();
      versionDeletes.clear();
    }
  }

  static byte[][] toArray(List<byte[]> keys) {
    return keys.toArray(new byte[0][]);
  }

  static String show(byte[] b) {
    return b == null ? "null" : Bytes.toStringBinary(b);
  }

  static boolean same(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }
}
