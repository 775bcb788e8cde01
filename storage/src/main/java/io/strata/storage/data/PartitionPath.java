package io.strata.storage.data;

import io.strata.storage.schema.DataType;
import java.util.List;

/**
 * The directory of a partition: {@code k1=v1/k2=v2}, values escaped like Hive's
 * ({@code %XX} for characters that are unsafe in paths). A null value is
 * {@code __DEFAULT_PARTITION__}. Only a location: manifests carry the typed values.
 */
public final class PartitionPath {
    public static final String DEFAULT_PARTITION = "__DEFAULT_PARTITION__";

    private PartitionPath() {}

    public static String of(List<String> keys, Object[] values) {
        if (keys.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(escape(keys.get(i))).append('=');
            Object v = values[i];
            sb.append(v == null ? DEFAULT_PARTITION : escape(valueText(v)));
        }
        return sb.toString();
    }

    /**
     * A readable form of a partition for logs and CLI output: {@code k1=v1,k2=v2} with each value
     * in its {@link ValueText} form ({@code dt=2026-11-29}); empty for an unpartitioned table.
     *
     * @param types the types of the partition keys, in order
     */
    public static String display(List<String> keys, List<DataType> types, Object[] values) {
        if (keys.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            sb.append(i > 0 ? "," : "").append(keys.get(i)).append('=').append(ValueText.of(types.get(i), values[i]));
        }
        return sb.toString();
    }

    private static String valueText(Object v) {
        if (v instanceof byte[]) {
            StringBuilder hex = new StringBuilder();
            for (byte b : (byte[]) v) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        }
        return v.toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '#' || c == '%' || c == '\'' || c == '*' || c == '/' || c == ':'
                    || c == '=' || c == '?' || c == '\\' || c == 0x7F || c == '{' || c == '[' || c == ']' || c == '^') {
                sb.append('%').append(String.format("%02X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
