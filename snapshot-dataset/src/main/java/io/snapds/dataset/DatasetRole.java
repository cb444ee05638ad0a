package io.snapds.dataset;

import static org.apache.hadoop.hbase.security.access.Permission.Action.CREATE;
import static org.apache.hadoop.hbase.security.access.Permission.Action.READ;
import static org.apache.hadoop.hbase.security.access.Permission.Action.WRITE;

import io.snapds.dataset.lock.LockTable;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What each kind of user may do with a dataset, as HBase permissions on its three tables. This is
 * the one definition: {@code CompositeDatasetAdmin.grant} grants it, denials name the least role
 * that would have allowed them, and {@code docs/security.md} explains it.
 *
 * <table>
 *   <caption>Permissions per role</caption>
 *   <tr><th>role</th><th>{@code S:N.data}</th><th>{@code S:N.meta}</th><th>{@code S:N.lock}</th><th>namespace {@code S}</th></tr>
 *   <tr><td>reader</td><td>R</td><td>R</td><td>R, and RW on family {@code p} (reader pins)</td><td>-</td></tr>
 *   <tr><td>writer</td><td>RW</td><td>RW</td><td>RW</td><td>-</td></tr>
 *   <tr><td>admin</td><td>RWCA</td><td>RWCA</td><td>RWCA</td><td>C</td></tr>
 * </table>
 * Each role includes everything the one before it may do.
 */
public enum DatasetRole {
  /** Reads data and metadata, and pins snapshots for long reads. */
  READER(List.of(
      new TableGrant(Part.DATA, null, EnumSet.of(READ)),
      new TableGrant(Part.META, null, EnumSet.of(READ)),
      new TableGrant(Part.LOCK, null, EnumSet.of(READ)),
      new TableGrant(Part.LOCK, LockTable.PIN_FAMILY, EnumSet.of(READ, WRITE))),
      EnumSet.noneOf(Permission.Action.class)),
  /** Builds and publishes snapshots, expires, rolls back, tags, breaks locks and cleans up. */
  WRITER(List.of(
      new TableGrant(Part.DATA, null, EnumSet.of(READ, WRITE)),
      new TableGrant(Part.META, null, EnumSet.of(READ, WRITE)),
      new TableGrant(Part.LOCK, null, EnumSet.of(READ, WRITE))),
      EnumSet.noneOf(Permission.Action.class)),
  /**
   * Creates, truncates, upgrades and drops the dataset. The namespace's CREATE is needed to create
   * it (again): HBase removes a table's grants when the table is dropped.
   */
  ADMIN(List.of(
      new TableGrant(Part.DATA, null, EnumSet.of(READ, WRITE, CREATE, Permission.Action.ADMIN)),
      new TableGrant(Part.META, null, EnumSet.of(READ, WRITE, CREATE, Permission.Action.ADMIN)),
      new TableGrant(Part.LOCK, null, EnumSet.of(READ, WRITE, CREATE, Permission.Action.ADMIN))),
      EnumSet.of(CREATE));

  /** The three tables of a dataset. */
  public enum Part {
    DATA, META, LOCK;

    public TableName table(DatasetId dataset) {
      return switch (this) {
        case DATA -> dataset.dataTable();
        case META -> dataset.metaTable();
        case LOCK -> dataset.lockTable();
      };
    }

    /** The part a table of {@code dataset} is, if it is one of its three. */
    public static Optional<Part> of(DatasetId dataset, TableName table) {
      return Arrays.stream(values()).filter(p -> p.table(dataset).equals(table)).findFirst();
    }
  }

  /** Actions on one table of the dataset, or on one column family of it when {@code family} is set. */
  public record TableGrant(Part part, byte[] family, Set<Permission.Action> actions) {
    public TableGrant {
      actions = Set.copyOf(actions);
    }

    public Optional<byte[]> columnFamily() {
      return Optional.ofNullable(family);
    }

    boolean allows(Part p, byte[] fam, Permission.Action action) {
      return part == p && actions.contains(action) && (family == null || fam != null && Bytes.equals(family, fam));
    }

    @Override
    public String toString() {
      return part.name().toLowerCase(Locale.ROOT) + (family == null ? "" : ":" + Bytes.toString(family)) + " " + actions;
    }
  }

  private final List<TableGrant> tableGrants;
  private final Set<Permission.Action> namespaceActions;

  DatasetRole(List<TableGrant> tableGrants, Set<Permission.Action> namespaceActions) {
    this.tableGrants = tableGrants;
    this.namespaceActions = namespaceActions;
  }

  /** The name used on the command line and in messages: {@code reader}, {@code writer}, {@code admin}. */
  public String roleName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public List<TableGrant> tableGrants() {
    return tableGrants;
  }

  /** Actions granted on the dataset's namespace (empty for all but admin). */
  public Set<Permission.Action> namespaceActions() {
    return namespaceActions.isEmpty() ? Set.of() : Set.copyOf(namespaceActions);
  }

  /** Whether this role allows {@code action} on {@code part} (on {@code family}, when not null). */
  public boolean allows(Part part, byte[] family, Permission.Action action) {
    return tableGrants.stream().anyMatch(g -> g.allows(part, family, action));
  }

  /**
   * The least role that allows {@code action} on a table of the dataset (and column family, when
   * known); {@code part} empty means the namespace or an unknown table, where only admin helps.
   */
  public static DatasetRole leastAllowing(Optional<Part> part, byte[] family, Permission.Action action) {
    for (DatasetRole role : values()) {
      if (part.isPresent() ? role.allows(part.get(), family, action) : role.namespaceActions.contains(action)) {
        return role;
      }
    }
    return ADMIN;
  }

  /** @throws IllegalArgumentException naming the value if it is not reader, writer or admin */
  public static DatasetRole parse(String name) {
    for (DatasetRole role : values()) {
      if (role.roleName().equals(name == null ? null : name.trim().toLowerCase(Locale.ROOT))) {
        return role;
      }
    }
    throw new IllegalArgumentException("unknown role '" + name + "': use reader, writer or admin");
  }
}
