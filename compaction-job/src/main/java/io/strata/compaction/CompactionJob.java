package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.PartitionFilterSpec;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.fs.ProcessResources;
import io.strata.storage.options.DurationParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Main class of the dedicated compaction job, for {@code flink run -c io.strata.compaction.CompactionJob
 * strata-compaction-job-shaded.jar ...} on a cluster, or {@code java -cp} with Flink on the class
 * path (a local MiniCluster). The same arguments build the same {@link JobSpec} for the CLI's
 * embedded runner and for REST submission.
 */
@Command(
        name = "strata-compaction-job",
        mixinStandardHelpOptions = true,
        description = "Compacts Strata primary-key tables: plans per bucket from manifests, rewrites sorted runs in "
                + "parallel, produces lookup / full-compaction changelog, and commits exactly once.")
public final class CompactionJob {

    /** The job's arguments, shared with {@code strata compact}. */
    public static final class Args {
        @Option(
                names = "--warehouse",
                required = true,
                description = "Warehouse URI (local path, file://, hdfs://, s3a://).")
        public String warehouse;

        @Option(names = "--database", description = "Database of the tables.")
        public String database;

        @Option(names = "--table", description = "A table to compact (repeatable; db.table also accepted).")
        public List<String> tables = new ArrayList<>();

        @Option(
                names = "--including-tables",
                paramLabel = "REGEX",
                description = "Compact the tables of --database whose names match REGEX (default: all).")
        public String includingTables;

        @Option(
                names = "--partition",
                paramLabel = "k=v[,k2=v2]",
                description = "Only this partition (repeatable: any of them).")
        public List<String> partitions = new ArrayList<>();

        @Option(
                names = "--where",
                description = "Only partitions matching, e.g. \"dt >= '2026-11-01' AND region = 'eu'\".")
        public String where;

        @Option(
                names = "--strategy",
                defaultValue = "minor",
                description = "full (batch only: everything to the top level) or minor (what the triggers ask for; "
                        + "lookup compaction for tables with changelog-producer=lookup). Default ${DEFAULT-VALUE}.")
        public String strategy;

        @Option(
                names = "--mode",
                defaultValue = "batch",
                description = "batch or streaming (default ${DEFAULT-VALUE}).")
        public String mode;

        @Option(
                names = "--parallelism",
                defaultValue = "1",
                description = "Rewrite subtasks (default ${DEFAULT-VALUE}).")
        public int parallelism;

        @Option(
                names = "--discovery-interval",
                defaultValue = "10 s",
                description = "Streaming: how often new snapshots are planned (default ${DEFAULT-VALUE}).")
        public String discoveryInterval;

        @Option(
                names = "--checkpoint-interval",
                defaultValue = "10 s",
                description = "Streaming: checkpoint (and so commit) interval (default ${DEFAULT-VALUE}).")
        public String checkpointInterval;

        @Option(
                names = "--partial-commit-every",
                defaultValue = "0",
                paramLabel = "N",
                description =
                        "Batch: commit every N rewritten buckets, so a long job keeps its progress (0: at the end).")
        public int partialCommitEvery;

        @Option(
                names = "--table-option",
                paramLabel = "k=v",
                description = "Table option for this job (repeatable); "
                        + "options that define the table (docs/OPTIONS.md, per run: no) must keep the table's value.")
        public List<String> tableOptions = new ArrayList<>();

        @Option(
                names = "--commit-user",
                description = "Identity of the job's commits (default: a new one per "
                        + "submission). Give the same one when restoring a savepoint.")
        public String commitUser;

        /**
         * The arguments of command line {@code argv}, with the defaults of those it leaves out
         * (an {@code Args} made with {@code new} has none).
         *
         * @throws IllegalArgumentException naming what does not parse
         */
        public static Args parse(String... argv) {
            try {
                return CommandLine.populateCommand(new Args(), argv);
            } catch (CommandLine.ParameterException e) {
                throw new IllegalArgumentException("strata-compaction-job: error: " + e.getMessage(), e);
            }
        }

        /**
         * These arguments as a command line the job's {@code main} parses back into the same
         * {@link #toSpec() spec} (what a REST jar run sends as its program arguments); fields
         * left null are left out, so the job's defaults apply to them.
         */
        public List<String> toArgv() {
            List<String> argv = new ArrayList<>();
            option(argv, "--warehouse", warehouse);
            option(argv, "--database", database);
            tables.forEach(t -> option(argv, "--table", t));
            option(argv, "--including-tables", includingTables);
            partitions.forEach(p -> option(argv, "--partition", p));
            option(argv, "--where", where);
            option(argv, "--strategy", strategy);
            option(argv, "--mode", mode);
            option(argv, "--parallelism", String.valueOf(parallelism));
            option(argv, "--discovery-interval", discoveryInterval);
            option(argv, "--checkpoint-interval", checkpointInterval);
            option(argv, "--partial-commit-every", String.valueOf(partialCommitEvery));
            tableOptions.forEach(o -> option(argv, "--table-option", o));
            option(argv, "--commit-user", commitUser);
            return argv;
        }

