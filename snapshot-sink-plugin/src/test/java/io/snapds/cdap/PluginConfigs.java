package io.snapds.cdap;

import io.cdap.cdap.api.annotation.Name;
import io.cdap.cdap.api.plugin.PluginConfig;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds plugin configs from property maps the way CDAP does: each property goes into the field
 * whose {@link Name} it is, converted to the field's type; macro properties are recorded so that
 * {@link PluginConfig#containsMacro} sees them.
 */
final class PluginConfigs {
  private PluginConfigs() {
  }

  static <T extends PluginConfig> T create(Class<T> type, Map<String, String> properties) {
    return create(type, properties, Set.of());
  }

  static <T extends PluginConfig> T create(Class<T> type, Map<String, String> properties, Set<String> macros) {
    try {
      T config = type.getDeclaredConstructor().newInstance();
      Map<String, Field> fields = propertyFields(type);
      for (Map.Entry<String, String> p : properties.entrySet()) {
        Field f = fields.get(p.getKey());
        if (f == null) {
          throw new IllegalArgumentException("no property '" + p.getKey() + "' in " + type.getSimpleName());
        }
        f.setAccessible(true);
        f.set(config, convert(f.getType(), p.getValue()));
      }
      Field macroFields = PluginConfig.class.getDeclaredField("macroFields");
      macroFields.setAccessible(true);
      macroFields.set(config, new HashSet<>(macros));
      return config;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Property name to field, over the class and its superclasses, in declaration order. */
  static Map<String, Field> propertyFields(Class<?> type) {
    List<Class<?>> hierarchy = new ArrayList<>();
    for (Class<?> c = type; c != null && c != PluginConfig.class; c = c.getSuperclass()) {
      hierarchy.add(0, c);
    }
    Map<String, Field> out = new LinkedHashMap<>();
    for (Class<?> c : hierarchy) {
      for (Field f : c.getDeclaredFields()) {
        Name name = f.getAnnotation(Name.class);
        if (name != null) {
          out.put(name.value(), f);
        }
      }
    }
    return out;
  }

  private static Object convert(Class<?> type, String value) {
    if (value == null || type == String.class) {
      return value;
    }
    if (type == Integer.class || type == int.class) {
      return Integer.valueOf(value);
    }
    if (type == Long.class || type == long.class) {
      return Long.valueOf(value);
    }
    if (type == Boolean.class || type == boolean.class) {
      return Boolean.valueOf(value);
    }
    throw new IllegalArgumentException("unsupported property type " + type);
  }
}
