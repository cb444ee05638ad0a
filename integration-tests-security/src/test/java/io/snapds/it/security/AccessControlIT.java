package io.snapds.it.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.snapds.dataset.AccessDeniedException;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.DatasetProperties;
import io.snapds.dataset.DatasetRole;
import io.snapds.dataset.ReaderPin;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotId;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotReader;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.SnapshotState;
import io.snapds.dataset.SnapshotWriter;
import io.snapds.dataset.admin.CompositeDatasetAdmin;
import io.snapds.dataset.admin.PrincipalAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.tephra.Transaction;
import org.apache.tephra.TransactionSystemClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue #18: the roles on a cluster whose HBase checks every call (AccessController), with test
 * users that each have a connection of their own.
 */
class AccessControlIT {
  private final SecureCluster cluster = SecureCluster.get();

  private SnapshotDataset created(String name, int rows) {
    SnapshotDataset ds = cluster.superuser().create(SecureCluster.uniqueDataset(name), DatasetProperties.defaults());
    publish(ds, "first", rows);
    return ds;
  }

  private static SnapshotInfo publish(SnapshotDataset ds, String label, int rows) {
    try (SnapshotWriter w = ds.newSnapshot().owner(label).begin()) {
      for (int i = 0; i < rows; i++) {
        w.put(Bytes.toBytes(String.format("k%04d", i)), "d", "v", Bytes.toBytes(label + i));
      }
      return w.commit();
    }
  }

  private static List<String> values(SnapshotReader reader) {
    List<String> out = new ArrayList<>();
    try (RowScanner rows = reader.scan(RowScan.all())) {
      for (SnapshotRow r : rows) {
        out.add(Bytes.toString(r.value("d", "v")));
      }
    }
    return out;
  }

  private static AccessDeniedException assertDenied(String user, DatasetId dataset, DatasetRole needed, Executable call) {
    AccessDeniedException e = assertThrows(AccessDeniedException.class, call);
    assertEquals(user, e.principal(), e.getMessage());
    assertEquals(dataset, e.dataset(), e.getMessage());
    assertEquals(needed, e.requiredRole(), e.getMessage());
    assertTrue(e.getMessage().startsWith("access denied: user '" + user + "' may not "), e.getMessage());
    assertTrue(e.getMessage().contains("it needs the '" + needed.roleName() + "' role (snapds grant " + dataset
        + " " + user + " " + needed.roleName() + ")"), e.getMessage());
    return e;
  }

  private void grant(DatasetId dataset, String user, DatasetRole role) {
    cluster.superuser().admin(dataset).grant(user, role);
    cluster.awaitReadAccess(user, dataset, true);
  }

  @Test
  void aReaderCanReadAndPinButCannotBeginOrPublish() {
    SnapshotDataset owned = created("reader", 5);
    SnapshotInfo first = owned.currentSnapshot().orElseThrow();
    grant(owned.id(), "alice", DatasetRole.READER);

    SnapshotDataset ds = cluster.as("alice").open(owned.id());
    assertEquals(List.of("first0", "first1", "first2", "first3", "first4"), values(ds.readCurrent()));
    assertEquals("first3", Bytes.toString(ds.readCurrent().get(Bytes.toBytes("k0003")).orElseThrow().value("d", "v")));
    try (ReaderPin pin = ds.pin(first.id(), "alice-job", Duration.ofMinutes(5))) {
      pin.renew(Duration.ofMinutes(5));
      assertEquals(first.id(), pin.snapshotId());
    }

    AccessDeniedException begin = assertDenied("alice", ds.id(), DatasetRole.WRITER, () -> ds.newSnapshot().begin());
    assertEquals("begin a snapshot", begin.operation());
    assertTrue(begin.hbaseDetail().orElseThrow().contains(ds.id().lockTable().getNameAsString()), begin.getMessage());
    assertDenied("alice", ds.id(), DatasetRole.WRITER, () -> ds.manageTags(first.id()).tag("mine").commit());
    assertDenied("alice", ds.id(), DatasetRole.ADMIN, () -> cluster.as("alice").admin(ds.id()).drop());

    // nothing was left behind: no lease held, no snapshot begun, the published one unchanged
    assertTrue(owned.lockStatus("writer").lease().isEmpty());
    assertEquals(List.of(first), owned.snapshots());
    assertEquals(List.of("first0", "first1", "first2", "first3", "first4"), values(owned.readCurrent()));
  }

  @Test
  void aWriterCanBuildAndPublishButCannotDrop() throws Exception {
    SnapshotDataset owned = created("writer", 2);
    grant(owned.id(), "bob", DatasetRole.WRITER);

    SnapshotDataset ds = cluster.as("bob").open(owned.id());
    SnapshotInfo second = publish(ds, "second", 3);
    assertEquals(second.id(), owned.currentSnapshot().orElseThrow().id());
    assertEquals(List.of("second0", "second1", "second2"), values(owned.readCurrent()));
    ds.expireSnapshots().retainLast(1).commit();
    ds.cleanup();

    assertDenied("bob", ds.id(), DatasetRole.ADMIN, () -> cluster.as("bob").admin(ds.id()).drop());
    assertDenied("bob", ds.id(), DatasetRole.ADMIN, () -> cluster.as("bob").admin(ds.id()).truncate());
    try (Admin admin = cluster.superuser().connection().getAdmin()) {
      assertTrue(admin.tableExists(ds.id().dataTable()) && admin.isTableEnabled(ds.id().dataTable()));
    }
    assertEquals(List.of("second0", "second1", "second2"), values(owned.readCurrent()));
    // the denied drop committed nothing: no DROPPED event, and the writer still publishes
    assertTrue(owned.events(0, 100).stream().noneMatch(e -> e.type() == io.snapds.dataset.DatasetEvent.Type.DROPPED),
        owned.events(0, 100).toString());
    SnapshotInfo third = publish(ds, "third", 1);
    assertEquals(third.id(), owned.currentSnapshot().orElseThrow().id());
  }

