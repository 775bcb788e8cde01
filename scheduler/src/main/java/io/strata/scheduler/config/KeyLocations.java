package io.strata.scheduler.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each key of a YAML document is (the location of the key itself; for a list element, of
 * its value), by dotted path
 * ({@code defaults.expiration.cron}, list elements as {@code tables.databases[0].include}): the
 * checks after binding report errors at the key that holds the bad value.
 */
final class KeyLocations {
    private final Map<String, JsonLocation> byPath = new HashMap<>();

    static KeyLocations index(JsonParser p) throws IOException {
        KeyLocations out = new KeyLocations();
        Deque<Frame> stack = new ArrayDeque<>();
        String pending = null;
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            switch (t) {
                case FIELD_NAME -> {
                    Frame f = stack.peek();
                    pending = child(f == null ? "" : f.path, p.currentName());
                    out.byPath.putIfAbsent(pending, p.currentTokenLocation());
                }
                case START_OBJECT, START_ARRAY -> {
                    String path = pathOfValue(stack, pending);
                    out.byPath.putIfAbsent(path, p.currentTokenLocation());
                    stack.push(new Frame(path, t == JsonToken.START_ARRAY));
                    pending = null;
                }
                case END_OBJECT, END_ARRAY -> stack.pop();
                default -> {
                    // a list element has no key: its value's place stands for it
                    out.byPath.putIfAbsent(pathOfValue(stack, pending), p.currentTokenLocation());
                    pending = null;
                }
            }
        }
        return out;
    }

    /** The path of the value starting now: the pending key's, or the next element of the enclosing list. */
    private static String pathOfValue(Deque<Frame> stack, String pending) {
        Frame f = stack.peek();
        if (f != null && f.array) {
            return f.path + "[" + f.next++ + "]";
        }
        return pending == null ? "" : pending;
    }

    private static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    /** The location of {@code path}, or of its nearest enclosing key that has one. */
    JsonLocation of(String path) {
        for (String p = path; ; ) {
            JsonLocation l = byPath.get(p);
            if (l != null) {
                return l;
            }
            int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
            if (cut < 0) {
                return JsonLocation.NA;
            }
            p = p.substring(0, cut);
        }
    }

    /** The dotted path of the place a binding error refers to. */
    static String pathOf(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        List<JsonMappingException.Reference> refs = e.getPath();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    private static final class Frame {
        final String path;
        final boolean array;
        int next;

        Frame(String path, boolean array) {
            this.path = path;
            this.array = array;
        }
    }
}
