package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.store.MetadataView;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

final class ManageTagsImpl extends MetadataUpdate<SnapshotInfo> implements ManageTags {
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final SnapshotId target;
  private final Set<String> add = new LinkedHashSet<>();
  private final Set<String> remove = new LinkedHashSet<>();

  ManageTagsImpl(OperationsContext ops, SnapshotId target) {
    super(ops);
    this.target = target;
  }

  @Override
  public ManageTags tag(String name) {
    checkArgument(name != null && TAG.matcher(name).matches(),
        "invalid tag '%s': use 1-64 letters, digits, '_', '.' or '-'", name);
    add.add(name);
    return this;
  }

  @Override
  public ManageTags untag(String name) {
    remove.add(name);
    return this;
  }

  @Override
  String describe() {
    return "tag snapshot " + target;
  }

  @Override
  void write(MetadataView view, SnapshotInfo updated) {
    view.putSnapshot(updated);
  }

  /** The record with the tags changed; adding a tag needs a readable snapshot, removing one does not. */
  @Override
  SnapshotInfo validate(MetadataView state) {
    SnapshotInfo s = add.isEmpty() ? requireRecorded(state, target) : requireReadable(state, target);
    for (String name : add) {
      state.tagged(name).filter(other -> !other.id().equals(target)).ifPresent(other -> {
        throw new IllegalArgumentException(String.format(
            "tag '%s' already names snapshot %s (untag it there first)", name, other.id()));
      });
    }
    for (String name : remove) {
      checkArgument(s.tags().contains(name), "snapshot %s has no tag '%s'", target, name);
    }
    Set<String> tags = new TreeSet<>(s.tags());
    tags.addAll(add);
    tags.removeAll(remove);
    return s.toBuilder().tags(tags).build();
  }
}