  @Test
  void aUserWithoutARoleCanDoNothingAndLearnsWhichRoleToAskFor() {
    SnapshotDataset owned = created("nobody", 2);
    DatasetId id = owned.id();
    assertDenied("carol", id, DatasetRole.READER, () -> cluster.as("carol").open(id));
    DatasetId own = SecureCluster.uniqueDataset("carols");
    AccessDeniedException create = assertDenied("carol", own, DatasetRole.ADMIN,
        () -> cluster.as("carol").create(own, DatasetProperties.defaults()));
    assertTrue(create.getMessage().contains("create"), create.getMessage());
  }

  /**
   * A metadata change refused on its first read (the user has no role any more) names the role
   * the whole change needs, writer, not the reader role that would only have let it read. (Before,
   * expire, rollback and tag named 'reader'.)
   */
  @Test
  void aRefusedMetadataChangeNamesTheWriterRoleWhicheverCallWasRefusedFirst() {
    SnapshotDataset owned = created("nochange", 2);
    SnapshotInfo first = owned.currentSnapshot().orElseThrow();
    publish(owned, "second", 3);
    grant(owned.id(), "ivan", DatasetRole.READER);
    SnapshotDataset ds = cluster.as("ivan").open(owned.id());
    cluster.superuser().admin(owned.id()).revoke("ivan");
    cluster.awaitReadAccess("ivan", owned.id(), false);

    assertDenied("ivan", ds.id(), DatasetRole.WRITER, () -> ds.expireSnapshots().expire(first.id()).commit());
    assertDenied("ivan", ds.id(), DatasetRole.WRITER, () -> ds.rollbackTo(first.id()).commit());
    assertDenied("ivan", ds.id(), DatasetRole.WRITER, () -> ds.manageTags(first.id()).tag("t").commit());
    assertEquals(List.of("second0", "second1", "second2"), values(owned.readCurrent()), "nothing changed");
  }

  @Test
  void revokingAWriterMidBuildMakesItsPublishFailCleanly() {
    SnapshotDataset owned = created("revoked", 4);
    SnapshotInfo first = owned.currentSnapshot().orElseThrow();
    grant(owned.id(), "dave", DatasetRole.WRITER);
    SnapshotDataset ds = cluster.as("dave").open(owned.id());

    SnapshotWriter w = ds.newSnapshot().owner("dave").begin();
    SnapshotId building = w.snapshotId();
    for (int i = 0; i < 50; i++) {
      w.put(Bytes.toBytes(String.format("k%04d", i)), "d", "v", Bytes.toBytes("dave" + i));
    }
    w.flush();
    cluster.superuser().admin(owned.id()).revoke("dave");
    cluster.awaitReadAccess("dave", owned.id(), false);

    AccessDeniedException denied = assertDenied("dave", ds.id(), DatasetRole.WRITER, w::commit);
    assertEquals("publish snapshot " + building, denied.operation());

    // nothing published; readers see the first snapshot whole
    assertEquals(first.id(), owned.currentSnapshot().orElseThrow().id());
    assertEquals(List.of("first0", "first1", "first2", "first3"), values(owned.readCurrent()));
    // the writer could no longer write the metadata, but it ended its building transaction...
    TransactionSystemClient tx = cluster.superuser().transactionClient();
    Transaction probe = tx.startShort();
    assertFalse(probe.isInProgress(building.value()), "the build transaction is no longer in progress");
    tx.abort(probe);
    // ...so the first cleanup finds a dead writer: the snapshot is aborted and its rows are gone
    owned.cleanup();
    assertEquals(SnapshotState.ABORTED, owned.snapshot(building).state());
    assertTrue(owned.snapshot(building).cleanedAt().isPresent(), "its rows were deleted");
    // and the writer cannot try again
    assertThrows(IllegalStateException.class, w::commit);
  }

  @Test
  void permissionsListTheRoleEachPrincipalHolds() {
    SnapshotDataset owned = created("listed", 1);
    CompositeDatasetAdmin admin = cluster.superuser().admin(owned.id());
    admin.grant("erin", DatasetRole.READER);
    admin.grant("frank", DatasetRole.WRITER);
    admin.grant("grace", DatasetRole.ADMIN);
    admin.grant("heidi", DatasetRole.WRITER);
    admin.grant("heidi", DatasetRole.READER); // a grant replaces what the principal held
    Map<String, Optional<DatasetRole>> roles = admin.permissions().stream()
        .collect(Collectors.toMap(PrincipalAccess::principal, PrincipalAccess::role));
    assertEquals(Optional.of(DatasetRole.READER), roles.get("erin"));
    assertEquals(Optional.of(DatasetRole.WRITER), roles.get("frank"));
    assertEquals(Optional.of(DatasetRole.ADMIN), roles.get("grace"));
    assertEquals(Optional.of(DatasetRole.READER), roles.get("heidi"));
    admin.revoke("frank");
    assertFalse(admin.permissions().stream().anyMatch(p -> p.principal().equals("frank")));
  }
}
