package io.strata.compaction.job;

import io.strata.storage.compact.CompactStrategy;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What one compaction job does, fixed when the job is built and shipped to every operator:
 * which tables (explicit names, a regular expression, or every table of the database), which
 * partitions, the strategy, batch or streaming, and the per-job table option overrides.
 *
 * <p>{@code commitUser} identifies the job's commits across restarts: replays of a commit it
 * already made are skipped by it, and files of its failed attempts are recognised by it. A job
 * restored from a savepoint must be started with the same commit user.
 */
public final class JobSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    /** How the job runs. */
    public enum Mode {
        BATCH,
        STREAMING
    }

    private final String warehouse;
    private final String database;
    private final List<String> tables;
    private final String includingTables;
    private final PartitionFilterSpec partitions;
    private final CompactStrategy strategy;
    private final Mode mode;
    private final int parallelism;
    private final long discoveryIntervalMillis;
    private final int partialCommitEvery;
    private final Map<String, String> tableOptions;
    private final String commitUser;
    private final long checkpointIntervalMillis;

    /**
     * A spec for tables of {@code database} in {@code warehouse}. Defaults: every table of the
     * database, all partitions, the minor strategy, batch mode, parallelism 1, discovery and
     * checkpoint intervals of 5 s, one commit at the end, no option overrides, and a fresh
     * commit user ({@code strata-compaction-<uuid>}). {@link Builder#build()} validates.
     */
    public static Builder builder(String warehouse, String database) {
        return new Builder(warehouse, database);
    }

    /** Builds a {@link JobSpec}; not thread-safe. */
    public static final class Builder {
        private final String warehouse;
        private final String database;
        private List<String> tables = List.of();
        private String includingTables;
        private PartitionFilterSpec partitions = PartitionFilterSpec.all();
        private CompactStrategy strategy = CompactStrategy.MINOR;
        private Mode mode = Mode.BATCH;
        private int parallelism = 1;
        private Duration discoveryInterval = Duration.ofSeconds(5);
        private int partialCommitEvery;
        private Map<String, String> tableOptions = Map.of();
        private String commitUser;
        private Duration checkpointInterval = Duration.ofSeconds(5);

        private Builder(String warehouse, String database) {
            this.warehouse = warehouse;
            this.database = database;
        }

        /** Explicit table names of the database; exclusive with {@link #includingTables}. */
        public Builder tables(List<String> names) {
            this.tables = List.copyOf(names);
            return this;
        }

        /** A regular expression over the database's table names. */
        public Builder includingTables(String regex) {
            this.includingTables = regex;
            return this;
        }

        public Builder partitions(PartitionFilterSpec filter) {
            this.partitions = filter;
            return this;
        }

        public Builder strategy(CompactStrategy s) {
            this.strategy = s;
            return this;
        }

        public Builder mode(Mode m) {
            this.mode = m;
            return this;
        }

        public Builder parallelism(int n) {
            this.parallelism = n;
            return this;
        }

        public Builder discoveryInterval(Duration d) {
            this.discoveryInterval = d;
            return this;
        }

        /** Batch mode: commit every {@code n} rewritten buckets (0: once at the end). */
        public Builder partialCommitEvery(int n) {
            this.partialCommitEvery = n;
            return this;
        }

        /** Per-run table options; table-defining ones must keep the table's value. */
        public Builder tableOptions(Map<String, String> options) {
            this.tableOptions = Map.copyOf(options);
            return this;
        }

        /** The commit user of the job's commits; a job restored from a savepoint must keep it. */
        public Builder commitUser(String user) {
            this.commitUser = user;
            return this;
        }

        public Builder checkpointInterval(Duration d) {
            this.checkpointInterval = d;
            return this;
        }

        /** @throws IllegalArgumentException naming the flag of an invalid or contradictory setting */
        public JobSpec build() {
            return new JobSpec(this);
        }
    }

    private JobSpec(Builder b) {
        this.warehouse = Objects.requireNonNull(b.warehouse, "warehouse");
        this.database = Objects.requireNonNull(b.database, "database");
        this.tables = b.tables;
        this.includingTables = b.includingTables;
        this.partitions = b.partitions;
        this.strategy = b.strategy;
        this.mode = b.mode;
        this.parallelism = b.parallelism;
        this.discoveryIntervalMillis = b.discoveryInterval.toMillis();
        this.partialCommitEvery = b.partialCommitEvery;
        this.tableOptions = b.tableOptions;
        this.commitUser = b.commitUser != null ? b.commitUser : "strata-compaction-" + UUID.randomUUID();
        this.checkpointIntervalMillis = b.checkpointInterval.toMillis();
        validate();
    }

    private void validate() {
        if (strategy == CompactStrategy.FULL && mode == Mode.STREAMING) {
            throw new IllegalArgumentException("--strategy full is allowed in batch mode only (as in Paimon): a "
                    + "streaming job compacts what the triggers ask for; schedule full compactions as batch jobs");
        }
        if (strategy == CompactStrategy.LOOKUP) {
            throw new IllegalArgumentException(
                    "--strategy must be full or minor (lookup compaction is chosen per table "
                            + "from changelog-producer=lookup)");
        }
        if (!tables.isEmpty() && includingTables != null) {
            throw new IllegalArgumentException("give either --table or --including-tables, not both");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be at least 1, got " + parallelism);
        }
        if (partialCommitEvery < 0) {
            throw new IllegalArgumentException("--partial-commit-every must be >= 0, got " + partialCommitEvery);
        }
        if (partialCommitEvery > 0 && mode == Mode.STREAMING) {
            throw new IllegalArgumentException(
                    "--partial-commit-every is for batch mode; a streaming job commits at " + "every checkpoint");
        }
        if (mode == Mode.STREAMING && (discoveryIntervalMillis <= 0 || checkpointIntervalMillis <= 0)) {
            throw new IllegalArgumentException("--discovery-interval and --checkpoint-interval must be positive");
        }
        if (commitUser.isBlank()) {
            throw new IllegalArgumentException("--commit-user must not be blank");
        }
    }

    public String warehouse() {
        return warehouse;
    }

    public String database() {
        return database;
    }

    /** Explicit table names; empty means {@link #includingTables()} or the whole database. */
    public List<String> tables() {
        return tables;
    }

    /** Regular expression over table names, or null. */
    public String includingTables() {
        return includingTables;
    }

    public PartitionFilterSpec partitions() {
        return partitions;
    }

    public CompactStrategy strategy() {
        return strategy;
    }

    public Mode mode() {
        return mode;
    }

    public int parallelism() {
        return parallelism;
    }

    public long discoveryIntervalMillis() {
        return discoveryIntervalMillis;
    }

    /** Batch mode: commit every N rewritten buckets (0: once at the end). */
    public int partialCommitEvery() {
        return partialCommitEvery;
    }

    public Map<String, String> tableOptions() {
        return tableOptions;
    }

    public String commitUser() {
        return commitUser;
    }

    public long checkpointIntervalMillis() {
        return checkpointIntervalMillis;
    }

    @Override
    public String toString() {
        return "JobSpec{warehouse=" + warehouse + ", database=" + database + ", tables=" + tables + ", including="
                + includingTables + ", partitions=" + partitions + ", strategy=" + strategy + ", mode=" + mode
                + ", parallelism=" + parallelism + ", commitUser=" + commitUser + "}";
    }
}
