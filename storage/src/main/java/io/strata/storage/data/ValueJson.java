package io.strata.storage.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of values, lossless both ways (the CLI's input rows and {@code scan --json}):
 *
 * <ul>
 *   <li>BOOLEAN a JSON boolean; TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE JSON numbers (NaN and
 *       the infinities as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"});
 *   <li>every other scalar type a JSON string in its {@link ValueText} form (a DECIMAL as a JSON
 *       number would be read as a double by most parsers and lose digits);
 *   <li>ARRAY a JSON array; ROW a JSON object by field name, in field order (a field absent from
 *       an input object is null);
 *   <li>MAP with CHAR, VARCHAR or STRING keys a JSON object; with other keys a JSON array of
 *       {@code [key, value]} pairs (JSON object keys are strings only); entries in map order;
 *   <li>null JSON null.
 * </ul>
 */
public final class ValueJson {
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private ValueJson() {}

    /** The JSON value of {@code value} of {@code type}: a Boolean, Number, String, List, Map or null, for Jackson to write. */
    public static Object toJson(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        switch (type.root()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
                return value;
            case ARRAY: {
                List<Object> out = new ArrayList<>();
                for (Object e : (List<?>) value) {
                    out.add(toJson(type.elementType(), e));
                }
                return out;
            }
            case MAP: {
                Map<?, ?> map = (Map<?, ?>) value;
                if (type.keyType().isCharacterString()) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        out.put((String) e.getKey(), toJson(type.valueType(), e.getValue()));
                    }
                    return out;
                }
                List<Object> out = new ArrayList<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.add(java.util.Arrays.asList(
                            toJson(type.keyType(), e.getKey()), toJson(type.valueType(), e.getValue())));
                }
                return out;
            }
            case ROW: {
                Object[] row = (Object[]) value;
                Map<String, Object> out = new LinkedHashMap<>();
                List<DataType.Field> fields = type.fields();
                for (int i = 0; i < fields.size(); i++) {
                    out.put(fields.get(i).name(), toJson(fields.get(i).type(), row[i]));
                }
                return out;
            }
            default:
                return ValueText.of(type, value);
        }
    }

    /** The compact JSON text of {@code value}. */
    public static String compact(DataType type, Object value) {
        try {
            return COMPACT.writeValueAsString(toJson(type, value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render a " + type + " value as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The value of {@code type} that {@code json} (the form {@link #toJson} writes) holds; JSON null or
     * a missing node is null.
     *
     * @throws IllegalArgumentException naming the expected form and, for nested values, where in the
     *                                  value, when {@code json} is not a value of {@code type}
     */
    public static Object fromJson(DataType type, JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            return null;
        }
        try {
            return parse(type, json);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw mismatch(type, json, e.getMessage());
        }
    }

    private static Object parse(DataType type, JsonNode json) {
        switch (type.root()) {
            case BOOLEAN:
                if (!json.isBoolean()) {
                    throw mismatch(type, json, "expects true or false");
                }
                return json.booleanValue();
            case TINYINT:
                return (byte) integral(type, json, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) integral(type, json, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT:
                return (int) integral(type, json, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return integral(type, json, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT:
                return Float.parseFloat(floating(type, json));
            case DOUBLE:
                return Double.parseDouble(floating(type, json));
            case DECIMAL: {
                BigDecimal d = json.isTextual()
                        ? new BigDecimal(json.textValue())
                        : json.isNumber() ? json.decimalValue() : null;
                if (d == null) {
                    throw mismatch(type, json, "expects a string of digits");
                }
                return d.setScale(type.scale(), RoundingMode.UNNECESSARY);
            }
            case STRING:
            case CHAR:
            case VARCHAR:
                return text(type, json);
            case BYTES:
                try {
                    return Base64.getDecoder().decode(text(type, json));
                } catch (IllegalArgumentException e) {
                    throw mismatch(type, json, "expects standard base64: " + e.getMessage());
                }
            case DATE:
                return Math.toIntExact(LocalDate.parse(text(type, json)).toEpochDay());
            case TIME: {
                LocalTime t = LocalTime.parse(text(type, json));
                if (t.getNano() % 1_000_000 != 0) {
                    throw mismatch(type, json, "has digits below milliseconds");
                }
                return (int) (t.toNanoOfDay() / 1_000_000);
            }
            case TIMESTAMP:
                return epoch(type, json, LocalDateTime.parse(text(type, json)));
            case TIMESTAMP_LTZ:
                return epoch(type, json, OffsetDateTime.parse(text(type, json)).toInstant());
            case ARRAY: {
                if (!json.isArray()) {
                    throw mismatch(type, json, "expects a JSON array");
                }
                List<Object> out = new ArrayList<>(json.size());
                for (int i = 0; i < json.size(); i++) {
                    out.add(nested("element " + i, type.elementType(), json.get(i)));
                }
                return out;
            }
            case MAP:
                return map(type, json);
            case ROW:
                return row(type, json);
            default:
                throw new IllegalStateException("no JSON form for " + type);
        }
    }

    private static Map<Object, Object> map(DataType type, JsonNode json) {
        Map<Object, Object> out = new LinkedHashMap<>();
        if (type.keyType().isCharacterString()) {
            if (!json.isObject()) {
                throw mismatch(type, json, "expects a JSON object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(e.getKey(), nested("value of key " + e.getKey(), type.valueType(), e.getValue()));
            }
            return out;
        }
        if (!json.isArray()) {
            throw mismatch(type, json, "expects a JSON array of [key, value] pairs");
        }
        for (JsonNode pair : json) {
            if (!pair.isArray() || pair.size() != 2) {
                throw mismatch(type, json, "expects a JSON array of [key, value] pairs, got " + pair);
            }
            Object key = nested("map key", type.keyType(), pair.get(0));
            if (key == null) {
                throw mismatch(type, json, "has a null map key");
            }
            out.put(key, nested("value of key " + pair.get(0), type.valueType(), pair.get(1)));
        }
        return out;
    }

    private static Object[] row(DataType type, JsonNode json) {
        if (!json.isObject()) {
            throw mismatch(type, json, "expects a JSON object of its fields");
        }
        List<DataType.Field> fields = type.fields();
        Object[] out = new Object[fields.size()];
        int known = 0;
        for (int i = 0; i < out.length; i++) {
            DataType.Field f = fields.get(i);
            JsonNode v = json.get(f.name());
            if (v != null) {
                known++;
            }
            out[i] = nested("field " + f.name(), f.type(), v);
        }
        if (known != json.size()) {
            List<String> unknown = new ArrayList<>();
            json.fieldNames().forEachRemaining(unknown::add);
            unknown.removeIf(n -> fields.stream().anyMatch(f -> f.name().equals(n)));
            throw mismatch(type, json, "has unknown fields " + unknown);
        }
        return out;
    }

    private static Object nested(String where, DataType type, JsonNode json) {
        try {
            return fromJson(type, json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static long integral(DataType type, JsonNode json, long min, long max) {
        if (!json.isIntegralNumber() || !json.canConvertToLong() || json.longValue() < min || json.longValue() > max) {
            throw mismatch(type, json, "expects an integer in [" + min + ", " + max + "]");
        }
        return json.longValue();
    }

    /** The number's text, for parsing as float or double exactly as written. */
    private static String floating(DataType type, JsonNode json) {
        if (json.isNumber()) {
            return json.asText();
        }
        if (json.isTextual()
                && (json.textValue().equals("NaN")
                        || json.textValue().equals("Infinity")
                        || json.textValue().equals("-Infinity"))) {
            return json.textValue();
        }
        throw mismatch(type, json, "expects a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    }

    private static String text(DataType type, JsonNode json) {
        if (!json.isTextual()) {
            throw mismatch(type, json, "expects a JSON string");
        }
        return json.textValue();
    }

    private static long epoch(DataType type, JsonNode json, Object dateTime) {
        try {
            return dateTime instanceof LocalDateTime
                    ? ValueText.epochValue(type.precision(), (LocalDateTime) dateTime)
                    : ValueText.epochValue(type.precision(), (java.time.Instant) dateTime);
        } catch (IllegalArgumentException e) {
            throw mismatch(type, json, e.getMessage());
        }
    }

    private static IllegalArgumentException mismatch(DataType type, JsonNode json, String why) {
        String text = json.toString();
        return new IllegalArgumentException("value " + (text.length() > 80 ? text.substring(0, 77) + "..." : text)
                + " is not a " + type.typeName() + ": " + why);
    }
}
