package io.strata.cli;

import io.strata.storage.data.ValueJson;
import io.strata.storage.data.ValueText;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * How the commands print values and partitions, the same in every command. Text and JSON use
 * the lossless forms of {@link ValueText} and {@link ValueJson}: in JSON, BOOLEAN, TINYINT,
 * SMALLINT, INT, BIGINT, FLOAT and DOUBLE are JSON booleans and numbers, ARRAY, MAP and ROW JSON
 * arrays and objects, every other type a string (a DECIMAL as a JSON number would be read as a
 * binary double by most parsers and lose digits). README, "JSON output", documents them.
 */
final class Values {
    /** How an unpartitioned table's partition prints in text output. */
    static final String NO_PARTITION = "-";

    private Values() {}

    /** The JSON value of {@code value} of {@code type}: a Boolean, Number, String, List, Map, or null ({@link ValueJson}). */
    static Object json(DataType type, Object value) {
        return ValueJson.toJson(type, value);
    }

    static String text(DataType type, Object value) {
        return ValueText.of(type, value);
    }

    static List<Object> jsonTuple(List<DataType> types, Object[] values) {
        List<Object> out = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            out.add(json(types.get(i), values[i]));
        }
        return out;
    }

    static String textTuple(List<DataType> types, Object[] values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            sb.append(i > 0 ? ", " : "").append(text(types.get(i), values[i]));
        }
        return sb.append(']').toString();
    }

    /** @param display a partition as {@code PartitionPath.display} gives it (empty: unpartitioned) */
    static String partitionText(String display) {
        return display.isEmpty() ? NO_PARTITION : display;
    }

    /** The JSON form of a partition: its display text, null for an unpartitioned table. */
    static String partitionJson(String display) {
        return display.isEmpty() ? null : display;
    }
}
