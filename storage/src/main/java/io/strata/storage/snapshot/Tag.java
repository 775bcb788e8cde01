package io.strata.storage.snapshot;

import java.time.Duration;
import java.util.Optional;

/**
 * A named snapshot: it pins the snapshot's data (its snapshot file may expire, the tag keeps a copy
 * of it) until the tag is deleted or its retention passes.
 *
 * @param retain how long after {@code createdMillis} the tag is kept; empty: until deleted
 */
public record Tag(String name, Snapshot snapshot, long createdMillis, Optional<Duration> retain) {

    /** Whether the tag's retention has passed at {@code nowMillis}. */
    public boolean isExpiredAt(long nowMillis) {
        return retain.isPresent() && createdMillis + retain.get().toMillis() <= nowMillis;
    }
}
