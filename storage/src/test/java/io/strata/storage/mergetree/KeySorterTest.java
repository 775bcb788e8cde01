package io.strata.storage.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The radix path must order exactly like the record comparator, negative keys and duplicates included. */
class KeySorterTest {

    @ParameterizedTest
    @ValueSource(strings = {"BIGINT", "INT"})
    void radixSortEqualsComparatorSort(String type) {
        TableSchema schema = SchemaValidation.firstSchema(
                "t",
                Schema.newBuilder()
                        .column("k", type)
                        .column("v", "INT")
                        .primaryKey("k")
                        .build(),
                0);
        RecordComparator cmp = new RecordComparator(schema, -1);
        KeySorter sorter = KeySorter.of(schema, -1, cmp);
        for (long seed = 0; seed < 20; seed++) {
            Random rnd = new Random(seed);
            int n = rnd.nextInt(5000);
            List<KeyValue> records = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long k = rnd.nextBoolean() ? rnd.nextInt(50) - 25 : rnd.nextLong();
                Object key = type.equals("BIGINT") ? (Object) k : (Object) (int) k;
                records.add(new KeyValue(i, RowKind.INSERT, new Object[] {key, i}));
            }
            KeyValue[] expected = records.toArray(new KeyValue[0]);
            Arrays.sort(expected, cmp.records());
            assertThat(sorter.sort(records)).as("seed %d", seed).containsExactly(expected);
        }
    }
}
