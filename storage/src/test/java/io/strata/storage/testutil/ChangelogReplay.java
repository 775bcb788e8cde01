package io.strata.storage.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The changelog property: replaying the changelog from the first snapshot gives the table. */
public final class ChangelogReplay {
    private ChangelogReplay() {}

    /**
     * Applies the changelog from the first snapshot to the latest, keyed like {@link TableModel}
     * (p, id); every -U or -D must carry exactly the value it retracts.
     */
    public static Map<List<Object>, List<Object>> replay(FileStoreTable t) {
        Map<List<Object>, List<Object>> state = new TreeMap<>(TableModel::compareKeys);
        long latest = t.snapshotManager().latestId().orElse(0);
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead().read(0, latest)) {
            while (it.hasNext()) {
                GenericRow r = it.next();
                List<Object> key = List.of(r.get(0), r.get(1));
                List<Object> row = new ArrayList<>(Arrays.asList(r.fields()));
                if (r.kind().isRetract()) {
                    assertThat(state.get(key))
                            .as("%s must carry the previous value of %s", r.kind(), key)
                            .isEqualTo(row);
                    state.remove(key);
                } else {
                    state.put(key, row);
                }
            }
        }
        return state;
    }
}
