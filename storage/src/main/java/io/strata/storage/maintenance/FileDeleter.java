package io.strata.storage.maintenance;

import io.strata.storage.options.ExpireOptions;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;

/**
 * The one deleter of maintenance: deletes a list of a table's files in its order of kinds (every
 * file of one kind is gone before the first of the next is touched, so expiration's order holds),
 * within a kind in pages on {@code maintenance.delete-threads} threads, through the store's bulk
 * delete where it has one, at most {@code maintenance.deletes-per-second}. The threads live for one
 * call. A failure stops the call after the pages in flight; what was deleted is reported by the
 * exception's caller as far as it got, and a rerun deletes the rest (deleting what is gone is fine).
 */
final class FileDeleter {
    /** Files one thread deletes in one go (also the most one bulk request carries here). */
    static final int PAGE = 100;

    private final TableContext table;
    private final int threads;
    /** Deletes a second at most; null for no bound. */
    private final Double perSecond;

    private long nextFreeNanos;

    FileDeleter(TableContext table) {
        this(table, rate(table));
    }

    /** At most {@code perSecond} deletes a second (null: no bound), whatever the table's option says. */
    FileDeleter(TableContext table, Double perSecond) {
        this.table = table;
        this.threads = table.schema().tableOptions().get(ExpireOptions.DELETE_THREADS);
        this.perSecond = perSecond;
        if (threads < 1 || (perSecond != null && !(perSecond > 0))) {
            throw new IllegalArgumentException("table " + table.name() + ": " + ExpireOptions.DELETE_THREADS.key()
                    + " and " + ExpireOptions.DELETES_PER_SECOND.key() + " must be at least 1, got " + threads
                    + " and " + perSecond);
        }
    }

    private static Double rate(TableContext table) {
        Integer perSecond = table.schema().tableOptions().get(ExpireOptions.DELETES_PER_SECOND);
        if (perSecond != null && perSecond < 1) {
            throw new IllegalArgumentException("table " + table.name() + ": " + ExpireOptions.DELETES_PER_SECOND.key()
                    + " must be at least 1, got " + perSecond);
        }
        return perSecond == null ? null : perSecond.doubleValue();
    }

    /**
     * Deletes {@code files} through {@code bulk} in stages: snapshot, data, changelog and temporary
     * files; then manifests; then manifest lists. A stage is handed over only once the one before
     * has gone completely, so no manifest goes while a file it names is still there, whatever
     * {@code bulk} does within a stage. Adds to {@code deleted} what {@code bulk} reports deleted,
     * in the order of {@code files}, also when it fails part way.
     *
     * @throws IllegalStateException when {@code bulk} reports a file it was not given
     */
    static void inStages(TableContext table, BulkDelete bulk, List<TableFile> files, List<TableFile> deleted) {
        for (int stage = 0; stage <= 2; stage++) {
            List<TableFile> part = new ArrayList<>();
            for (TableFile f : files) {
                if (stageOf(f.kind()) == stage) {
                    part.add(f);
                }
            }
            if (part.isEmpty()) {
                continue;
            }
            List<TableFile> reported = new ArrayList<>();
            try {
                bulk.delete(part, reported);
            } catch (RuntimeException e) {
                accept(table, part, reported, deleted);
                throw e;
            }
            accept(table, part, reported, deleted);
        }
    }

    private static int stageOf(TableFile.Kind kind) {
        switch (kind) {
            case MANIFEST:
                return 1;
            case MANIFEST_LIST:
                return 2;
            default:
                return 0;
        }
    }

    /** Adds the files of {@code part} that {@code reported} names to {@code deleted}, in {@code part}'s order. */
    private static void accept(
            TableContext table, List<TableFile> part, List<TableFile> reported, List<TableFile> deleted) {
        Set<String> given = new HashSet<>();
        part.forEach(f -> given.add(f.path()));
        Set<String> gone = new HashSet<>();
        for (TableFile f : reported) {
            if (!given.contains(f.path())) {
                throw new IllegalStateException("table " + table.name() + ": the bulk delete reported deleting "
                        + f.path() + ", which it was not given");
            }
            gone.add(f.path());
        }
        for (TableFile f : part) {
            if (gone.contains(f.path())) {
                deleted.add(f);
            }
        }
    }

    /**
     * Deletes {@code files} and adds each deleted one to {@code deleted}, in order of kinds.
     *
     * @throws UncheckedIOException naming a file that could not be deleted and why
     */
    void delete(List<TableFile> files, List<TableFile> deleted) {
        int from = 0;
        while (from < files.size()) {
            int to = from;
            while (to < files.size() && files.get(to).kind() == files.get(from).kind()) {
                to++;
            }
            deleteKind(files.subList(from, to), deleted);
            from = to;
        }
    }

    private void deleteKind(List<TableFile> files, List<TableFile> deleted) {
        List<List<TableFile>> pages = new ArrayList<>();
        for (int i = 0; i < files.size(); i += PAGE) {
            pages.add(files.subList(i, Math.min(files.size(), i + PAGE)));
        }
        if (threads == 1 || pages.size() == 1) {
            for (List<TableFile> page : pages) {
                deleted.addAll(deletePage(page));
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, pages.size()), r -> {
            Thread t = new Thread(r, "strata-delete-" + table.name());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<TableFile>>> running = new ArrayList<>();
            for (List<TableFile> page : pages) {
                running.add(pool.submit(() -> deletePage(page)));
            }
            RuntimeException failure = null;
            for (Future<List<TableFile>> f : running) {
                try {
                    deleted.addAll(f.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof RuntimeException
                                ? (RuntimeException) e.getCause()
                                : new UncheckedIOException(new IOException(e.getCause()));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("table " + table.name() + ": interrupted while deleting", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private List<TableFile> deletePage(List<TableFile> page) {
        pace(page.size());
        List<Path> paths = new ArrayList<>(page.size());
        for (TableFile f : page) {
            paths.add(new Path(f.path()));
        }
        List<Map.Entry<Path, String>> failed;
        try {
            failed = table.fileIO().deleteFiles(table.paths().root(), paths);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot delete " + page.get(0).path() + " and " + (page.size() - 1)
                            + " more: " + e.getMessage(),
                    e);
        }
        if (!failed.isEmpty()) {
            throw new UncheckedIOException(new IOException("table " + table.name() + ": cannot delete "
                    + failed.get(0).getKey() + ": " + failed.get(0).getValue() + " (and " + (failed.size() - 1)
                    + " more)"));
        }
        return page;
    }

    /** Waits until {@code n} more deletes fit in {@code maintenance.deletes-per-second}. */
    private void pace(int n) {
        if (perSecond == null) {
            return;
        }
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now, nextFreeNanos);
            nextFreeNanos = start + (long) (n * 1e9 / perSecond);
            waitNanos = start - now;
        }
        if (waitNanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("table " + table.name() + ": interrupted while deleting", e);
            }
        }
    }
}
