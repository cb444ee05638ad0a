package io.snapds.bench;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/** Builds a {@link ReadSample} from the rows a read returned. */
final class SampleCollector {
  private final int asked;
  private int found;
  private final Set<Integer> labels = new HashSet<>();

  SampleCollector(int asked) {
    this.asked = asked;
  }

  void add(Result r) {
    if (r == null || r.isEmpty()) {
      return;
    }
    found++;
    for (Cell c : r.rawCells()) {
      labels.add(RowData.label(CellUtil.cloneValue(c)));
    }
  }

  void addValues(Iterable<byte[]> values) {
    found++;
    for (byte[] v : values) {
      labels.add(RowData.label(v));
    }
  }

  ReadSample sample() {
    return new ReadSample(asked, found, labels);
  }
}
