package io.strata.storage.table.system;

import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.FileStoreTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Like Paimon's {@code $tags}: every tag of the table, ordered by snapshot then
 * name, with the snapshot it pins
 * and when its retention ends. A tag whose retention has passed is still listed until an
 * expiration removes it, and says so ({@link Row#expired}): it pins its files until then.
 */
public final class TagsTable {
    private TagsTable() {}

    /**
     * One tag.
     *
     * @param commitTimeMillis when the tagged snapshot was committed
     * @param createTimeMillis when the tag was created
     * @param timeRetained the tag's retention; empty: kept until deleted
     * @param expiresAtMillis {@code createTimeMillis + timeRetained}; empty: never
     * @param expired whether {@code expiresAtMillis} has passed by the table's clock
     */
    public record Row(
            String tagName,
            long snapshotId,
            long schemaId,
            long commitTimeMillis,
            long recordCount,
            long createTimeMillis,
            Optional<Duration> timeRetained,
            Optional<Long> expiresAtMillis,
            boolean expired) {}

    public static List<Row> rows(FileStoreTable table) {
        long now = table.clock().millis();
        List<Row> out = new ArrayList<>();
        for (Tag t : table.tags().list()) {
            out.add(new Row(
                    t.name(),
                    t.snapshot().id(),
                    t.snapshot().schemaId(),
                    t.snapshot().timeMillis(),
                    t.snapshot().totalRecordCount(),
                    t.createdMillis(),
                    t.retain(),
                    t.retain().map(r -> t.createdMillis() + r.toMillis()),
                    t.isExpiredAt(now)));
        }
        return out;
    }
}
