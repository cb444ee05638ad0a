package io.snapds.dataset;

import java.util.Set;

/** A publish group as its members record it: its id and every member dataset ({@link DatasetId#toString()}). */
record GroupTag(String id, Set<String> members) {
  GroupTag {
    members = Set.copyOf(members);
  }

  /** What a history entry of the group says. */
  String reason(String verb) {
    return verb + " group " + id;
  }
}
