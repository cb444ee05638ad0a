package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.snapds.dataset.store.HBaseMetadataStore;
import io.snapds.dataset.store.MetadataStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.tephra.TransactionSystemClient;

/**
 * Several datasets published together: every member becomes current in one Tephra transaction
 * over their metadata tables, or none does. A reader that reads several of them in one transaction
 * ({@code new TransactionContext(txClient, orders, lines)}) sees all of the old snapshots or all of
 * the new ones, never a mix. Get one from {@link SnapshotDatasets#publishTogether()}.
 * <pre>{@code
 * Map<DatasetId, SnapshotInfo> published = datasets.publishTogether()
 *     .staged(orders, stagedOrders)      // a snapshot staged by SnapshotWriter.stage()
 *     .writer(linesWriter)               // or a writer still open: published, not committed alone
 *     .publish();
 * }</pre>
 *
 * <p>Each member keeps its own rules: an open writer's fence is checked (a writer whose lease was
 * taken over fails the whole group), a staged member's base must still be current (unless
 * {@link #mode} replaces it), a run id publishes once. If any member is refused, nothing is
 * published: the refused writer is aborted (as its own commit would have), the other writers stay
 * open with their locks, so the caller can abort them or retry without the refused one. The
 * group's id is recorded in each member's snapshot record and history entry
 * ({@code "publish group <id>"}), and {@link SnapshotDatasets#rollbackGroup} moves every member
 * back together.
 *
 * <p>Publishing a group retried with the same id publishes it once: a staged member published
 * already with this group is returned as it is, and so is a writer begun again under the run id
 * of a member this group published (after a {@link CommitStateUnknownException}). A member
 * published apart from the group (alone, or with another group) fails the group: it could not
 * become current together with the others.
 */
public final class PublishGroup {
  private static final Pattern GROUP_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private final TransactionSystemClient txClient;
  private final Map<DatasetId, Member> members = new LinkedHashMap<>();
  private String groupId = "g-" + UUID.randomUUID();
  private PublishMode mode = PublishMode.BASE_UNCHANGED;
  private boolean published;

  private record Member(OperationsContext ops, SnapshotId staged, SnapshotWriterImpl writer) {}

  PublishGroup(TransactionSystemClient txClient) {
    this.txClient = TypedErrorsTxClient.unwrap(txClient);
  }

  /**
   * The group's id, recorded with every member (default: {@code g-} and a random UUID). Letters,
   * digits and {@code . _ : -}, at most 128.
   */
  public PublishGroup id(String id) {
    checkArgument(id != null && GROUP_ID.matcher(id).matches(),
        "invalid publish group id '%s': 1 to 128 letters, digits, '.', '_', ':' or '-'", id);
    this.groupId = id;
    return this;
  }

  /** How staged members treat a current snapshot that moved since their stage (default {@code BASE_UNCHANGED}). */
  public PublishGroup mode(PublishMode mode) {
    this.mode = checkNotNull(mode, "publish mode must not be null");
    return this;
  }

  /** Adds the snapshot {@code staged} of {@code dataset}, staged by {@link SnapshotWriter#stage()}. */
  public PublishGroup staged(SnapshotDataset dataset, SnapshotId staged) {
    checkNotNull(dataset, "dataset must not be null");
    checkNotNull(staged, "snapshot id must not be null");
    return add(new Member(dataset.operations(), staged, null));
  }

  /** Adds the snapshot an open writer built: the group publishes it instead of {@link SnapshotWriter#commit()}. */
  public PublishGroup writer(SnapshotWriter writer) {
    checkNotNull(writer, "writer must not be null");
    checkArgument(writer instanceof SnapshotWriterImpl, "writer %s was not opened by SnapshotDataset.newSnapshot()",
        writer);
    SnapshotWriterImpl w = (SnapshotWriterImpl) writer;
    return add(new Member(w.operations(), null, w));
  }

