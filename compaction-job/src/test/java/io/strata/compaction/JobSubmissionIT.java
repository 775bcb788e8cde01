package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.ingest;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The ways of running the job besides the embedded one: the shaded jar's main, and REST submission. */
class JobSubmissionIT {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    @TempDir
    Path dir;

    @Test
    void shadedJarMainCompactsALocalWarehouse() throws Exception {
        FileStoreTable t = create(dir.toString(), "jarred", false, 2, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(21), 4, 100, 100, "w", 1);
        List<String> cp = jobClassPath();
        Process p = new ProcessBuilder(
                        System.getProperty("java.home") + "/bin/java",
                        "-Xmx512m",
                        "-cp",
                        String.join(File.pathSeparator, cp),
                        "io.strata.compaction.CompactionJob",
                        "--warehouse",
                        dir.toString(),
                        "--table",
                        "db.jarred",
                        "--strategy",
                        "full")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("job.log").toFile())
                .start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("the job ends").isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("job.log"))).isZero();
        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(t)).isEqualTo(model.contents());
    }

    @Test
    void shadedJarMainRejectsBadArgumentsNamingThem() throws Exception {
        List<String> cp = jobClassPath();
        Process p = new ProcessBuilder(
                        System.getProperty("java.home") + "/bin/java",
                        "-cp",
                        String.join(File.pathSeparator, cp),
                        "io.strata.compaction.CompactionJob",
                        "--warehouse",
                        dir.toString(),
                        "--table",
                        "db.missing",
                        "--strategy",
                        "full")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isNotZero();
        assertThat(out).contains("strata-compaction-job: error:").contains("db.missing");
    }

    /** Strata from the shaded jar only; Flink (provided on a cluster) and the rest from the test class path. */
    private static List<String> jobClassPath() {
        File jar = new File(System.getProperty("strata.shaded.jar"));
        assertThat(jar).as("the shaded jar is built before the tests").isFile();
        List<String> cp = new ArrayList<>(List.of(jar.getAbsolutePath()));
        String root = new File(System.getProperty("user.dir")).getParentFile().getAbsolutePath();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.startsWith(root) && !e.contains("/io/strata/")) {
                cp.add(e);
            }
        }
        return cp;
    }

    @Test
    void jobSubmittedThroughTheRestApiCompactsTheTable(@InjectClusterClient RestClusterClient<?> client)
            throws Exception {
        FileStoreTable t = create(dir.toString(), "rest", true, 2, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(22), 4, 100, 100, "w", 1);

        JobID id = RestSubmitter.submit(client, spec(dir.toString(), "full", "batch", 2, "--table", "rest"), null);
        assertThat(client.requestJobResult(id).get(120, TimeUnit.SECONDS).isSuccess())
                .isTrue();

        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(t)).isEqualTo(model.contents());
    }
}
