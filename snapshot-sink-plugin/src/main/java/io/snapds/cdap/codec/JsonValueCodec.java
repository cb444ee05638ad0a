package io.snapds.cdap.codec;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.cdap.cdap.api.data.format.StructuredRecord;
import io.cdap.cdap.api.data.schema.Schema;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Arrays, maps and records as JSON, guided by the schema (the JSON carries no types):
 * <ul>
 *   <li>null: {@code null}; string, enum, datetime: a string; boolean: true/false;</li>
 *   <li>int, long and the date/time/timestamp types on them: a number (days, millis or micros,
 *       as the schema's logical type counts them);</li>
 *   <li>float, double: a number, or the string {@code "NaN"}, {@code "Infinity"},
 *       {@code "-Infinity"};</li>
 *   <li>bytes: a base64 string; decimal: its value as a plain decimal string ({@code "12.30"});</li>
 *   <li>array: an array; record: an object of its fields; map with string keys: an object;
 *       map with other keys: an array of {@code [key, value]} pairs.</li>
 * </ul>
 */
final class JsonValueCodec {
  private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

  private JsonValueCodec() {
  }

  static String toJson(Schema schema, Object value) {
    return GSON.toJson(toElement(schema, value));
  }

  static Object fromJson(Schema schema, String json) {
    // Gson 2.3.1's API: a CDAP runtime shows its plugins its own Gson 2.3.1, parent first
    // (JsonParser.parseString, from 2.8.6, would be a NoSuchMethodError there)
    @SuppressWarnings("deprecation")
    JsonElement parsed = new JsonParser().parse(json);
    return fromElement(schema, parsed);
  }

  private static JsonElement toElement(Schema schema, Object value) {
    if (value == null) {
      if (!schema.isNullable() && schema.getType() != Schema.Type.NULL) {
        throw new IllegalArgumentException("null for a non-nullable " + SchemaTypes.describe(schema));
      }
      return JsonNull.INSTANCE;
    }
    Schema s = SchemaTypes.nonNullable(schema);
    switch (s.getType()) {
      case STRING:
      case ENUM:
        return new JsonPrimitive(value.toString());
      case BOOLEAN:
        return new JsonPrimitive((Boolean) value);
      case INT:
      case LONG:
        return new JsonPrimitive((Number) value);
      case FLOAT:
      case DOUBLE: {
        double d = ((Number) value).doubleValue();
        return Double.isNaN(d) || Double.isInfinite(d) ? new JsonPrimitive(value.toString()) : new JsonPrimitive((Number) value);
      }
      case BYTES:
        if (s.getLogicalType() == Schema.LogicalType.DECIMAL) {
          return new JsonPrimitive(new BigDecimal(new BigInteger(Values.bytes(value)), s.getScale()).toPlainString());
        }
        return new JsonPrimitive(Base64.getEncoder().encodeToString(Values.bytes(value)));
      case ARRAY: {
        JsonArray out = new JsonArray();
        for (Object item : elements(value)) {
          out.add(toElement(s.getComponentSchema(), item));
        }
        return out;
      }
      case MAP: {
        Map.Entry<Schema, Schema> kv = s.getMapSchema();
        Map<?, ?> map = (Map<?, ?>) value;
        if (stringKeys(kv.getKey())) {
          JsonObject out = new JsonObject();
          map.forEach((k, v) -> out.add(k.toString(), toElement(kv.getValue(), v)));
          return out;
        }
        JsonArray out = new JsonArray();
        map.forEach((k, v) -> {
          JsonArray pair = new JsonArray();
          pair.add(toElement(kv.getKey(), k));
          pair.add(toElement(kv.getValue(), v));
          out.add(pair);
        });
        return out;
      }
      case RECORD: {
        StructuredRecord record = (StructuredRecord) value;
        JsonObject out = new JsonObject();
        for (Schema.Field f : s.getFields()) {
          out.add(f.getName(), toElement(f.getSchema(), record.get(f.getName())));
        }
        return out;
      }
      default:
        throw new IllegalArgumentException("cannot write a value of type " + s.getType() + " as JSON");
    }
  }

  private static Object fromElement(Schema schema, JsonElement json) {
    if (json == null || json.isJsonNull()) {
      if (!schema.isNullable() && schema.getType() != Schema.Type.NULL) {
        throw new IllegalArgumentException("null for a non-nullable " + SchemaTypes.describe(schema));
      }
      return null;
    }
    Schema s = SchemaTypes.nonNullable(schema);
    switch (s.getType()) {
      case STRING:
      case ENUM:
        return json.getAsString();
      case BOOLEAN:
        return json.getAsBoolean();
      case INT:
        return json.getAsInt();
      case LONG:
        return json.getAsLong();
      case FLOAT:
        return json.getAsJsonPrimitive().isString() ? Float.valueOf(json.getAsString()) : json.getAsFloat();
      case DOUBLE:
        return json.getAsJsonPrimitive().isString() ? Double.valueOf(json.getAsString()) : json.getAsDouble();
      case BYTES:
        if (s.getLogicalType() == Schema.LogicalType.DECIMAL) {
          return new BigDecimal(json.getAsString()).setScale(s.getScale()).unscaledValue().toByteArray();
        }
        return Base64.getDecoder().decode(json.getAsString());
      case ARRAY: {
        List<Object> out = new ArrayList<>();
        for (JsonElement item : json.getAsJsonArray()) {
          out.add(fromElement(s.getComponentSchema(), item));
        }
        return out;
      }
      case MAP: {
        Map.Entry<Schema, Schema> kv = s.getMapSchema();
        Map<Object, Object> out = new LinkedHashMap<>();
        if (stringKeys(kv.getKey())) {
          json.getAsJsonObject().entrySet().forEach(e -> out.put(e.getKey(), fromElement(kv.getValue(), e.getValue())));
        } else {
          for (JsonElement pair : json.getAsJsonArray()) {
            JsonArray p = pair.getAsJsonArray();
            out.put(fromElement(kv.getKey(), p.get(0)), fromElement(kv.getValue(), p.get(1)));
          }
        }
        return out;
      }
      case RECORD: {
        JsonObject object = json.getAsJsonObject();
        StructuredRecord.Builder builder = StructuredRecord.builder(s);
        for (Schema.Field f : s.getFields()) {
          Object v = fromElement(f.getSchema(), object.get(f.getName()));
          if (v != null) {
            builder.set(f.getName(), v);
          }
        }
        return builder.build();
      }
      default:
        throw new IllegalArgumentException("cannot read a value of type " + s.getType() + " from JSON");
    }
  }

  private static boolean stringKeys(Schema keySchema) {
    Schema k = SchemaTypes.nonNullable(keySchema);
    return k.getType() == Schema.Type.STRING && !keySchema.isNullable();
  }

  private static Iterable<?> elements(Object array) {
    if (array instanceof Collection<?> c) {
      return c;
    }
    if (array.getClass().isArray()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < Array.getLength(array); i++) {
        out.add(Array.get(array, i));
      }
      return out;
    }
    throw new IllegalArgumentException("expected a collection or an array, got " + array.getClass().getName());
  }
}
