package io.strata.storage.maintenance;

import io.strata.storage.options.ExpireOptions;
import io.strata.storage.options.TableOptions;
import java.time.Duration;

/**
 * How long the changes of a snapshot are kept: {@code changelog.num-retained.min/max} and
 * {@code changelog.time-retained}, each defaulting to its {@code snapshot.*} counterpart. The
 * changes of a retained snapshot are always kept; this retention only adds to it, keeping the
 * changelog of snapshots that expired.
 */
record ChangelogRetention(int retainMin, Integer retainMax, Duration timeRetained) {

    static ChangelogRetention of(String table, TableOptions o) {
        Integer min = o.get(ExpireOptions.CHANGELOG_NUM_RETAINED_MIN);
        Integer max = o.get(ExpireOptions.CHANGELOG_NUM_RETAINED_MAX);
        Duration time = o.get(ExpireOptions.CHANGELOG_TIME_RETAINED);
        int retainMin = min != null ? min : o.get(ExpireOptions.NUM_RETAINED_MIN);
        Integer retainMax = max != null ? max : o.get(ExpireOptions.NUM_RETAINED_MAX);
        if (retainMin < 1) {
            throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.CHANGELOG_NUM_RETAINED_MIN.key()
                    + " must be at least 1, got " + retainMin);
        }
        if (retainMax != null && retainMax < retainMin) {
            throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.CHANGELOG_NUM_RETAINED_MAX.key()
                    + " (" + retainMax + ") must be at least " + ExpireOptions.CHANGELOG_NUM_RETAINED_MIN.key() + " ("
                    + retainMin + ")");
        }
        return new ChangelogRetention(retainMin, retainMax, time != null ? time : o.get(ExpireOptions.TIME_RETAINED));
    }

    /**
     * Whether the changes of snapshot {@code id}, committed at {@code timeMillis}, may go when
     * {@code latest} is the latest snapshot: more than {@code retainMax} newer ones exist, or it
     * is older than the retained time and at least {@code retainMin} newer ones (itself included)
     * remain.
     */
    boolean mayGo(long id, long latest, long timeMillis, long nowMillis) {
        if (id >= latest - retainMin + 1) {
            return false;
        }
        if (retainMax != null && id < latest - retainMax + 1) {
            return true;
        }
        return timeMillis < nowMillis - timeRetained.toMillis();
    }
}
