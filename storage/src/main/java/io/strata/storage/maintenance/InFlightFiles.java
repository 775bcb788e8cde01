package io.strata.storage.maintenance;

import io.strata.storage.format.DataFileNames;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.snapshot.WriterRegistrations.Registration;
import io.strata.storage.store.TableContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the registrations of running writers mean to one orphan cleanup: the tokens whose files
 * stay (heartbeat younger than {@code orphan-clean.writer-heartbeat-timeout}), and the
 * registrations that go themselves (heartbeat older than the timeout and than the cleanup's
 * threshold).
 *
 * <p>Read more than once in a run (after the candidates are listed, and again just before
 * deleting), and conservative across the reads: a token fresh in any read protects its files, and
 * a registration goes only if every read found it stale. A registration that cannot be parsed
 * fails the read, naming its file, before anything is deleted.
 */
final class InFlightFiles {
    private final TableContext table;
    private final Duration timeout;
    private final Duration olderThan;
    private final Set<String> fresh = new HashSet<>();
    /** Stale registrations by token; null until the first read. */
    private Map<String, Registration> stale;

    InFlightFiles(TableContext table, Duration olderThan) {
        this.table = table;
        this.timeout = table.schema().tableOptions().get(ExpireOptions.WRITER_HEARTBEAT_TIMEOUT);
        this.olderThan = olderThan;
    }

    /** Reads the registrations now and folds them into what earlier reads found. */
    void read() {
        long now = table.clock().millis();
        Map<String, Registration> staleNow = new LinkedHashMap<>();
        for (Registration r : table.writerRegistrations().list()) {
            if (r.freshAt(now, timeout)) {
                fresh.add(r.token());
            } else if (now - r.heartbeatMillis() >= olderThan.toMillis()) {
                staleNow.put(r.token(), r);
            }
        }
        if (stale == null) {
            stale = staleNow;
        } else {
            stale.keySet().retainAll(staleNow.keySet());
        }
        stale.keySet().removeAll(fresh);
    }

    /** Whether {@code fileName} carries the token of a registration found fresh. */
    boolean protects(String fileName) {
        String token = DataFileNames.uuidOf(fileName);
        return token != null && fresh.contains(token);
    }

    /** The registrations every read found stale past the threshold, as files to delete. */
    List<TableFile> staleRegistrations() {
        List<TableFile> out = new ArrayList<>();
        if (stale != null) {
            for (Registration r : stale.values()) {
                out.add(new TableFile(
                        TableFile.Kind.WRITER_REGISTRATION, r.file().toString(), -1));
            }
        }
        return out;
    }
}
