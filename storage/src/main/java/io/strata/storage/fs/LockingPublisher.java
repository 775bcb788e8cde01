package io.strata.storage.fs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * Object stores: under a {@link CommitLock}, check that the target is absent and write it in one
 * PUT (object stores make a single PUT visible whole). On other file systems used with a lock the
 * file is written beside and moved in, so a reader never sees it half written.
 */
final class LockingPublisher implements AtomicPublisher {
    private final FileIO io;
    private final CommitLock lock;
    private final String tableLocation;

    LockingPublisher(FileIO io, CommitLock lock, String tableLocation) {
        this.io = io;
        this.lock = lock;
        this.tableLocation = tableLocation;
    }

    @Override
    public boolean publish(Path target, byte[] content) throws IOException {
        try {
            return lock.runExclusive(tableLocation, () -> {
                if (io.exists(target)) {
                    return false;
                }
                // readers do not take the lock: they must never see a partial snapshot
                io.writeNewWhole(target, content);
                return true;
            });
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("commit lock " + lock.getClass().getName() + " failed for " + target, e);
        }
    }

    @Override
    public String describe() {
        return "lock " + lock.getClass().getName();
    }
}
