package io.strata.storage.testutil;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * A committer in its own JVM, for races between processes: {@code main(warehouse, table, user,
 * partition, commits, key=value...)} commits {@code commits} single-row commits (partition p,
 * id n, v "user#n") to {@code db.table}, with the Hadoop settings given as the remaining
 * arguments. Exits 0 when every commit published a snapshot.
 */
public final class CommitterProcess {
    private CommitterProcess() {}

    public static void main(String[] args) {
        Configuration conf = new Configuration();
        for (int i = 5; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            conf.set(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        String user = args[2];
        int partition = Integer.parseInt(args[3]);
        int commits = Integer.parseInt(args[4]);
        FileStoreTable table = Catalog.open(args[0], conf).getTable("db", args[1]);
        int published = 0;
        try (TableWrite w = table.newWrite(user);
                TableCommit c = table.newCommit(user)) {
            for (int n = 1; n <= commits; n++) {
                w.write(GenericRow.insert(partition, (long) n, user + "#" + n));
                published += c.commit(n, w.prepareCommit()).size();
            }
        }
        System.out.println("published " + published);
        System.exit(published == commits ? 0 : 1);
    }

    /** Starts one in a child JVM on this JVM's class path; output goes to {@code log}. */
    public static Process start(File log, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "-Xmx512m",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                CommitterProcess.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
    }

    /** Waits for {@code p}; fails with its log when it does not exit 0 in time. */
    public static void await(Process p, File log, long seconds) throws IOException, InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(
                    "committer process did not finish in " + seconds + " s; log:\n" + Files.readString(log.toPath()));
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(
                    "committer process exited " + p.exitValue() + "; log:\n" + Files.readString(log.toPath()));
        }
    }
}
