package io.snapds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import io.snapds.dataset.RowScan;
import io.snapds.dataset.RowScanner;
import io.snapds.dataset.schema.RowCodec;
import io.snapds.dataset.schema.Schema;
import io.snapds.dataset.schema.SchemaRecord;
import io.snapds.dataset.schema.Type;
import io.snapds.dataset.testing.GoldenRecords;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snapds.dataset.DatasetId;
import io.snapds.dataset.SnapshotDataset;
import io.snapds.dataset.SnapshotInfo;
import io.snapds.dataset.SnapshotRow;
import io.snapds.dataset.testing.MiniCluster;
import io.snapds.dataset.testing.MiniClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MiniClusterExtension.class)
class LoadAndReadTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private Path write(String name, String content) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content);
    return f;
  }

  private static SnapshotDataset open(DatasetId id) {
    return MiniCluster.get().datasets().open(id);
  }

  @Test
  void loadedCsvIsPublishedAndScannedBackAsTableAndJson() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("load");
    Path csv = write("prices.csv", "id,name,price\n1,apple,1.20\n2,\"banana, ripe\",0.50\n3,cherry,7\n");
    Cli.Result created = Cli.run("create", id.toString(), "--families", "d,x", "--retain-last", "4");
    assertEquals(0, created.exitCode(), created.toString());

    Cli.Result load = Cli.run("load", id.toString(), csv.toString(), "--key", "id", "--run-id", "run-1");
    assertEquals(0, load.exitCode(), load.toString());
    try (SnapshotDataset ds = open(id)) {
      SnapshotInfo current = ds.currentSnapshot().orElseThrow();
      assertEquals(3, current.rowCount());
      assertEquals(Optional.of("run-1"), current.runId());
      SnapshotRow banana = ds.readCurrent().get(Bytes.toBytes("2")).orElseThrow();
      assertEquals("banana, ripe", Bytes.toString(banana.value("d", "name")));
      assertEquals(null, banana.value("d", "id"), "key columns are not written as cells");
      assertTrue(load.out().contains("published snapshot " + current.id()), load.out());
    }

    Cli.Result table = Cli.run("scan", id.toString());
    assertEquals(0, table.exitCode(), table.toString());
    assertEquals(List.of("KEY  d:name        d:price", "1    apple         1.20", "2    banana, ripe  0.50",
        "3    cherry        7"), table.outLines());

    Cli.Result json = Cli.run("scan", id.toString(), "--json", "--limit", "2");
    assertEquals(0, json.exitCode(), json.toString());
    List<JsonNode> rows = new ArrayList<>();
    for (String line : json.outLines()) {
      rows.add(JSON.readTree(line));
    }
    assertEquals(2, rows.size());
    assertEquals("1", rows.get(0).get("key").asText());
    assertEquals("apple", rows.get(0).get("columns").get("d:name").asText());
    assertEquals("0.50", rows.get(1).get("columns").get("d:price").asText());

    Cli.Result get = Cli.run("get", id.toString(), "3", "9", "--json");
    assertEquals(ExitCodes.NOT_FOUND, get.exitCode(), get.toString());
    assertEquals("cherry", JSON.readTree(get.outLines().get(0)).get("columns").get("d:name").asText());
    assertTrue(get.err().contains("not in snapshot") && get.err().contains("9"), get.err());

    // the same run id again publishes nothing
    Cli.Result again = Cli.run("load", id.toString(), csv.toString(), "--key", "id", "--run-id", "run-1");
    assertEquals(0, again.exitCode(), again.toString());
    assertTrue(again.out().contains("published already"), again.out());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(1, ds.retainedSnapshots().size());
    }
  }

  /**
   * Issue #12: {@code create --split-points} gives the first snapshot its regions before its
   * first row, at typed key values in key order whatever order they were given in.
   */
  @Test
  void splitPointsOfATypedKeySplitTheFirstLoadsRange() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("splitpoints");
    Cli.Result created = Cli.run("create", id.toString(), "--schema", "id long key, name string",
        "--split-points", "300,-5,100");
    assertEquals(0, created.exitCode(), created.toString());
    assertTrue(created.out().contains("first snapshot split at 3 keys"), created.out());
    Schema schema = Schema.parse("id long key, name string");
    io.snapds.dataset.schema.KeyCodec keys = new io.snapds.dataset.schema.KeyCodec(schema);
    List<String> expected = new ArrayList<>();
    for (long k : new long[] {-5, 100, 300}) {
      expected.add(Bytes.toStringBinary(keys.encode(List.of(k))));
    }
    List<String> stored = new ArrayList<>();
    try (SnapshotDataset ds = open(id)) {
      ds.properties().firstSplitPoints().forEach(p -> stored.add(Bytes.toStringBinary(p)));
    }
    assertEquals(expected, stored, "the points, encoded as the key field and sorted");

    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = -20; i < 400; i++) {
      csv.append(i).append(",n").append(i).append('\n');
    }
    Cli.Result load = Cli.run("load", id.toString(), write("ids.csv", csv.toString()).toString());
    assertEquals(0, load.exitCode(), load.toString());
    try (SnapshotDataset ds = open(id);
        org.apache.hadoop.hbase.client.RegionLocator locator =
            MiniCluster.get().connection().getRegionLocator(id.dataTable())) {
      io.snapds.dataset.SnapshotKeys snapshot = ds.currentSnapshot().orElseThrow().keys();
      List<String> inside = new ArrayList<>();
      for (byte[] start : locator.getStartKeys()) {
        if (Bytes.compareTo(start, snapshot.start()) > 0
            && Bytes.compareTo(start, snapshot.stop()) < 0) {
          inside.add(Bytes.toStringBinary(snapshot.userKey(start)));
        }
      }
      assertEquals(expected, inside, "the first snapshot's range split at the three keys");
      assertEquals(420, ds.currentSnapshot().orElseThrow().rowCount());
    }

    Cli.Result bad = Cli.run("create", MiniCluster.uniqueDataset("badpoints").toString(), "--schema",
        "id long key", "--split-points", "ten");
    assertEquals(ExitCodes.USAGE, bad.exitCode(), bad.toString());
    assertTrue(bad.err().contains("value 'ten' of field 'id' (long)"), bad.err());
  }

  @Test
  void jsonLinesWithCompositeKeysAndReadsByIdAndTime() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("jsonl");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    Path v1 = write("v1.jsonl", "{\"region\":\"eu\",\"sku\":\"a\",\"qty\":3,\"tags\":[\"x\"]}\n\n"
        + "{\"region\":\"us\",\"sku\":\"a\",\"qty\":5,\"note\":null}\n");
    Path v2 = write("v2.jsonl", "{\"region\":\"eu\",\"sku\":\"a\",\"qty\":4}\n");
    assertEquals(0, Cli.run("load", id.toString(), v1.toString(), "-k", "region,sku", "--source-key", "day-1").exitCode());
    SnapshotInfo first;
    try (SnapshotDataset ds = open(id)) {
      first = ds.currentSnapshot().orElseThrow();
      SnapshotRow us = ds.readCurrent().get(Bytes.toBytes("us|a")).orElseThrow();
      assertEquals("5", Bytes.toString(us.value("d", "qty")));
      assertEquals(1, us.columnCount(), "null fields write no cell");
      SnapshotRow eu = ds.readCurrent().get(Bytes.toBytes("eu|a")).orElseThrow();
      assertEquals("[\"x\"]", Bytes.toString(eu.value("d", "tags")));
    }
    Thread.sleep(5); // the second publish gets a later time than the as-of below
    java.time.Instant between = java.time.Instant.now();
    assertEquals(0, Cli.run("load", id.toString(), v2.toString(), "-k", "region,sku").exitCode());

    Cli.Result current = Cli.run("scan", id.toString(), "--json");
    assertEquals(1, current.outLines().size(), current.toString());
    Cli.Result byId = Cli.run("scan", id.toString(), "--json", "--snapshot", first.id().toString());
    assertEquals(2, byId.outLines().size(), byId.toString());
    Cli.Result asOf = Cli.run("scan", id.toString(), "--json", "--as-of", between.toString());
    assertEquals(byId.out(), asOf.out());

    Cli.Result history = Cli.run("history", id.toString(), "--json");
    JsonNode snapshots = JSON.readTree(history.out());
    assertEquals(2, snapshots.size());
    assertTrue(snapshots.get(0).get("current").asBoolean());
    assertEquals("day-1", snapshots.get(1).get("sourceKey").asText());
    assertFalse(snapshots.get(1).get("current").asBoolean());
  }

  @Test
  void badCsvLineFailsWithItsNumberAndPublishesNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("badcsv");
    assertEquals(0, Cli.run("create", id.toString()).exitCode());
    StringBuilder content = new StringBuilder("id,price\n");
    for (int i = 0; i < 2000; i++) {
      content.append(i).append(',').append(i * 2).append('\n');
    }
    content.append("2000,1,extra\n"); // line 2002
    Path bad = write("bad.csv", content.toString());

    Cli.Result r = Cli.run("load", id.toString(), bad.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.toString());
    assertEquals(bad + " line 2002: expected 2 fields [id, price], got 3; nothing was published\n",
        r.err().replace("snapds: ", ""));
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.empty(), ds.currentSnapshot());
      assertTrue(ds.retainedSnapshots().isEmpty());
    }

    Path quote = write("quote.csv", "id,price\n1,2\n2,\"unterminated\n");
    Cli.Result q = Cli.run("load", id.toString(), quote.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, q.exitCode(), q.toString());
    assertTrue(q.err().contains("line 3: malformed CSV"), q.err());

    Path emptyKey = write("emptykey.jsonl", "{\"id\":\"1\",\"v\":1}\n{\"id\":\"\",\"v\":2}\n");
    Cli.Result k = Cli.run("load", id.toString(), emptyKey.toString(), "--key", "id");
    assertEquals(ExitCodes.BAD_INPUT, k.exitCode(), k.toString());
    assertTrue(k.err().contains("line 2: empty key column 'id'"), k.err());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.empty(), ds.currentSnapshot());
    }
  }

  /** GoldenRecords (#15) as a CSV in the text forms of the README: strings quoted, nulls empty and unquoted. */
  private Path goldenCsv() throws Exception {
    StringBuilder csv = new StringBuilder(String.join(",", GoldenRecords.names())).append('\n');
    CSVFormat format = CSVFormat.RFC4180.builder().setNullString("").setQuoteMode(QuoteMode.ALL_NON_NULL).build();
    try (CSVPrinter printer = new CSVPrinter(csv, format)) {
      for (Map<String, Object> r : GoldenRecords.records()) {
        List<String> cells = new ArrayList<>();
        r.values().forEach(v -> cells.add(v == null ? null : v instanceof byte[] b ? Base64.getEncoder().encodeToString(b)
            : v instanceof BigDecimal d ? d.toPlainString() : v.toString()));
        printer.printRecord(cells);
      }
    }
    return write("golden.csv", csv.toString());
  }

  /** A typed JSON value read back independently of the command line's own parser. */
  private static Object fromJson(Type type, JsonNode v) {
    if (v.isNull()) {
      return null;
    }
    switch (type.kind()) {
      case BOOLEAN: return v.booleanValue();
      case INT: return v.intValue();
      case LONG: return v.longValue();
      case FLOAT: return Float.parseFloat(v.decimalValue().toString());
      case DOUBLE: return Double.parseDouble(v.decimalValue().toString());
      case STRING: return v.textValue();
      case BYTES: return Base64.getDecoder().decode(v.textValue());
      case DECIMAL: return new BigDecimal(v.textValue());
      case DATE: return LocalDate.parse(v.textValue());
      case TIMESTAMP: return LocalDateTime.parse(v.textValue());
      case TIMESTAMPTZ: return Instant.parse(v.textValue());
      default: throw new AssertionError(type);
    }
  }

  private static List<SchemaRecord> typedJson(Schema schema, Cli.Result scan) throws Exception {
    ObjectMapper exact = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    List<SchemaRecord> out = new ArrayList<>();
    for (String line : scan.outLines()) {
      JsonNode row = exact.readTree(line);
      assertEquals(schema.fields().size(), row.size(), line);
      SchemaRecord.Builder b = SchemaRecord.builder(schema);
      schema.fields().forEach(f -> b.set(f.name(), fromJson(f.type(), row.get(f.name()))));
      out.add(b.build());
    }
    return out;
  }

  @Test
  void goldenRecordsLoadedAsCsvScanBackEqualAsTypedJsonAndThroughTheJavaApi() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("golden");
    Cli.Result created = Cli.run("create", id.toString(), "--schema", GoldenRecords.schemaText());
    assertEquals(0, created.exitCode(), created.toString());
    Schema schema = Schema.parse(GoldenRecords.schemaText());
    List<SchemaRecord> expected = new ArrayList<>();
    GoldenRecords.records().forEach(r -> expected.add(SchemaRecord.of(schema, r)));

    Cli.Result load = Cli.run("load", id.toString(), goldenCsv().toString());
    assertEquals(0, load.exitCode(), load.toString());
    Cli.Result json = Cli.run("scan", id.toString(), "--json");
    assertEquals(0, json.exitCode(), json.toString());
    assertEquals(expected, typedJson(schema, json), json.out());
    // the documented text forms, literally
    JsonNode epoch = JSON.readTree(json.outLines().get(3));
    assertEquals(42, epoch.get("id").intValue());
    assertEquals("12.3400", epoch.get("amount").textValue(), "decimals: a string with the type's scale");
    assertEquals("1970-01-01T00:00:00.000000", epoch.get("at").textValue());
    assertEquals("1970-01-01T00:00:00.000000Z", epoch.get("at_tz").textValue());
    assertEquals("Kg==", epoch.get("b").textValue());
    assertTrue(JSON.readTree(json.outLines().get(2)).get("s").isNull(), "the all-null record keeps its row");

    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.of(schema), ds.schema());
      RowCodec codec = new RowCodec(ds.schema(ds.currentSnapshot().orElseThrow().id()).orElseThrow(), "d");
      List<SchemaRecord> api = new ArrayList<>();
      try (RowScanner rows = ds.readCurrent().scan(RowScan.all())) {
        rows.forEach(r -> api.add(codec.decode(r)));
      }
      assertEquals(expected, api, "the bytes the CLI wrote are the schema's encoding");
    }

    // scan --json's output is loadable as JSON Lines, and gives the same records again
    Path again = write("again.jsonl", json.out());
    Cli.Result reload = Cli.run("load", id.toString(), again.toString());
    assertEquals(0, reload.exitCode(), reload.toString());
    assertEquals(expected, typedJson(schema, Cli.run("scan", id.toString(), "--json")));

    // typed keys: get by value, a range by values, a projection by field names
    Cli.Result get = Cli.run("get", id.toString(), "42", "-1", "--json", "--columns", "amount");
    assertEquals(0, get.exitCode(), get.toString());
    assertEquals(List.of("{\"id\":42,\"amount\":\"12.3400\"}", "{\"id\":-1,\"amount\":\"-0.0001\"}"), get.outLines());
    Cli.Result range = Cli.run("scan", id.toString(), "--start", "-1", "--stop", "1000", "--columns", "s");
    assertEquals(List.of("ID  S", "-1  minus one", "0", "42  forty-two"),
        range.outLines().stream().map(l -> l.toUpperCase().startsWith("ID") ? l.toUpperCase() : l).toList(),
        range.toString());
    Cli.Result unknown = Cli.run("scan", id.toString(), "--columns", "nope");
    assertEquals(ExitCodes.USAGE, unknown.exitCode(), unknown.toString());
    assertTrue(unknown.err().contains("nope"), unknown.err());
  }

  @Test
  void typedLoadRefusesBadValuesNullKeysAndUnknownFieldsAndPublishesNothing() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("typedbad");
    assertEquals(0, Cli.run("create", id.toString(), "--schema", "id long key, name string, price decimal(10,2), "
        + "at timestamp").exitCode());
    String header = "id,name,price,at\n";
    String good = "1,apple,1.20,2026-11-30T08:15:30.123456\n";
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put(header + good + "2,pear,abc,2026-11-30T08:00\n",
        "line 3: value 'abc' of field 'price' (decimal(10,2)) is not a decimal number");
    bad.put(header + good + "3,plum,1.234,\n",
        "line 3: value 1.234 of field 'price' (decimal(10,2)) has more than 2 digits after the point");
    bad.put(header + ",nokey,1,\n", "line 2: key field 'id' (long) is null");
    bad.put(header + "x1,fig,1,\n", "line 2: value 'x1' of field 'id' (long) is not a long (64-bit integer)");
    bad.put(header + "4,kiwi,1,30/11/2026\n", "line 2: value '30/11/2026' of field 'at' (timestamp) is not an ISO "
        + "timestamp without zone (2026-11-30T08:15:30.123456)");
    bad.put("id,colour\n5,red\n", "line 2: field 'colour' is not in the dataset's schema [id long key, name string, "
        + "price decimal(10,2), at timestamp]");
    int n = 0;
    for (Map.Entry<String, String> c : bad.entrySet()) {
      Path f = write("bad" + n++ + ".csv", c.getKey());
      Cli.Result r = Cli.run("load", id.toString(), f.toString());
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.toString());
      assertEquals(f + " " + c.getValue() + "; nothing was published\n", r.err().replace("snapds: ", ""));
    }
    Cli.Result withKey = Cli.run("load", id.toString(), write("k.csv", header + good).toString(), "--key", "id");
    assertEquals(ExitCodes.USAGE, withKey.exitCode(), withKey.toString());
    try (SnapshotDataset ds = open(id)) {
      assertEquals(Optional.empty(), ds.currentSnapshot());
    }
    // a quoted "" is the empty string, an empty unquoted field null; JSON Lines too
    assertEquals(0, Cli.run("load", id.toString(), write("ok.csv", header + good + "2,\"\",,\n").toString())
        .exitCode());
    assertEquals(List.of("{\"id\":1,\"name\":\"apple\",\"price\":\"1.20\",\"at\":\"2026-11-30T08:15:30.123456\"}",
        "{\"id\":2,\"name\":\"\",\"price\":null,\"at\":null}"), Cli.run("scan", id.toString(), "--json").outLines());
    Cli.Result jsonl = Cli.run("load", id.toString(), write("ok.jsonl",
        "{\"id\":7,\"price\":99999999.99,\"at\":\"2026-11-30 08:15:30\"}\n{\"id\":8,\"price\":\"x\"}\n").toString());
    assertEquals(ExitCodes.BAD_INPUT, jsonl.exitCode(), jsonl.toString());
    assertTrue(jsonl.err().contains("line 2: value 'x' of field 'price'"), jsonl.err());
    assertEquals(0, Cli.run("load", id.toString(), write("ok2.jsonl",
        "{\"id\":7,\"price\":99999999.99,\"at\":\"2026-11-30 08:15:30\"}\n").toString()).exitCode());
    assertEquals(List.of("{\"id\":7,\"name\":null,\"price\":\"99999999.99\",\"at\":\"2026-11-30T08:15:30.000000\"}"),
        Cli.run("get", id.toString(), "7", "--json").outLines(), "JSON numbers keep their digits");

    Cli.Result badSchema = Cli.run("create", MiniCluster.uniqueDataset("nokey").toString(), "--schema", "id long");
    assertEquals(ExitCodes.USAGE, badSchema.exitCode(), badSchema.toString());
    assertTrue(badSchema.err().contains("at least one key field"), badSchema.err());
  }

  @Test
  void schemaHistoryAndEachSnapshotReadWithItsOwnSchema() throws Exception {
    DatasetId id = MiniCluster.uniqueDataset("schemas");
    Path schemaFile = write("prices.schema", "sku string key,\n  qty int\n");
    assertEquals(0, Cli.run("create", id.toString(), "--schema-file", schemaFile.toString()).exitCode());
    assertEquals(0, Cli.run("load", id.toString(), write("v1.csv", "sku,qty\na,1\n").toString()).exitCode());
    long v1;
    try (SnapshotDataset ds = open(id)) {
      v1 = ds.currentSnapshot().orElseThrow().id().value();
      ds.updateSchema(u -> u.renameField("qty", "count").widenField("count", Type.LONG).addField("day", Type.DATE));
    }
    assertEquals(0, Cli.run("load", id.toString(), write("v2.csv", "sku,count,day\nb,5000000000,2026-12-01\n")
        .toString()).exitCode());

    assertEquals(List.of("{\"sku\":\"a\",\"qty\":1}"),
        Cli.run("scan", id.toString(), "--json", "--snapshot", String.valueOf(v1)).outLines());
    assertEquals(List.of("{\"sku\":\"b\",\"count\":5000000000,\"day\":\"2026-12-01\"}"),
        Cli.run("scan", id.toString(), "--json").outLines());

    Cli.Result current = Cli.run("schema", id.toString());
    assertEquals(0, current.exitCode(), current.toString());
    assertTrue(current.outLines().get(0).startsWith("schema 2 (current): sku string key, count long, day date"),
        current.out());
    assertEquals(1, current.out().split("\nschema ").length, "only the current one without --all");
    JsonNode all = JSON.readTree(Cli.run("schema", id.toString(), "--all", "--json").out());
    assertEquals(2, all.size());
    assertEquals(2, all.get(0).get("id").intValue());
    assertEquals(1, all.get(0).get("snapshots").size());
    assertEquals("sku string key, qty int", all.get(1).get("schema").textValue());
    assertEquals(v1, all.get(1).get("snapshots").get(0).longValue());
    assertEquals(2, all.get(0).get("fields").get(1).get("id").intValue(), "a renamed field keeps its id");
    assertEquals(1, JSON.readTree(Cli.run("show", id.toString(), String.valueOf(v1), "--json").out())
        .get("schema").intValue());

    DatasetId raw = MiniCluster.uniqueDataset("raw");
    assertEquals(0, Cli.run("create", raw.toString()).exitCode());
    assertEquals(List.of("dataset " + raw + " has no schema: its cells are raw bytes"),
        Cli.run("schema", raw.toString()).outLines());
    Cli.Result noKey = Cli.run("load", raw.toString(), write("raw.csv", "a,b\n1,2\n").toString());
    assertEquals(ExitCodes.USAGE, noKey.exitCode(), noKey.toString());
    assertTrue(noKey.err().contains("has no schema: give the key column(s) with --key"), noKey.err());
  }
}
