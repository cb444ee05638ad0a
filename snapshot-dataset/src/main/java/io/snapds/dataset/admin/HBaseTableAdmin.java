package io.snapds.dataset.admin;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** A {@link TableAdmin} for one HBase table with a fixed list of column families. */
final class HBaseTableAdmin implements TableAdmin {
  private final Admin admin;
  private final TableName name;
  private final List<ColumnFamilyDescriptor> families;

  HBaseTableAdmin(Admin admin, TableName name, List<ColumnFamilyDescriptor> families) {
    this.admin = admin;
    this.name = name;
    this.families = families;
  }

  @Override
  public boolean exists() throws IOException {
    return admin.tableExists(name);
  }

  @Override
  public void create() throws IOException {
    admin.createTable(descriptor());
  }

  @Override
  public void truncate() throws IOException {
    if (admin.isTableEnabled(name)) {
      admin.disableTable(name);
    }
    admin.truncateTable(name, true);
  }

  @Override
  public void upgrade() throws IOException {
    TableDescriptor current = admin.getDescriptor(name);
    for (ColumnFamilyDescriptor f : families) {
      if (!current.hasColumnFamily(f.getName())) {
        admin.addColumnFamily(name, f);
      } else if (current.getColumnFamily(f.getName()).getMaxVersions() != f.getMaxVersions()
          || current.getColumnFamily(f.getName()).isNewVersionBehavior() != f.isNewVersionBehavior()) {
        admin.modifyColumnFamily(name, f);
      }
    }
  }

  @Override
  public void drop() throws IOException {
    if (!admin.tableExists(name)) {
      return;
    }
    if (admin.isTableEnabled(name)) {
      admin.disableTable(name);
    }
    admin.deleteTable(name);
  }

  private TableDescriptor descriptor() {
    return TableDescriptorBuilder.newBuilder(name).setColumnFamilies(families).build();
  }

  @Override
  public String toString() {
    return name.getNameAsString();
  }
}
