package io.snapds.dataset.sim;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's client API over a {@link SimHBase}: the production code of the dataset runs on it
 * unchanged. Every call yields to the simulation's scheduler first; a scan yields again before
 * each region it reads (a region scanner sees its region as it was when it reached it, and the
 * next region as it is later, as in HBase), and a buffered mutator's flush yields before each
 * region's share of its mutations (so a writer can stop between the regions of one flush).
 * Admin is the subset the dataset uses; any other method fails naming itself.
 */
public final class SimConnection implements Connection {
  static final ServerName SERVER = ServerName.valueOf("sim-rs", 16020, 1);

  private final SimHBase hbase;
  private final Configuration conf;
  private volatile boolean closed;

  public SimConnection(SimHBase hbase) {
    this.hbase = hbase;
    this.conf = HBaseConfiguration.create();
  }

  public SimHBase hbase() {
    return hbase;
  }

  @Override
  public Configuration getConfiguration() {
    return conf;
  }

  @Override
  public Table getTable(TableName name) {
    return new SimTable(name);
  }

  @Override
  public Table getTable(TableName name, ExecutorService pool) {
    return new SimTable(name);
  }

  @Override
  public BufferedMutator getBufferedMutator(TableName name) {
    return new SimMutator(name, 2L << 20);
  }

  @Override
  public BufferedMutator getBufferedMutator(BufferedMutatorParams params) {
    long size = params.getWriteBufferSize() > 0 ? params.getWriteBufferSize() : 2L << 20;
    return new SimMutator(params.getTableName(), size);
  }

  @Override
  public RegionLocator getRegionLocator(TableName name) {
    return new SimLocator(name);
  }

  @Override
  public void clearRegionLocationCache() {
  }

