package scanctl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of the emulator's answers, without a JSON library: objects are {@code Map<String, Object>},
 * arrays {@code List<Object>}, numbers {@code Long} or {@code Double}, then String, Boolean and null.
 */
public final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** Parses one JSON value. */
  public static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.space();
    if (json.at != text.length()) throw json.error("text after the value");
    return value;
  }

  /** A value as JSON: Map, List (or array), String, Number, Boolean, null. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  /** The value at a path of keys and indexes ({@code at(run, "deliveries", 0, "event_id")}); null when absent. */
  public static Object at(Object value, Object... path) {
    for (Object step : path) {
      if (step instanceof String key && value instanceof Map<?, ?> map) value = map.get(key);
      else if (step instanceof Integer index && value instanceof List<?> list && index < list.size()) value = list.get(index);
      else return null;
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    return value instanceof Map<?, ?> ? (Map<String, Object>) value : new LinkedHashMap<>();
  }

  @SuppressWarnings("unchecked")
  static List<Object> array(Object value) {
    return value instanceof List<?> ? (List<Object>) value : new ArrayList<>();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) out.append("null");
    else if (value instanceof String s) string(s, out);
    else if (value instanceof Number || value instanceof Boolean) out.append(value);
    else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) out.append(',');
        first = false;
        string(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof Iterable<?> list) {
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) out.append(',');
        first = false;
        write(item, out);
      }
      out.append(']');
    } else if (value instanceof Object[] array) write(List.of(array), out);
    else throw new IllegalArgumentException("not a JSON value: " + value.getClass());
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  private Object value() {
    space();
    if (at >= text.length()) throw error("a value");
    char c = text.charAt(at);
    switch (c) {
      case '{': {
        at++;
        Map<String, Object> map = new LinkedHashMap<>();
        space();
        if (peek('}')) return map;
        do {
          space();
          String key = stringValue();
          space();
          expect(':');
          map.put(key, value());
          space();
        } while (peek(','));
        expect('}');
        return map;
      }
      case '[': {
        at++;
        List<Object> list = new ArrayList<>();
        space();
        if (peek(']')) return list;
        do {
          list.add(value());
          space();
        } while (peek(','));
        expect(']');
        return list;
      }
      case '"':
        return stringValue();
      case 't':
        return word("true", Boolean.TRUE);
      case 'f':
        return word("false", Boolean.FALSE);
      case 'n':
        return word("null", null);
      default:
        return number();
    }
  }

  private String stringValue() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      if (at >= text.length()) throw error("the end of a string");
      char c = text.charAt(at++);
      if (c == '"') return out.toString();
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(at++);
      switch (e) {
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(e);
      }
    }
  }

  private Object number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
    String n = text.substring(start, at);
    if (n.isEmpty()) throw error("a value");
    return n.contains(".") || n.contains("e") || n.contains("E") ? (Object) Double.valueOf(n) : (Object) Long.valueOf(n);
  }

  private Object word(String word, Object value) {
    if (!text.startsWith(word, at)) throw error(word);
    at += word.length();
    return value;
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
  }

  private boolean peek(char c) {
    if (at < text.length() && text.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("'" + c + "'");
  }

  private IllegalArgumentException error(String wanted) {
    return new IllegalArgumentException("JSON: expected " + wanted + " at " + at);
  }
}
