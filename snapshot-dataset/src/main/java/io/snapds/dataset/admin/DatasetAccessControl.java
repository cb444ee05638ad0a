package io.snapds.dataset.admin;

import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetRole;
import io.snapds.dataset.StorageErrors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.NamespacePermission;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.TablePermission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;

/** Grants, revokes and lists the {@link DatasetRole}s of a dataset through HBase's {@link AccessControlClient}. */
final class DatasetAccessControl {
  private final DatasetId dataset;
  private final Connection connection;

  DatasetAccessControl(DatasetId dataset, Connection connection) {
    this.dataset = dataset;
    this.connection = connection;
  }

  /** Gives {@code principal} exactly {@code role}: what it held on the dataset before is revoked first. */
  void grant(String principal, DatasetRole role) {
    checkAuthorizationEnabled();
    revoke(principal);
    for (DatasetRole.TableGrant g : role.tableGrants()) {
      call("grant " + role.roleName() + " to " + principal, () -> AccessControlClient.grant(connection,
          g.part().table(dataset), principal, g.family(), null, actions(g.actions())));
    }
    if (!role.namespaceActions().isEmpty()) {
      call("grant " + role.roleName() + " to " + principal, () -> AccessControlClient.grant(connection,
          dataset.namespace(), principal, actions(role.namespaceActions())));
    }
  }

  /**
   * Takes away every permission {@code principal} holds on the dataset's three tables, and the
   * namespace actions of the admin role.
   */
  void revoke(String principal) {
    checkAuthorizationEnabled();
    for (UserPermission up : tablePermissions()) {
      if (!up.getUser().equals(principal)) {
        continue;
      }
      TablePermission p = (TablePermission) up.getPermission();
      call("revoke access of " + principal, () -> AccessControlClient.revoke(connection, p.getTableName(),
          principal, p.getFamily(), p.getQualifier(), p.getActions()));
    }
    for (UserPermission up : namespacePermissions()) {
      if (!up.getUser().equals(principal)) {
        continue;
      }
      Set<Permission.Action> held = EnumSet.noneOf(Permission.Action.class);
      for (Permission.Action a : up.getPermission().getActions()) {
        if (DatasetRole.ADMIN.namespaceActions().contains(a)) {
          held.add(a);
        }
      }
      if (!held.isEmpty()) {
        call("revoke access of " + principal, () -> AccessControlClient.revoke(connection, dataset.namespace(),
            principal, actions(held)));
      }
    }
  }

  /** Every principal with a permission on the dataset's tables, with the role it holds, by name. */
  List<PrincipalAccess> permissions() {
    checkAuthorizationEnabled();
    Map<String, List<UserPermission>> byUser = new TreeMap<>();
    for (UserPermission up : tablePermissions()) {
      byUser.computeIfAbsent(up.getUser(), u -> new ArrayList<>()).add(up);
    }
    List<UserPermission> ns = namespacePermissions();
    List<PrincipalAccess> out = new ArrayList<>();
    for (Map.Entry<String, List<UserPermission>> e : byUser.entrySet()) {
      List<UserPermission> held = new ArrayList<>(e.getValue());
      ns.stream().filter(up -> up.getUser().equals(e.getKey())).forEach(held::add);
      List<String> described = new ArrayList<>();
      for (UserPermission up : held) {
        described.add(describe(up.getPermission()));
      }
      out.add(new PrincipalAccess(e.getKey(), roleHeld(held), described));
    }
    return out;
  }

  private Optional<DatasetRole> roleHeld(List<UserPermission> held) {
    DatasetRole best = null;
    for (DatasetRole role : DatasetRole.values()) {
      boolean all = role.tableGrants().stream().allMatch(g -> covered(held, g))
          && role.namespaceActions().stream().allMatch(a -> held.stream().anyMatch(
              up -> up.getPermission() instanceof NamespacePermission && up.getPermission().implies(a)));
      if (all) {
        best = role;
      }
    }
    return Optional.ofNullable(best);
  }

  private boolean covered(List<UserPermission> held, DatasetRole.TableGrant g) {
    TableName table = g.part().table(dataset);
    return g.actions().stream().allMatch(a -> held.stream().anyMatch(up -> up.getPermission() instanceof TablePermission p
        && p.getTableName().equals(table) && p.implies(a)
        && (!p.hasFamily() || g.family() != null && Bytes.equals(p.getFamily(), g.family()) && !p.hasQualifier())));
  }

  private static String describe(Permission p) {
    if (p instanceof TablePermission t) {
      return t.getTableName().getNameAsString() + (t.hasFamily() ? ":" + Bytes.toString(t.getFamily()) : "")
          + (t.hasQualifier() ? ":" + Bytes.toString(t.getQualifier()) : "") + " " + actionString(p);
    }
    if (p instanceof NamespacePermission n) {
      return "@" + n.getNamespace() + " " + actionString(p);
    }
    return p.toString();
  }

  private static String actionString(Permission p) {
    StringBuilder sb = new StringBuilder();
    for (Permission.Action a : p.getActions()) {
      sb.append(a.code());
    }
    return sb.toString();
  }

  /** Grants on a cluster without the AccessController would be stored and never checked: refuse them. */
  private void checkAuthorizationEnabled() {
    boolean enabled = call("check whether HBase checks permissions",
        () -> AccessControlClient.isAuthorizationEnabled(connection));
    if (!enabled) {
      throw new IllegalStateException("HBase does not check permissions on this cluster (authorization is off, "
          + "no AccessController): roles on dataset " + dataset + " would have no effect; see docs/security.md");
    }
  }

  private List<UserPermission> tablePermissions() {
    List<UserPermission> out = new ArrayList<>();
    for (DatasetRole.Part part : DatasetRole.Part.values()) {
      TableName t = part.table(dataset);
      out.addAll(call("read the permissions of " + t, () ->
          AccessControlClient.getUserPermissions(connection, Pattern.quote(t.getNameAsString()))));
    }
    out.removeIf(up -> !(up.getPermission() instanceof TablePermission));
    return out;
  }

  private List<UserPermission> namespacePermissions() {
    List<UserPermission> out = new ArrayList<>(call("read the permissions of namespace " + dataset.namespace(),
        () -> AccessControlClient.getUserPermissions(connection, "@" + dataset.namespace())));
    out.removeIf(up -> !(up.getPermission() instanceof NamespacePermission));
    return out;
  }

  private static Permission.Action[] actions(Set<Permission.Action> actions) {
    return actions.toArray(new Permission.Action[0]);
  }

  private interface AclCall<T> {
    T run() throws Throwable;
  }

  private interface AclAction {
    void run() throws Throwable;
  }

  private void call(String what, AclAction action) {
    call(what, () -> {
      action.run();
      return null;
    });
  }

  private <T> T call(String what, AclCall<T> call) {
    try {
      return call.run();
    } catch (Error e) {
      throw e;
    } catch (Throwable t) {
      throw StorageErrors.translate(dataset, what, t);
    }
  }
}
