package io.snapds.dataset.admin;

import io.snapds.dataset.DatasetRole;
import java.util.List;
import java.util.Optional;

/**
 * What one principal (an HBase user, or {@code @group}) may do with a dataset: the highest
 * {@link DatasetRole} whose every permission it holds, if any, and the HBase permissions it holds
 * on the dataset's tables and namespace, as {@code table[:family] ACTIONS}.
 */
public record PrincipalAccess(String principal, Optional<DatasetRole> role, List<String> permissions) {
  public PrincipalAccess {
    permissions = List.copyOf(permissions);
  }
}
