package io.snapds.dataset;

import java.util.Optional;

/**
 * HBase's access control refused an operation. Names who was refused, on which dataset, doing
 * what, and the {@link DatasetRole} that would allow it: ask an administrator for that role
 * ({@code snapds grant DATASET PRINCIPAL ROLE}). Nothing the operation began is left half done: a
 * writer refused at publish has ended its building transaction, so its snapshot is aborted (by the
 * writer when it still may write the metadata, otherwise by the next cleanup).
 */
public class AccessDeniedException extends SnapshotDatasetException {
  private final DatasetId dataset;
  private final String principal;
  private final String operation;
  private final DatasetRole requiredRole;
  private final String hbaseDetail;

  public AccessDeniedException(DatasetId dataset, String principal, String operation,
      DatasetRole requiredRole, String hbaseDetail, Throwable cause) {
    super("access denied: user '" + principal + "' may not " + operation + " on dataset " + dataset
        + "; it needs the '" + requiredRole.roleName() + "' role (snapds grant " + dataset + " " + principal
        + " " + requiredRole.roleName() + ")" + (hbaseDetail.isEmpty() ? "" : " [HBase: " + hbaseDetail + "]"), cause);
    this.dataset = dataset;
    this.principal = principal;
    this.operation = operation;
    this.requiredRole = requiredRole;
    this.hbaseDetail = hbaseDetail;
  }

  /**
   * The same denial seen from the whole operation it ended: an operation that needs {@code role}
   * (a publish needs a writer, even when what HBase refused first was a read) names that role.
   */
  public AccessDeniedException within(String wholeOperation, DatasetRole role) {
    DatasetRole needed = role.compareTo(requiredRole) > 0 ? role : requiredRole;
    return new AccessDeniedException(dataset, principal, wholeOperation, needed, hbaseDetail, this);
  }

  public DatasetId dataset() {
    return dataset;
  }

  /** The HBase user that was refused. */
  public String principal() {
    return principal;
  }

  /** What the caller was doing, for example {@code begin snapshot 42}. */
  public String operation() {
    return operation;
  }

  /** The least role that allows the refused action. */
  public DatasetRole requiredRole() {
    return requiredRole;
  }

  /** HBase's own description of the refused action (table, family, action), if it gave one. */
  public Optional<String> hbaseDetail() {
    return hbaseDetail.isEmpty() ? Optional.empty() : Optional.of(hbaseDetail);
  }
}
