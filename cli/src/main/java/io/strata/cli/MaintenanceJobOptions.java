package io.strata.cli;

import io.strata.compaction.maintenance.FlinkMaintenance;
import io.strata.compaction.maintenance.TableOpener;
import java.io.File;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --parallelism}, {@code --flink} and {@code --job-jar} of {@code strata expire} and
 * {@code strata orphan-clean}: whether their bulk steps run in this process or as a Flink batch
 * job, and on which Flink.
 */
final class MaintenanceJobOptions {
    @Option(
            names = "--parallelism",
            defaultValue = "1",
            paramLabel = "N",
            description = "Above 1: delete (and for orphan-clean, list) the files in a Flink batch job of N subtasks, "
                    + "on an embedded Flink unless --flink is given (default ${DEFAULT-VALUE}: in this process).")
    int parallelism;

    @Option(
            names = "--flink",
            paramLabel = "HOST:PORT",
            description = "With --parallelism above 1: submit the jobs to the Flink cluster whose REST endpoint this "
                    + "is, and wait for their results.")
    String flink;

    @Option(
            names = "--job-jar",
            paramLabel = "PATH",
            description = "With --flink: the shaded job jar uploaded with each job "
                    + "(compaction-job/target/strata-compaction-job-shaded.jar); leave it out when the cluster has "
                    + "Strata on its class path.")
    File jobJar;

    /** The Flink job for {@code --parallelism} above 1; empty to run in this process. */
    Optional<FlinkMaintenance> job(WarehouseOptions target, Map<String, String> runOptions) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be at least 1, got " + parallelism);
        }
        if (parallelism == 1) {
            if (flink != null || jobJar != null) {
                throw new IllegalArgumentException("--flink and --job-jar need --parallelism above 1");
            }
            return Optional.empty();
        }
        TableOpener opener = TableOpener.of(target.warehouse, target.table, runOptions);
        if (flink == null) {
            if (jobJar != null) {
                throw new IllegalArgumentException("--job-jar needs --flink (an embedded Flink has the classes)");
            }
            return Optional.of(FlinkMaintenance.embedded(opener, parallelism));
        }
        int colon = flink.lastIndexOf(':');
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(flink.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--flink must be HOST:PORT (the REST endpoint), got '" + flink + "'");
        }
        return Optional.of(FlinkMaintenance.onCluster(opener, parallelism, flink.substring(0, colon), port, jobJar));
    }
}
