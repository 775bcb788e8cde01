package io.strata.storage.fs;

import java.util.concurrent.Callable;

/**
 * A lock shared by every committer of a table, for file systems that offer no atomic
 * no-overwrite primitive (object stores). Implementations (a database row, ZooKeeper, a
 * DynamoDB item, ...) are named by the table option {@code commit.lock.class} and need a public
 * no-arg constructor.
 *
 * <p>Contract: {@code runExclusive(table, action)} runs {@code action} while no other committer
 * of the same table, in any process, runs its action; it must fail (not proceed) if the lock's
 * lease may have expired while the action ran.
 */
public interface CommitLock {

    <T> T runExclusive(String tableLocation, Callable<T> action) throws Exception;
}
