package io.strata.storage.fs;

import java.util.Set;

/** Chooses the {@link AtomicPublisher} for a table's file system. */
public final class Publishers {
    /** Schemes whose rename is atomic and never overwrites. */
    private static final Set<String> RENAME_SAFE = Set.of("hdfs", "viewfs");

    private Publishers() {
    }

    /**
     * @param lockClass the table's {@code commit.lock.class}, or null
     * @throws IllegalArgumentException naming the table and scheme when no safe primitive exists
     */
    public static AtomicPublisher forTable(FileIO io, String tableLocation, String lockClass) {
        if (lockClass != null) {
            return new LockingPublisher(io, instantiate(lockClass, tableLocation), tableLocation);
        }
        String scheme = io.scheme();
        if (io instanceof LocalFileIO) {
            return new HardLinkPublisher(io);
        }
        if (io instanceof HadoopFileIO && RENAME_SAFE.contains(scheme)) {
            return new RenamePublisher((HadoopFileIO) io);
        }
        throw new IllegalArgumentException("table " + tableLocation + ": file system '" + scheme
                + "' has no atomic no-overwrite primitive that Strata trusts; set the table option "
                + "commit.lock.class to a io.strata.storage.fs.CommitLock implementation (see docs/FORMAT.md)");
    }

    private static CommitLock instantiate(String lockClass, String tableLocation) {
        try {
            return (CommitLock) Class.forName(lockClass).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("table " + tableLocation + ": commit.lock.class '" + lockClass
                    + "' cannot be instantiated as a CommitLock: " + e, e);
        }
    }
}
