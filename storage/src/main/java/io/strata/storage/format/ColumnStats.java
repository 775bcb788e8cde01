package io.strata.storage.format;

import java.util.Arrays;
import java.util.Objects;

/**
 * Statistics of one column of one data file, by field id. {@code min}/{@code max} are null
 * when unknown (all values null, or the format kept none); {@code nullCount} is -1 when unknown.
 * Pruning treats unknown as "may match".
 */
public final class ColumnStats {
    private final int fieldId;
    private final Object min;
    private final Object max;
    private final long nullCount;

    public ColumnStats(int fieldId, Object min, Object max, long nullCount) {
        this.fieldId = fieldId;
        this.min = min;
        this.max = max;
        this.nullCount = nullCount;
    }

    public int fieldId() {
        return fieldId;
    }

    public Object min() {
        return min;
    }

    public Object max() {
        return max;
    }

    public long nullCount() {
        return nullCount;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ColumnStats)) {
            return false;
        }
        ColumnStats s = (ColumnStats) o;
        return fieldId == s.fieldId
                && nullCount == s.nullCount
                && Arrays.deepEquals(new Object[] {min, max}, new Object[] {s.min, s.max});
    }

    @Override
    public int hashCode() {
        return Objects.hash(fieldId, nullCount);
    }

    @Override
    public String toString() {
        return "#" + fieldId + "[" + min + ".." + max + ", nulls=" + nullCount + "]";
    }
}