  @Override
  public Admin getAdmin() {
    return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
        new SimAdmin());
  }

  @Override
  public TableBuilder getTableBuilder(TableName name, ExecutorService pool) {
    throw new UnsupportedOperationException("getTableBuilder");
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void abort(String why, Throwable e) {
    closed = true;
  }

  @Override
  public boolean isAborted() {
    return closed;
  }

  static HRegionLocation location(TableName table, SimHBase.Region r) {
    RegionInfo info = RegionInfoBuilder.newBuilder(table).setStartKey(r.start()).setEndKey(r.end())
        .setRegionId(r.id()).build();
    return new HRegionLocation(info, SERVER);
  }

  private final class SimTable implements Table {
    private final TableName name;

    SimTable(TableName name) {
      this.name = name;
    }

    @Override
    public TableName getName() {
      return name;
    }

    @Override
    public Configuration getConfiguration() {
      return conf;
    }

    @Override
    public TableDescriptor getDescriptor() throws IOException {
      return hbase.descriptor(name);
    }

    @Override
    public RegionLocator getRegionLocator() {
      return new SimLocator(name);
    }

    @Override
    public Result get(Get get) throws IOException {
      hbase.yieldPoint("get " + name);
      return hbase.get(name, get);
    }

    @Override
    public Result[] get(List<Get> gets) throws IOException {
      hbase.yieldPoint("multi-get " + name);
      Result[] out = new Result[gets.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = hbase.get(name, gets.get(i));
      }
      return out;
    }

    @Override
    public boolean exists(Get get) throws IOException {
      return !get(get).isEmpty();
    }

    @Override
    public void put(Put put) throws IOException {
      hbase.yieldPoint("put " + name);
      hbase.mutate(name, put);
    }

    @Override
    public void put(List<Put> puts) throws IOException {
      hbase.yieldPoint("multi-put " + name);
      for (Put p : puts) {
        hbase.mutate(name, p);
      }
    }

    @Override
    public void delete(Delete delete) throws IOException {
      hbase.yieldPoint("delete " + name);
      hbase.mutate(name, delete);
    }

    @Override
    public void delete(List<Delete> deletes) throws IOException {
      hbase.yieldPoint("multi-delete " + name);
      for (Delete d : deletes) {
        hbase.mutate(name, d);
      }
      deletes.clear(); // HBase leaves only the failed ones in the list
    }

    @Override
    public Result mutateRow(RowMutations rm) throws IOException {
      hbase.yieldPoint("mutate-row " + name);
      hbase.mutateRow(name, rm);
      return Result.EMPTY_RESULT;
    }

    @Override
    public CheckAndMutateResult checkAndMutate(CheckAndMutate cam) throws IOException {
      hbase.yieldPoint("check-and-mutate " + name);
      return new CheckAndMutateResult(hbase.checkAndMutate(name, cam), null);
    }

    @Override
    public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> cams) throws IOException {
      List<CheckAndMutateResult> out = new ArrayList<>();
      for (CheckAndMutate cam : cams) {
        out.add(checkAndMutate(cam));
      }
      return out;
    }

    @Override
    public void batch(List<? extends Row> actions, Object[] results) throws IOException {
      hbase.yieldPoint("batch " + name);
      for (int i = 0; i < actions.size(); i++) {
        Row a = actions.get(i);
        if (a instanceof Get g) {
          results[i] = hbase.get(name, g);
        } else if (a instanceof Mutation m) {
          hbase.mutate(name, m);
          results[i] = Result.EMPTY_RESULT;
        } else if (a instanceof RowMutations rm) {
          hbase.mutateRow(name, rm);
          results[i] = Result.EMPTY_RESULT;
        } else {
          throw new UnsupportedOperationException("batch action " + a.getClass().getSimpleName());
        }
      }
    }

    @Override
    public ResultScanner getScanner(Scan scan) throws IOException {
      hbase.yieldPoint("open scanner " + name);
      hbase.regionOf(name, scan.getStartRow()); // fails now for a missing table, as HBase does
      return new SimScanner(name, new Scan(scan));
    }

    @Override
    public ResultScanner getScanner(byte[] family) throws IOException {
      return getScanner(new Scan().addFamily(family));
    }

    @Override
    public void close() {
    }
  }

  /** Reads one region at a time, each as the region is when the scanner reaches it. */
  private final class SimScanner implements ResultScanner {
    private final TableName name;
    private final Scan scan;
    private final Deque<Result> batch = new ArrayDeque<>();
    private byte[] position;
    private boolean inclusive;
    private boolean exhausted;
    private int returned;
    private boolean closed;

    SimScanner(TableName name, Scan scan) {
      this.name = name;
      this.scan = scan;
      this.position = scan.getStartRow();
      this.inclusive = scan.includeStartRow();
    }

    @Override
    public Result next() throws IOException {
      int limit = scan.getLimit();
      while (batch.isEmpty() && !exhausted && !closed) {
        if (limit > 0 && returned >= limit) {
          exhausted = true;
          break;
        }
        hbase.yieldPoint("scan region of " + name + " from " + SimHBase.show(position));
        boolean reversed = scan.isReversed();
        SimHBase.Region region = !reversed || inclusive && position.length > 0 ? hbase.regionOf(name, position)
            : position.length == 0 ? hbase.lastRegion(name) : hbase.regionBefore(name, position);
        batch.addAll(hbase.scanRegion(name, scan, region, position, inclusive, limit > 0 ? limit - returned : 0));
        byte[] stop = scan.getStopRow();
        if (!reversed) {
          int past = stop.length == 0 ? -1 : Bytes.compareTo(region.end(), stop);
          if (region.end().length == 0 || past > 0 || past == 0 && !scan.includeStopRow()) {
            exhausted = true;
          } else {
            position = region.end();
            inclusive = true;
          }
        } else if (region.start().length == 0 || stop.length > 0 && Bytes.compareTo(region.start(), stop) <= 0) {
          exhausted = true;
        } else {
          // the next region down holds the keys just below this region's start
          position = region.start();
          inclusive = false;
        }
      }
      Result r = batch.poll();
      if (r != null) {
        returned++;
      }
      return r;
    }

    @Override
    public void close() {
      closed = true;
      batch.clear();
    }

    @Override
    public boolean renewLease() {
      return true;
    }

    @Override
    public ScanMetrics getScanMetrics() {
      return null;
    }
  }

  /** Buffers mutations; a flush sends them region by region, yielding before each region. */
  private final class SimMutator implements BufferedMutator {
    private final TableName name;
    private final long bufferSize;
    private final List<Mutation> buffer = new ArrayList<>();
    private long buffered;

    SimMutator(TableName name, long bufferSize) {
      this.name = name;
      this.bufferSize = bufferSize;
    }

    @Override
    public TableName getName() {
      return name;
    }

    @Override
    public Configuration getConfiguration() {
      return conf;
    }

    @Override
    public void mutate(Mutation m) throws IOException {
      buffer.add(m);
      buffered += m.heapSize();
      if (buffered >= bufferSize) {
        flush();
      }
    }

    @Override
    public void mutate(List<? extends Mutation> ms) throws IOException {
      for (Mutation m : ms) {
        mutate(m);
      }
    }

    @Override
    public void flush() throws IOException {
      if (buffer.isEmpty()) {
        return;
      }
      Map<Long, List<Mutation>> byRegion = new LinkedHashMap<>();
      try {
        for (Mutation m : buffer) {
          byRegion.computeIfAbsent(hbase.regionOf(name, m.getRow()).id(), k -> new ArrayList<>()).add(m);
        }
      } catch (IOException e) {
        throw failed(e);
      }
      for (List<Mutation> share : byRegion.values()) {
        hbase.yieldPoint("flush " + share.size() + " mutations to " + name);
        try {
          for (Mutation m : share) {
            hbase.mutate(name, m);
          }
        } catch (IOException e) {
          throw failed(e);
        }
        buffer.removeAll(share);
      }
      buffer.clear();
      buffered = 0;
    }

    private RetriesExhaustedWithDetailsException failed(IOException cause) {
      List<Throwable> causes = new ArrayList<>();
      List<Row> rows = new ArrayList<>();
      List<String> servers = new ArrayList<>();
      for (Mutation m : buffer) {
        causes.add(cause);
        rows.add(m);
        servers.add(SERVER.toString());
      }
      buffer.clear();
      buffered = 0;
      return new RetriesExhaustedWithDetailsException(causes, rows, servers);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }

  private final class SimLocator implements RegionLocator {
    private final TableName name;

    SimLocator(TableName name) {
      this.name = name;
    }

    @Override
    public HRegionLocation getRegionLocation(byte[] row, int replicaId, boolean reload) throws IOException {
      hbase.yieldPoint("locate " + name);
      return location(name, hbase.regionOf(name, row));
    }

    @Override
    public List<HRegionLocation> getRegionLocations(byte[] row, boolean reload) throws IOException {
      return List.of(getRegionLocation(row, 0, reload));
    }

    @Override
    public void clearRegionLocationCache() {
    }

    @Override
    public List<HRegionLocation> getAllRegionLocations() throws IOException {
      hbase.yieldPoint("locate all regions of " + name);
      List<HRegionLocation> out = new ArrayList<>();
      for (SimHBase.Region r : hbase.regions(name)) {
        out.add(location(name, r));
      }
      return out;
    }

    @Override
    public TableName getName() {
      return name;
    }

    @Override
    public void close() {
    }
  }

  /** The Admin calls the dataset makes; each yields first. */
  private final class SimAdmin implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String m = method.getName();
      switch (m) {
        case "close":
          return null;
        case "toString":
          return "SimAdmin";
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        case "getConnection":
          return SimConnection.this;
        case "getConfiguration":
          return conf;
        default:
          break;
      }
      hbase.yieldPoint("admin " + m);
      switch (m) {
        case "tableExists":
          return hbase.tableExists((TableName) args[0]);
        case "isTableEnabled":
          return hbase.isEnabled((TableName) args[0]);
        case "isTableDisabled":
          return !hbase.isEnabled((TableName) args[0]);
        case "createTable":
          hbase.createTable((TableDescriptor) args[0], args.length > 1 && args[1] instanceof byte[][] keys ? keys : null);
          return null;
        case "disableTable":
          hbase.setEnabled((TableName) args[0], false);
          return null;
        case "enableTable":
          hbase.setEnabled((TableName) args[0], true);
          return null;
        case "deleteTable":
          hbase.deleteTable((TableName) args[0]);
          return null;
        case "truncateTable":
          hbase.truncate((TableName) args[0], (Boolean) args[1]);
          return null;
        case "getDescriptor":
          return hbase.descriptor((TableName) args[0]);
        case "addColumnFamily":
        case "modifyColumnFamily": {
          TableName t = (TableName) args[0];
          ColumnFamilyDescriptor f = (ColumnFamilyDescriptor) args[1];
          TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(hbase.descriptor(t));
          hbase.setDescriptor(t, (m.equals("addColumnFamily") ? b.setColumnFamily(f) : b.modifyColumnFamily(f))
              .build());
          return null;
        }
        case "getNamespaceDescriptor":
          hbase.requireNamespace((String) args[0]);
          return NamespaceDescriptor.create((String) args[0]).build();
        case "createNamespace":
          hbase.createNamespace(((NamespaceDescriptor) args[0]).getName());
          return null;
        case "flush":
          return null;
        case "majorCompact":
          hbase.majorCompact((TableName) args[0]);
          return null;
        case "majorCompactRegion":
          hbase.majorCompact(findRegion((byte[]) args[0]).getTable());
          return null;
        case "splitRegionAsync":
          hbase.split(findRegion((byte[]) args[0]).getTable(), (byte[]) args[1]);
          return CompletableFuture.completedFuture(null);
        case "mergeRegionsAsync": {
          byte[][] names = (byte[][]) args[0];
          List<Long> ids = new ArrayList<>();
          TableName table = null;
          for (byte[] n : names) {
            RegionInfo r = findRegion(n);
            table = r.getTable();
            ids.add(r.getRegionId());
          }
          hbase.merge(table, ids);
          return CompletableFuture.completedFuture(null);
        }
        case "getRegionServers":
          return (Collection<ServerName>) List.of(SERVER);
        case "move":
          return null;
        case "runCatalogJanitor":
          return 0;
        case "getSecurityCapabilities":
          return List.of();
        default:
          throw new UnsupportedOperationException("the simulated Admin has no " + m);
      }
    }
  }

  /** The region named {@code name} (a full or an encoded region name) as it is now. */
  private RegionInfo findRegion(byte[] name) throws IOException {
    for (TableName t : hbase.tableNames()) {
      for (SimHBase.Region r : hbase.regions(t)) {
        RegionInfo info = location(t, r).getRegion();
        if (Bytes.equals(info.getRegionName(), name) || Bytes.equals(info.getEncodedNameAsBytes(), name)) {
          return info;
        }
      }
    }
    throw new org.apache.hadoop.hbase.UnknownRegionException(Bytes.toStringBinary(name));
  }

  static IOException interrupted(InterruptedException e) {
    Thread.currentThread().interrupt();
    return new InterruptedIOException(e.getMessage());
  }

  static final byte[] EMPTY = HConstants.EMPTY_BYTE_ARRAY;
}
