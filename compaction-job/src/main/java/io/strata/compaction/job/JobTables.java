package io.strata.compaction.job;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.FileOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of a job and how the job opens them. Every operator opens its tables through this
 * class, so all of them agree on three things:
 * <ul>
 *   <li>which tables a spec names (explicit names, a regex, or every primary-key table of the
 *       database; streaming jobs re-resolve a regex so new tables are picked up);</li>
 *   <li>the handle: the table at its latest schema with the job's options of a run
 *       ({@code FileStoreTable.copyWithOptions}: those that define the table cannot change),
 *       inline compaction off and the job's file-name prefix ({@link #filePrefix});</li>
 *   <li>the strategy per table: lookup when the table produces lookup changelog (level-0 files
 *       must be compacted every time for their changelog to appear), otherwise the job's.</li>
 * </ul>
 */
public final class JobTables {
    private static final Logger LOG = LoggerFactory.getLogger(JobTables.class);
    private final JobSpec spec;
    private final Catalog catalog;
    private final int attempt;
    private final Map<String, FileStoreTable> open = new HashMap<>();

    /** @param attempt the Flink attempt number of the calling task, part of the file prefix */
    public JobTables(JobSpec spec, int attempt) {
        this.spec = spec;
        this.catalog = Catalog.open(spec.warehouse());
        this.attempt = attempt;
    }

    public Catalog catalog() {
        return catalog;
    }

    /**
     * Table names (without database) the spec selects now. Explicitly named tables must exist and
     * have a primary key; a regex or a whole database silently skips append tables. Each selected
     * table is opened as the job's handle ({@link #table}, cached), so an invalid {@code
     * --table-option}, or one that gives an option defining the table another value than the
     * table's, fails here, naming the table and the option: on the client, when the pipeline is
     * built.
     */
    public List<String> resolve() {
        List<String> names = new ArrayList<>();
        if (!spec.tables().isEmpty()) {
            for (String t : spec.tables()) {
                FileStoreTable table = table(t);
                if (!table.schema().hasPrimaryKey()) {
                    throw new IllegalArgumentException("table " + table.name() + " has no primary key: the compaction "
                            + "job compacts primary-key tables only");
                }
                names.add(t);
            }
            return names;
        }
        Pattern p = spec.includingTables() == null ? null : Pattern.compile(spec.includingTables());
        try {
            for (String t : catalog.listTables(spec.database())) {
                if ((p == null || p.matcher(t).matches()) && table(t).schema().hasPrimaryKey()) {
                    names.add(t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot list the tables of database " + spec.database() + " in " + spec.warehouse() + ": "
                            + e.getMessage(),
                    e);
        }
        return names;
    }

    /**
     * The job's handle on {@code name}, cached; reopened when the table's schema changed so a
     * rewrite never writes files of an outdated schema.
     */
    public FileStoreTable table(String name) {
        FileStoreTable cached = open.get(name);
        if (cached != null && schemaUnchanged(cached)) {
            return cached;
        }
        FileStoreTable t = catalog.getTable(spec.database(), name);
        Map<String, String> overrides = new HashMap<>(spec.tableOptions());
        overrides.put(WriteOptions.WRITE_ONLY.key(), "false");
        overrides.put(FileOptions.DATA_FILE_PREFIX.key(), filePrefix(spec.commitUser(), attempt) + "-data");
        overrides.put(FileOptions.CHANGELOG_FILE_PREFIX.key(), filePrefix(spec.commitUser(), attempt) + "-changelog");
        FileStoreTable handle = t.copyWithOptions(overrides);
        open.put(name, handle);
        return handle;
    }

    /**
     * Opens the tables the spec selects now, so that an operator's first work or commit does not
     * begin by reading schemas and options (measured: 15-40 ms, interpreted code the first time,
     * while other subtasks were already rewriting). Best effort: a table that cannot be opened now
     * is opened, and its error reported, when it is needed.
     */
    public void openSelectedQuietly() {
        try {
            resolve();
        } catch (RuntimeException e) {
            LOG.warn(
                    "cannot open the selected tables at start-up; each is opened when it is needed: {}",
                    e.getMessage());
        }
    }

    /** Lists the schema directory only; the schema itself is read when it changed. */
    private static boolean schemaUnchanged(FileStoreTable t) {
        try {
            OptionalLong latest = t.schemaManager().latestId();
            return latest.isPresent() && latest.getAsLong() == t.schema().id();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the schemas of table " + t.name() + ": " + e.getMessage(), e);
        }
    }

    public CompactStrategy strategyFor(FileStoreTable table) {
        if (spec.strategy() == CompactStrategy.MINOR
                && table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER)
                        == ChangelogOptions.Producer.LOOKUP) {
            return CompactStrategy.LOOKUP;
        }
        return spec.strategy();
    }

    /**
     * {@code compact-<tag>-a<attempt>}: the tag is a hash of the commit user, so files of this job
     * are told apart from ingestion writers' ({@code data-...}) and other jobs'; the attempt says
     * which execution attempt wrote them.
     */
    public static String filePrefix(String commitUser, int attempt) {
        return jobFileTag(commitUser) + "-a" + attempt;
    }

    /** {@code compact-<8 hex digits of SHA-256(commitUser)>}. */
    public static String jobFileTag(String commitUser) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(commitUser.getBytes(StandardCharsets.UTF_8));
            return "compact-" + HexFormat.of().formatHex(h, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The attempt encoded in a file name of this job's tag, or -1 when the file is not this job's. */
    public static int attemptOf(String fileName, String commitUser) {
        String tag = jobFileTag(commitUser) + "-a";
        if (!fileName.startsWith(tag)) {
            return -1;
        }
        int end = fileName.indexOf('-', tag.length());
        try {
            return Integer.parseInt(fileName.substring(tag.length(), end < 0 ? fileName.length() : end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
