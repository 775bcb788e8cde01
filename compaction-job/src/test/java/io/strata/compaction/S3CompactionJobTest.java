package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.ingest;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.runToEnd;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.S3ProxyServer;
import io.strata.storage.testutil.TableModel;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The batch compaction job on an {@code s3a://} warehouse (s3proxy on 127.0.0.1, started here).
 * The job's operators open the warehouse by URI alone, so the S3A settings come from the Hadoop
 * defaults, as from a core-site.xml on a cluster ({@link S3ProxyServer#installAsDefault()}); the
 * commit lock is a table option (H2 in this JVM, which also runs the MiniCluster).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class S3CompactionJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    private static S3ProxyServer s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyServer.start(new File("target", "s3-" + UUID.randomUUID()).getAbsoluteFile());
        s3.installAsDefault();
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void fullCompactionOfAnS3aTableEqualsTheModel() throws Exception {
        String wh = s3.uri("wh");
        String lock = "jdbc:h2:mem:job-locks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        FileStoreTable t = create(wh, "orders", true, 2, Map.of("commit.lock.jdbc.url", lock));
        assertThat(t.fileIO().scheme()).isEqualTo("s3a");
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(21), 3, 150, 120, "writer", 1);
        int buckets = levels(t).size();
        assertThat(levels(t).values()).allMatch(l -> l.level0().size() >= 3);

        List<CompactionEvent> events = runToEnd(spec(wh, "full", "batch", 2, "--table", "orders"));

        FileStoreTable reader = Catalog.open(wh).getTable("db", "orders");
        assertThat(contents(reader)).isEqualTo(model.contents());
        for (Levels l : levels(reader).values()) {
            assertThat(l.level0()).isEmpty();
            assertThat(l.numberOfSortedRuns()).isEqualTo(1);
        }
        LsmInvariants.check(reader);
        LsmInvariants.checkRowCounts(reader);
        assertThat(events.stream().filter(e -> e.kind.equals(CompactionEvent.REWRITTEN)))
                .hasSize(buckets);
        Snapshot last = reader.snapshotManager().latest().orElseThrow();
        assertThat(last.commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(last.id()).as("three appends, one compaction").isEqualTo(4);
        assertThat(reader.fileIO().readUtf8(reader.paths().latestHint())).isEqualTo("4");
    }
}
