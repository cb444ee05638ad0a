package io.snapds.dataset;

import static com.google.common.base.Preconditions.checkArgument;

import io.snapds.dataset.store.MetadataView;
import io.snapds.dataset.store.MetadataStore;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

final class ManageTagsImpl implements ManageTags {
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final DatasetId dataset;
  private final MetadataStore store;
  private final SnapshotId target;
  private final Set<String> add = new LinkedHashSet<>();
  private final Set<String> remove = new LinkedHashSet<>();

  ManageTagsImpl(DatasetId dataset, MetadataStore store, SnapshotId target) {
    this.dataset = dataset;
    this.store = store;
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
  public SnapshotInfo apply() {
    return store.read(this::change);
  }

  @Override
  public SnapshotInfo commit() {
    return store.update("tag snapshot " + target, view -> {
      SnapshotInfo updated = change(view);
      view.putSnapshot(updated);
      return updated;
    });
  }

  private SnapshotInfo change(MetadataView state) {
    SnapshotInfo s = state.snapshot(target)
        .orElseThrow(() -> new SnapshotNotAvailableException(dataset, target, null));
    if (!add.isEmpty() && !s.state().isReadable()) {
      throw new SnapshotNotAvailableException(dataset, target, s.state());
    }
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