  private PublishGroup add(Member m) {
    checkState(!published, "publish group %s was published already", groupId);
    DatasetId id = m.ops().id();
    checkArgument(!members.containsKey(id), "dataset %s is in publish group %s twice: a group publishes one"
        + " snapshot per dataset", id, groupId);
    checkArgument(TypedErrorsTxClient.unwrap(m.ops().txClient()) == txClient, "dataset %s was opened with another"
        + " transaction service client: open every member of a publish group from the same SnapshotDatasets", id);
    checkArgument(m.ops().store() instanceof HBaseMetadataStore, "dataset %s keeps its metadata elsewhere than"
        + " HBase: it cannot join a publish group", id);
    members.put(id, m);
    return this;
  }

  /** The group's id. */
  public String id() {
    return groupId;
  }

  /**
   * Publishes every member in one transaction.
   *
   * @return each member's snapshot as published, by dataset, in the order added
   * @throws FencedWriterException if a writer member lost its lease (nothing is published)
   * @throws StagedBaseMovedException if a staged member's base is no longer current (nothing is published)
   * @throws SupersededSnapshotException if a newer snapshot is current in a writer member's dataset
   * @throws SnapshotNotAvailableException if a staged member is not staged (nothing is published)
   * @throws CommitConflictException if concurrent metadata changes kept winning (retryable)
   * @throws CommitStateUnknownException if the transaction service failed during the commit
   */
  public Map<DatasetId, SnapshotInfo> publish() {
    checkState(!members.isEmpty(), "publish group %s has no member", groupId);
    checkState(!published, "publish group %s was published already", groupId);
    published = true;
    List<Member> list = new ArrayList<>(members.values());
    GroupTag tag = new GroupTag(groupId, members.keySet().stream().map(DatasetId::toString)
        .collect(java.util.stream.Collectors.toSet()));
    List<HBaseMetadataStore.Member<?>> ops = new ArrayList<>();
    int[] failing = {-1};
    int retries = 0;
    for (int i = 0; i < list.size(); i++) {
      Member m = list.get(i);
      int index = i;
      retries = Math.max(retries, m.ops().properties().commitRetries());
      MetadataStore.Operation<Publication.Published> op;
      if (m.writer() != null && m.writer().alreadyPublished().isPresent()) {
        // begun again under the run id of a group whose commit had an unknown outcome: it committed
        op = new StagedPublication(m.ops().id(), m.writer().alreadyPublished().get().id(), false,
            m.ops().properties().retention(), tag)::alreadyOfGroup;
      } else if (m.writer() != null) {
        Publication p = m.writer().prepare(false).inGroup(tag);
        op = p::apply;
      } else {
        op = new StagedPublication(m.ops().id(), m.staged(), mode == PublishMode.REPLACE_CURRENT,
            m.ops().properties().retention(), tag)::apply;
      }
      ops.add(new HBaseMetadataStore.Member<>((HBaseMetadataStore) m.ops().store(), view -> {
        try {
          return op.apply(view);
        } catch (RuntimeException e) {
          failing[0] = index;
          throw e;
        }
      }));
    }
    List<Object> results;
    try {
      results = HBaseMetadataStore.updateTogether("publish group " + groupId + " (" + members.keySet() + ")", ops,
          retries);
    } catch (RuntimeException e) {
      throw failed(list, failing[0], e);
    }
    Map<DatasetId, SnapshotInfo> out = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      Member m = list.get(i);
      Publication.Published p = (Publication.Published) results.get(i);
      if (m.writer() != null && m.writer().alreadyPublished().isPresent()) {
        out.put(m.ops().id(), p.snapshot());
      } else if (m.writer() != null) {
        out.put(m.ops().id(), m.writer().published(p));
      } else {
        Cleanup.fenceAfter(m.ops(), p.expired());
        out.put(m.ops().id(), p.snapshot());
      }
    }
    return out;
  }

  /**
   * Nothing was published: the writer the failure is about gives up as its own commit would; on an
   * unknown outcome every writer does (each keeps its lock until its lease expires).
   */
  private static RuntimeException failed(List<Member> list, int failing, RuntimeException e) {
    for (int i = 0; i < list.size(); i++) {
      SnapshotWriterImpl w = list.get(i).writer();
      if (w != null && (i == failing || e instanceof CommitStateUnknownException)) {
        e = w.failed(e);
      }
    }
    return e;
  }
}
