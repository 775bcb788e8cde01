package io.strata.storage.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.storage.schema.DataType;
import io.strata.storage.testutil.TypedValues;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Values of issue 17's types through everything that carries values outside data files: the value
 * encoding (spill files, lookup files, manifests), the JSON form (CLI input and output) and the text
 * form, all lossless for random values of every column type of {@link TypedValues}; and the orders
 * of ARRAY and ROW values (MAP values have none).
 */
class NestedValuesTest {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final long SEED = 17;

    @Test
    void randomValuesOfEveryTypeRoundTripThroughTheValueEncodingAndJson() throws IOException {
        Random rnd = new Random(SEED);
        for (String[] c : TypedValues.COLUMNS) {
            DataType type = DataType.parse(c[1]);
            for (int i = 0; i < 300; i++) {
                Object v = TypedValues.value(type, rnd);
                String where = "seed " + SEED + ", " + type + " value " + ValueEquality.toString(v);
                Object[] decoded = ValueCodec.decodeTuple(ValueCodec.encodeTuple(new Object[] {v}));
                assertThat(ValueEquality.equals(decoded[0], v))
                        .as("value encoding of %s", where)
                        .isTrue();
                if (v != null) {
                    assertThat(decoded[0].getClass().getName())
                            .as("class after the value encoding of %s", where)
                            .isEqualTo(
                                    v instanceof List
                                            ? "java.util.ArrayList"
                                            : v instanceof Map
                                                    ? "java.util.LinkedHashMap"
                                                    : v.getClass().getName());
                }
                String json = ValueJson.compact(type, v);
                Object back = ValueJson.fromJson(type, JSON.readTree(json));
                assertThat(ValueEquality.equals(back, v))
                        .as("JSON %s of %s", json, where)
                        .isTrue();
                assertThat(ValueJson.compact(type, back))
                        .as("JSON of %s", where)
                        .isEqualTo(json);
            }
        }
    }

    @Test
    void jsonAndTextFormsAreTheDocumentedOnes() throws IOException {
        DataType row = DataType.parse(
                "ROW<t TIME(3), z TIMESTAMP_LTZ(3), tags ARRAY<TINYINT>, m MAP<STRING, SMALLINT>, im MAP<INT, CHAR(2)>>");
        Map<String, Short> m = new LinkedHashMap<>();
        m.put("b", (short) 2);
        m.put("a", null);
        Map<Integer, String> im = new LinkedHashMap<>();
        im.put(7, "ok");
        Object[] v = {45_296_789, 1_764_460_800_123L, Arrays.asList((byte) -1, null), m, im};
        String json = "{\"t\":\"12:34:56.789\",\"z\":\"2025-11-30T00:00:00.123Z\",\"tags\":[-1,null],"
                + "\"m\":{\"b\":2,\"a\":null},\"im\":[[7,\"ok\"]]}";
        assertThat(ValueJson.compact(row, v)).isEqualTo(json);
        assertThat(ValueText.of(row, v)).isEqualTo(json);
        assertThat(ValueEquality.equals(ValueJson.fromJson(row, JSON.readTree(json)), v))
                .isTrue();
        assertThat(ValueText.of(DataType.time(0), 0)).isEqualTo("00:00:00");
        assertThat(ValueText.of(DataType.timestampLtz(6), -1L)).isEqualTo("1969-12-31T23:59:59.999999Z");
        // an instant with an offset reads as the same instant
        assertThat(ValueJson.fromJson(DataType.timestampLtz(3), JSON.readTree("\"2025-11-30T01:00:00.123+01:00\"")))
                .isEqualTo(1_764_460_800_123L);
        assertThatThrownBy(() -> ValueJson.fromJson(row, JSON.readTree("{\"t\":\"12:34:56.789\",\"q\":1}")))
                .hasMessageContaining("unknown fields [q]");
        assertThatThrownBy(() -> ValueJson.fromJson(DataType.parse("ARRAY<TINYINT>"), JSON.readTree("[1, 300]")))
                .hasMessageContaining("element 1")
                .hasMessageContaining("300 is not a TINYINT");
        assertThatThrownBy(() -> ValueJson.fromJson(DataType.decimal(5, 2), JSON.readTree("\"1.234\"")))
                .hasMessageContaining("is not a DECIMAL(5, 2)");
    }

    @Test
    void arraysOrderLexicographicallyAndRowsFieldByField() {
        Comparator<Object> arrays = ValueComparators.forType(DataType.parse("ARRAY<INT>"));
        assertThat(arrays.compare(List.of(1, 2), List.of(1, 3))).isNegative();
        assertThat(arrays.compare(List.of(1), List.of(1, 0))).isNegative();
        assertThat(arrays.compare(Arrays.asList(null, 5), List.of(0))).isNegative();
        assertThat(arrays.compare(List.of(), List.of())).isZero();
        Comparator<Object> rows = ValueComparators.forType(DataType.parse("ROW<a STRING, b ARRAY<BIGINT>>"));
        assertThat(rows.compare(new Object[] {"a", List.of(2L)}, new Object[] {"a", List.of(1L, 1L)}))
                .isPositive();
        assertThat(rows.compare(new Object[] {"a", List.of(2L)}, new Object[] {"a", List.of(2L)}))
                .isZero();
        assertThat(rows.compare(new Object[] {"\uE000", null}, new Object[] {"😀", null}))
                .isNegative();
        assertThatThrownBy(() -> ValueComparators.forType(DataType.parse("MAP<INT, INT>")))
                .hasMessageContaining("MAP<INT NOT NULL, INT> values have no order");
        assertThat(ValueEquality.equals(
                        new Object[] {new byte[] {1}, List.of(new BigDecimal("1.0"))},
                        new Object[] {new byte[] {1}, List.of(new BigDecimal("1.0"))}))
                .isTrue();
    }
}
