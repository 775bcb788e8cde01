package io.strata.storage.fs;

import io.strata.storage.options.CommitOptions;
import io.strata.storage.options.ConfigOption;
import io.strata.storage.options.TableOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Chooses the {@link AtomicPublisher} for a table's file system (docs/FORMAT.md, "Atomic
 * publish"): a configured commit lock, else the file system's own primitive: a hard link
 * locally, rename on HDFS, conditional create on object stores that honour it.
 */
public final class Publishers {
    /** Schemes whose rename is atomic and never overwrites. */
    private static final Set<String> RENAME_SAFE = Set.of("hdfs", "viewfs");
    /** Prefix of the commit lock options in the Hadoop configuration (warehouse-wide defaults). */
    public static final String HADOOP_CONF_PREFIX = "strata.";

    private Publishers() {}

    /**
     * @param options the table's options; its {@code commit.lock.*} options fall back to {@code
     *                strata.commit.lock.*} in the FileIO's Hadoop configuration
     * @throws IllegalArgumentException naming the table and the options to set when no safe
     *                                  primitive exists, or the lock options are inconsistent
     */
    public static AtomicPublisher forTable(FileIO io, String tableLocation, TableOptions options) {
        Optional<CommitLock> lock = configuredLock(tableLocation, options, io.conf());
        if (lock.isPresent()) {
            return new LockingPublisher(io, lock.get(), tableLocation);
        }
        String scheme = io.scheme();
        if (io instanceof LocalFileIO) {
            return new HardLinkPublisher(io);
        }
        if (io instanceof HadoopFileIO && RENAME_SAFE.contains(scheme)) {
            return new RenamePublisher((HadoopFileIO) io);
        }
        if (io instanceof HadoopFileIO) {
            Path table = new Path(tableLocation);
            Path warehouse = table.getParent() != null && table.getParent().getParent() != null
                    ? table.getParent().getParent()
                    : table;
            try {
                Optional<AtomicPublisher> conditional = ((HadoopFileIO) io).conditionalCreatePublisher(warehouse);
                if (conditional.isPresent()) {
                    return conditional.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "table " + tableLocation + ": cannot probe the conditional create of " + warehouse + ": "
                                + e.getMessage(),
                        e);
            }
        }
        throw new IllegalArgumentException("table " + tableLocation + ": file system '" + scheme
                + "' has no atomic no-overwrite primitive that Strata trusts; set the table option "
                + "commit.lock.jdbc.url (a database lock) or commit.lock.class (a io.strata.storage.fs.CommitLock "
                + "implementation), or strata.commit.lock.jdbc.url in the Hadoop configuration (see docs/FORMAT.md)");
    }

    /** The lock the options configure, if any. */
    static Optional<CommitLock> configuredLock(String tableLocation, TableOptions options, Configuration conf) {
        String lockClass = value(options, conf, CommitOptions.LOCK_CLASS);
        String url = value(options, conf, CommitOptions.LOCK_JDBC_URL);
        if (lockClass != null && url != null) {
            throw new IllegalArgumentException("table " + tableLocation + ": set either commit.lock.class or "
                    + "commit.lock.jdbc.url, not both (table options, or strata.* in the Hadoop configuration)");
        }
        if (lockClass != null) {
            return Optional.of(instantiate(lockClass, tableLocation));
        }
        if (url == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new JdbcCommitLock(
                    url,
                    value(options, conf, CommitOptions.LOCK_JDBC_USER),
                    value(options, conf, CommitOptions.LOCK_JDBC_PASSWORD),
                    value(options, conf, CommitOptions.LOCK_LEASE),
                    value(options, conf, CommitOptions.LOCK_ACQUIRE_TIMEOUT)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + tableLocation + ": " + e.getMessage(), e);
        }
    }

    /** The table's value, else {@code strata.<key>} of the Hadoop configuration, else the default. */
    private static <T> T value(TableOptions options, Configuration conf, ConfigOption<T> option) {
        if (options.contains(option)) {
            return options.get(option);
        }
        String fromConf = conf.get(HADOOP_CONF_PREFIX + option.key());
        if (fromConf != null) {
            try {
                return option.parse(fromConf);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Hadoop configuration " + HADOOP_CONF_PREFIX + option.key() + ": " + e.getMessage(), e);
            }
        }
        return option.defaultValue();
    }

    private static CommitLock instantiate(String lockClass, String tableLocation) {
        try {
            return (CommitLock)
                    Class.forName(lockClass).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException(
                    "table " + tableLocation + ": commit.lock.class '" + lockClass
                            + "' cannot be instantiated as a CommitLock: " + e,
                    e);
        }
    }
}
