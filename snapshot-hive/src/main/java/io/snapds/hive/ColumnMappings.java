package io.snapds.hive;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hive.serde2.objectinspector.PrimitiveObjectInspector.PrimitiveCategory;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;

/**
 * The table's column mapping ({@code snapds.columns.mapping}): one entry per Hive column, in
 * order, separated by commas. {@code :key} is the row key (exactly one column), {@code family:qualifier}
 * a cell, {@code :change} (at most one string column) the change type of a diff ({@link
 * HiveTableProperties#DIFF_FROM}; NULL when the table reads one snapshot),
 * {@code :old:family:qualifier} a cell's value in the diff's older snapshot (NULL for an added row
 * and outside a diff); a suffix {@code #b} stores the value as fixed-width binary, {@code #s} (the
 * default) as UTF-8 text; see {@link ValueEncoding}. Example: {@code :key,d:price#b,d:name,d:updated}.
 */
public final class ColumnMappings {
  static final Set<PrimitiveCategory> SUPPORTED = EnumSet.of(PrimitiveCategory.STRING, PrimitiveCategory.VARCHAR,
      PrimitiveCategory.CHAR, PrimitiveCategory.BOOLEAN, PrimitiveCategory.BYTE, PrimitiveCategory.SHORT,
      PrimitiveCategory.INT, PrimitiveCategory.LONG, PrimitiveCategory.FLOAT, PrimitiveCategory.DOUBLE,
      PrimitiveCategory.DECIMAL, PrimitiveCategory.BINARY, PrimitiveCategory.TIMESTAMP, PrimitiveCategory.DATE);

  private final List<ColumnMapping> columns;
  private final int keyIndex;

  private ColumnMappings(List<ColumnMapping> columns, int keyIndex) {
    this.columns = List.copyOf(columns);
    this.keyIndex = keyIndex;
  }

  /**
   * Parses {@code spec} against the table's columns.
   *
   * @throws IllegalArgumentException naming the bad entry: a count that differs from the
   *     columns, no or two {@code :key}, an entry without a qualifier, an unknown suffix, or a
   *     column type this handler cannot map
   */
  public static ColumnMappings parse(String spec, List<String> names, List<TypeInfo> types) {
    checkArgument(spec != null && !spec.isBlank(),
        "table property %s is missing: map every column, e.g. ':key,d:price'", HiveTableProperties.COLUMNS_MAPPING);
    String[] entries = spec.split(",", -1);
    checkArgument(entries.length == names.size(),
        "%s '%s' has %s entries but the table has %s columns %s", HiveTableProperties.COLUMNS_MAPPING, spec,
        entries.length, names.size(), names);
    List<ColumnMapping> out = new ArrayList<>(entries.length);
    int key = -1;
    int change = -1;
    for (int i = 0; i < entries.length; i++) {
      ColumnMapping m = parseEntry(entries[i].trim(), names.get(i), types.get(i));
      if (m.isChange()) {
        checkArgument(change < 0, "%s '%s' maps both %s and %s to :change; map at most one column to a diff's change",
            HiveTableProperties.COLUMNS_MAPPING, spec, names.get(Math.max(change, 0)), names.get(i));
        change = i;
      }
      if (m.isKey()) {
        checkArgument(key < 0, "%s '%s' maps both %s and %s to :key; map exactly one column to the row key",
            HiveTableProperties.COLUMNS_MAPPING, spec, names.get(Math.max(key, 0)), names.get(i));
        key = i;
      }
      out.add(m);
    }
    checkArgument(key >= 0, "%s '%s' has no :key entry; map exactly one column to the row key",
        HiveTableProperties.COLUMNS_MAPPING, spec);
    Set<String> seen = new HashSet<>();
    for (ColumnMapping m : out) {
      if (m.isCell()) {
        String cell = (m.isOld() ? ":old:" : "") + Bytes.toString(m.family()) + ":" + Bytes.toString(m.qualifier());
        checkArgument(seen.add(cell), "%s '%s' maps the cell %s twice", HiveTableProperties.COLUMNS_MAPPING, spec, cell);
      }
    }
    return new ColumnMappings(out, key);
  }

  private static ColumnMapping parseEntry(String entry, String name, TypeInfo type) {
    checkArgument(type instanceof PrimitiveTypeInfo
            && SUPPORTED.contains(((PrimitiveTypeInfo) type).getPrimitiveCategory()),
        "column %s has type %s, which cannot be mapped; use one of %s", name, type.getTypeName(),
        SUPPORTED.stream().map(c -> c.name().toLowerCase()).collect(Collectors.joining(", ")));
    ValueEncoding encoding = ValueEncoding.TEXT;
    String source = entry;
    int hash = entry.lastIndexOf('#');
    if (hash >= 0) {
      String suffix = entry.substring(hash + 1);
      source = entry.substring(0, hash);
      if (suffix.equals("b")) {
        encoding = ValueEncoding.BINARY;
      } else {
        checkArgument(suffix.equals("s"), "mapping '%s' of column %s has an unknown suffix '#%s'; use #b or #s",
            entry, name, suffix);
      }
    }
    PrimitiveTypeInfo primitive = (PrimitiveTypeInfo) type;
    if (source.equals(":change")) {
      checkArgument(primitive.getPrimitiveCategory() == PrimitiveCategory.STRING && hash < 0,
          "mapping '%s' of column %s: a diff's change column is a string column mapped as plain ':change', not %s",
          entry, name, type.getTypeName() + (hash < 0 ? "" : " with a suffix"));
      return ColumnMapping.change(name, primitive);
    }
    if (source.equals(":key")) {
      return new ColumnMapping(name, primitive, null, null, encoding);
    }
    boolean old = source.startsWith(":old:");
    if (old) {
      source = source.substring(":old:".length());
    }
    int colon = source.indexOf(':');
    checkArgument(colon > 0 && colon < source.length() - 1,
        "mapping '%s' of column %s is not ':key', ':change', 'family:qualifier' or ':old:family:qualifier'", entry,
        name);
    byte[] family = Bytes.toBytes(source.substring(0, colon));
    byte[] qualifier = Bytes.toBytes(source.substring(colon + 1));
    return old ? ColumnMapping.old(name, primitive, family, qualifier, encoding)
        : new ColumnMapping(name, primitive, family, qualifier, encoding);
  }

  public List<ColumnMapping> columns() {
    return columns;
  }

  public ColumnMapping key() {
    return columns.get(keyIndex);
  }

  public int keyIndex() {
    return keyIndex;
  }

  /** The families the mapping reads. */
  public Set<String> families() {
    return columns.stream().filter(ColumnMapping::isCell).map(c -> Bytes.toString(c.family()))
        .collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  /**
   * @throws IllegalArgumentException if the mapping reads a family the dataset does not have
   */
  public void checkFamilies(Collection<String> datasetFamilies, String dataset) {
    for (String f : families()) {
      checkArgument(datasetFamilies.contains(f), "%s maps family '%s', which dataset %s does not have (it has %s)",
          HiveTableProperties.COLUMNS_MAPPING, f, dataset, datasetFamilies);
    }
  }

  @Override
  public String toString() {
    return columns.toString();
  }
}
