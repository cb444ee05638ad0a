package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.MetadataView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.tephra.TransactionSystemClient;

/** {@link SnapshotDatasets#rollbackGroup}: every member back to what the group replaced, in one transaction. */
final class GroupRollback {
  private GroupRollback() {}

  static Map<DatasetId, SnapshotId> rollback(TransactionSystemClient txClient, String groupId,
      List<OperationsContext> members) {
    checkArgument(groupId != null && !groupId.isBlank(), "publish group id must not be empty");
    checkArgument(!members.isEmpty(), "rollback of publish group %s names no dataset", groupId);
    TransactionSystemClient client = TypedErrorsTxClient.unwrap(txClient);
    List<HBaseMetadataStore.Member<?>> ops = new ArrayList<>();
    Set<DatasetId> seen = new HashSet<>();
    int retries = 0;
    for (OperationsContext ctx : members) {
      checkArgument(seen.add(ctx.id()), "dataset %s is named twice", ctx.id());
      checkArgument(TypedErrorsTxClient.unwrap(ctx.txClient()) == client && ctx.store() instanceof HBaseMetadataStore,
          "dataset %s was opened with another transaction service client: open every member from the same"
              + " SnapshotDatasets", ctx.id());
      retries = Math.max(retries, ctx.properties().commitRetries());
      ops.add(new HBaseMetadataStore.Member<>((HBaseMetadataStore) ctx.store(), view -> back(ctx.id(), view,
          groupId, seenNames(members))));
    }
    List<Object> results = HBaseMetadataStore.updateTogether("rollback publish group " + groupId, ops, retries);
    Map<DatasetId, SnapshotId> out = new LinkedHashMap<>();
    for (int i = 0; i < members.size(); i++) {
      out.put(members.get(i).id(), (SnapshotId) results.get(i));
    }
    return out;
  }

  private static Set<String> seenNames(List<OperationsContext> members) {
    Set<String> names = new java.util.TreeSet<>();
    members.forEach(m -> names.add(m.id().toString()));
    return names;
  }

  private static SnapshotId back(DatasetId dataset, MetadataView view, String groupId, Set<String> named) {
    SnapshotInfo current = view.currentInfo().orElseThrow(() -> new IllegalArgumentException("cannot roll back"
        + " publish group " + groupId + ": dataset " + dataset + " has no current snapshot"));
    checkArgument(current.group().map(groupId::equals).orElse(false), "cannot roll back publish group %s: the"
        + " current snapshot %s of dataset %s is not of it (%s); nothing was rolled back", groupId, current.id(),
        dataset, current.group().map(g -> "it is of group " + g).orElse("it was published alone"));
    checkArgument(current.groupMembers().isEmpty() || current.groupMembers().equals(named), "cannot roll back"
        + " publish group %s: its members are %s, and %s were named; a group rolls back whole", groupId,
        current.groupMembers(), named);
    SnapshotId parent = current.parentId().orElseThrow(() -> new IllegalArgumentException("cannot roll back"
        + " publish group " + groupId + ": in dataset " + dataset + " it replaced no snapshot"));
    SnapshotInfo target = view.snapshot(parent).orElse(null);
    checkArgument(target != null && target.state() == SnapshotState.COMMITTED, "cannot roll back publish group %s:"
        + " snapshot %s, which it replaced in dataset %s, is no longer retained (%s)", groupId, parent, dataset,
        target == null ? "no record" : target.state());
    view.moveCurrent(parent, "rollback group " + groupId);
    return parent;
  }
}
