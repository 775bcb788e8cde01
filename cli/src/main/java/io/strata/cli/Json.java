package io.strata.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON output of the inspection commands ({@code --json}). */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private Json() {}

    static void print(PrintWriter out, Object value) {
        try {
            out.println(MAPPER.writeValueAsString(value));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render JSON: " + e.getMessage(), e);
        }
    }

    /** A JSON object with these keys and values, in this order. */
    static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    static String compact(Object value) {
        try {
            return COMPACT.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render JSON: " + e.getMessage(), e);
        }
    }
}