        /** {@code --name=value} in one token, so a value that starts with a dash stays a value. */
        private static void option(List<String> argv, String name, String value) {
            if (value != null) {
                argv.add(name + "=" + value);
            }
        }

        public JobSpec toSpec() {
            String db = database;
            List<String> names = new ArrayList<>();
            for (String t : tables) {
                int dot = t.indexOf('.');
                if (dot >= 0) {
                    String tdb = t.substring(0, dot);
                    if (db != null && !db.equals(tdb)) {
                        throw new IllegalArgumentException("--table " + t + " is not in --database " + db
                                + "; one job compacts tables of one database");
                    }
                    db = tdb;
                    names.add(t.substring(dot + 1));
                } else {
                    names.add(t);
                }
            }
            if (db == null) {
                throw new IllegalArgumentException("give --database, or --table as db.table");
            }
            Map<String, String> options = new LinkedHashMap<>();
            for (String kv : tableOptions) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--table-option '" + kv + "': expected key=value");
                }
                options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
            return JobSpec.builder(warehouse, db)
                    .tables(names)
                    .includingTables(includingTables)
                    .partitions(PartitionFilterSpec.parse(partitions, where))
                    .strategy(CompactStrategy.parse(strategy))
                    .mode(parseMode(mode))
                    .parallelism(parallelism)
                    .discoveryInterval(duration("--discovery-interval", discoveryInterval))
                    .partialCommitEvery(partialCommitEvery)
                    .tableOptions(options)
                    .commitUser(commitUser)
                    .checkpointInterval(duration("--checkpoint-interval", checkpointInterval))
                    .build();
        }

        private static JobSpec.Mode parseMode(String m) {
            try {
                return JobSpec.Mode.valueOf(m.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--mode must be batch or streaming, got '" + m + "'");
            }
        }

        private static Duration duration(String option, String text) {
            try {
                return DurationParser.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
            }
        }
    }

    @CommandLine.Mixin
    Args args = new Args();

    /**
     * Runs the job. This is what {@code flink run} calls on the client and what a REST {@code
     * /jars/<id>/run} (or the web UI) calls inside the JobManager, so it never exits the JVM: it
     * returns once the job is submitted (detached) or done, and throws for every error with a
     * message naming what is wrong. Flink hands that message to the caller; a plain {@code java}
     * launch exits non-zero with it. {@code --help} prints the usage and returns.
     *
     * @throws IllegalArgumentException for bad arguments, an unknown table or an invalid option
     * @throws Exception what running the job threw (Flink's {@code JobExecutionException})
     */
    public static void main(String[] argv) throws Exception {
        CommandLine cl = new CommandLine(new CompactionJob());
        CommandLine.ParseResult parsed;
        try {
            parsed = cl.parseArgs(argv);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(
                    "strata-compaction-job: error: " + e.getMessage() + " (--help lists the arguments)", e);
        }
        if (!CommandLine.printHelpIfRequested(parsed)) {
            try {
                cl.<CompactionJob>getCommand().run();
            } finally {
                // A REST jar run calls main in a class loader the JobManager drops afterwards.
                ProcessResources.release();
            }
        }
    }

    /** Builds the spec and the pipeline (errors name the argument), then runs the job. */
    private void run() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobSpec spec;
        try {
            spec = args.toSpec();
            CompactionPipeline.build(env, spec)
                    .sinkTo(new DiscardingSink<CompactionEvent>())
                    .name("events")
                    .setParallelism(1);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("strata-compaction-job: error: " + e.getMessage(), e);
        }
        env.execute(jobName(spec)); // not caught: a plan-extracting environment aborts the program through here
    }

    public static String jobName(JobSpec spec) {
        return "strata compaction " + spec.database() + "."
                + (spec.tables().isEmpty()
                        ? (spec.includingTables() == null ? "*" : spec.includingTables())
                        : String.join(",", spec.tables()))
                + " (" + spec.strategy().name().toLowerCase(Locale.ROOT) + ", "
                + spec.mode().name().toLowerCase(Locale.ROOT)
                + ")";
    }
}
