package io.strata.scheduler.config;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.FlinkCluster;
import io.strata.scheduler.config.TableSettings.RunsOn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code compaction} section of a table's settings, for {@link ConfigLoader}: where its
 * compactions run. The cluster keys are checked wherever they are written, also where {@code
 * runs-on} is {@code embedded} (defaults naming the cluster that some tables' overrides switch to);
 * with {@code rest} the address and an existing job jar are required.
 */
final class CompactionSection {
    private static final String SHADED_JAR = "compaction-job/target/strata-compaction-job-shaded.jar";

    private final ConfigLoader loader;

    private CompactionSection(ConfigLoader loader) {
        this.loader = loader;
    }

    static Compaction read(ConfigLoader loader, Layered<RawConfig.Compaction> l) {
        return new CompactionSection(loader).compaction(l);
    }

    private Compaction compaction(Layered<RawConfig.Compaction> l) {
        String runsOnKey = l.get("runs-on");
        RunsOn runsOn = runsOnKey == null
                ? RunsOn.EMBEDDED
                : RunsOn.of(runsOnKey)
                        .orElseThrow(() -> loader.fail(
                                l.path("runs-on"),
                                "runs-on must be one of " + RunsOn.keys() + ", got '" + runsOnKey + "'"));
        Integer parallelism = l.get("parallelism");
        if (parallelism != null && parallelism < 1) {
            throw loader.fail(l.path("parallelism"), "must be at least 1, got " + parallelism);
        }
        int p = parallelism == null ? 2 : parallelism;
        Optional<String[]> address = restAddress(l);
        Duration poll =
                loader.duration(l.path("poll-interval"), l.get("poll-interval")).orElse(Duration.ofSeconds(2));
        if (poll.isZero() || poll.isNegative()) {
            throw loader.fail(l.path("poll-interval"), "must be positive");
        }
        if (runsOn == RunsOn.EMBEDDED) {
            // the cluster keys may still be given (in defaults, for the tables that override runs-on)
            return Compaction.embedded(p);
        }
        if (address.isEmpty()) {
            throw loader.fail(
                    l.path("rest-address"),
                    "runs-on: rest needs rest-address: <host>:<port>, the REST endpoint of the Flink cluster");
        }
        Boolean cancel = l.get("cancel-on-shutdown");
        return Compaction.on(
                new FlinkCluster(
                        address.get()[0],
                        Integer.parseInt(address.get()[1]),
                        jobJar(l),
                        cancel == null || cancel,
                        poll),
                p);
    }

    /** {@code rest-address} split into host and port, checked wherever it is written. */
    private Optional<String[]> restAddress(Layered<RawConfig.Compaction> l) {
        String address = l.get("rest-address");
        if (address == null) {
            return Optional.empty();
        }
        int colon = address.lastIndexOf(':');
        String host = colon <= 0 ? "" : address.substring(0, colon);
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.isBlank() || host.contains("/") || port < 1 || port > 65535) {
            throw loader.fail(
                    l.path("rest-address"),
                    "must be <host>:<port> of the Flink cluster's REST endpoint (rest.address, rest.port), got '"
                            + address + "'");
        }
        return Optional.of(new String[] {host, String.valueOf(port)});
    }

    /** The shaded job jar a cluster runs: it must be a file now, so that a typo stops start-up. */
    private Path jobJar(Layered<RawConfig.Compaction> l) {
        String jar = l.get("job-jar");
        if (jar == null) {
            throw loader.fail(
                    l.path("job-jar"),
                    "runs-on: rest needs job-jar: the shaded compaction job jar the cluster runs (" + SHADED_JAR
                            + " of a build)");
        }
        Path p = Path.of(jar).toAbsolutePath().normalize();
        if (!Files.isRegularFile(p)) {
            throw loader.fail(
                    l.path("job-jar"),
                    "the job jar " + p + " does not exist or is not a file (mvn package builds " + SHADED_JAR + ")");
        }
        return p;
    }
}
