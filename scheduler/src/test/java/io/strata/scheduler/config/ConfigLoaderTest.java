package io.strata.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.RunsOn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {
    private static final Path SAMPLE = Path.of("..", "configs", "scheduler.yaml");

    @TempDir
    Path dir;

    @Test
    void theSampleConfigLoads() {
        SchedulerConfig c = ConfigLoader.load(SAMPLE);
        assertThat(c.warehouse()).isEqualTo("./warehouse");
        assertThat(c.store().isH2()).isTrue();
        assertThat(c.store().jdbcUrl()).endsWith("warehouse/_scheduler/quartz;AUTO_SERVER=TRUE");
        assertThat(c.store().clustered())
                .as("the cluster keys are commented examples")
                .isFalse();
        assertThat(c.tables().databases()).singleElement().satisfies(d -> {
            assertThat(d.matches("events")).isTrue();
            assertThat(d.matches("tmp_events")).isFalse();
        });
        TableSettings d = c.defaults();
        assertThat(d.expiration()).hasValueSatisfying(e -> assertThat(e.cron()).isEqualTo("0 0 * * * ?"));
        assertThat(d.orphanCleanup()).hasValueSatisfying(o -> {
            assertThat(o.olderThan()).isEqualTo(Duration.ofDays(1));
            assertThat(o.dryRun()).isFalse();
        });
        assertThat(d.fullCompaction())
                .hasValueSatisfying(f -> assertThat(f.window().zone()).isEqualTo(ZoneId.of("Europe/Berlin")));
        assertThat(d.backlogCompaction()).hasValueSatisfying(b -> {
            assertThat(b.pollInterval()).isEqualTo(Duration.ofMinutes(1));
            assertThat(b.maxSortedRuns()).isEqualTo(10);
        });
        assertThat(d.compaction()).isEqualTo(Compaction.embedded(2));
        assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.overrides())
                .as("the sample's override is an example in a comment")
                .isEmpty();
    }

    @Test
    void theSamplesCommentedOverrideMergesOverTheDefaults() throws Exception {
        String text = Files.readString(SAMPLE);
        String example = text.substring(text.indexOf("#   default.events:"), text.indexOf("overrides: {}"));
        String yaml = text.replace("overrides: {}\n", "overrides:\n" + example.replace("#   ", "  "));
        SchedulerConfig c = ConfigLoader.parse("scheduler.yaml", yaml);
        TableSettings events = c.settingsFor("default.events");
        assertThat(events.expiration().get().retainMax()).hasValue(50);
        assertThat(events.expiration().get().cron()).as("merged from defaults").isEqualTo("0 0 * * * ?");
        assertThat(events.fullCompaction()).as("turned off by the override").isEmpty();
        assertThat(c.settingsFor("default.other")).isSameAs(c.defaults());
    }

    /** The sample's commented changelog-expiration, partition-expiration and auto-tag sections load as written. */
    @Test
    void theSamplesCommentedRetentionSectionsLoadWhenUncommented() throws Exception {
        String text = Files.readString(SAMPLE);
        int from = text.indexOf("  # changelog-expiration:");
        int to = text.indexOf("  # Orphan files:");
        assertThat(from).isPositive();
        assertThat(to).isGreaterThan(from);
        String uncommented = text.substring(from, to).replaceAll("(?m)^  # ( *[a-z-]+:)", "  $1");
        SchedulerConfig c =
                ConfigLoader.parse("scheduler.yaml", text.substring(0, from) + uncommented + text.substring(to));
        TableSettings d = c.defaults();
        assertThat(d.changelogExpiration().get().retainMax()).hasValue(1000);
        assertThat(d.changelogExpiration().get().olderThan()).hasValue(java.time.Duration.ofDays(7));
        assertThat(d.partitionExpiration().get().olderThan()).hasValue(java.time.Duration.ofDays(30));
        assertThat(d.partitionExpiration().get().timestampFormatter()).hasValue("yyyyMMdd");
        assertThat(d.partitionExpiration().get().dryRun()).isTrue();
        assertThat(d.autoTag().get().cron()).isEqualTo("0 5 0 * * ?");
    }

    @Test
    void theClusterSampleLoadsAsAClusteredPostgresStoreCompactingOnTheCluster(@TempDir Path dir) throws IOException {
        // the sample names the jar where a production member keeps it; here it is a file of the test's
        Path jar = Files.createFile(dir.resolve("strata-compaction-job-shaded.jar"));
        String text = Files.readString(SAMPLE.resolveSibling("scheduler-cluster.yaml"));
        assertThat(text).contains("job-jar: /opt/strata/strata-compaction-job-shaded.jar");
        Path copy = Files.writeString(
                dir.resolve("scheduler-cluster.yaml"),
                text.replace("/opt/strata/strata-compaction-job-shaded.jar", jar.toString()));
        SchedulerConfig c = ConfigLoader.load(copy);
        assertThat(c.store().isPostgres()).isTrue();
        assertThat(c.store().clustered()).isTrue();
        assertThat(c.store().clusterCheckinInterval()).isEqualTo(java.time.Duration.ofSeconds(15));
        assertThat(c.schedulerId()).isEqualTo("scheduler-a");
        assertThat(c.tables().databases())
                .extracting(SchedulerConfig.DatabaseSelection::name)
                .containsExactly("cdc", "logs");
        assertThat(c.defaults().fullCompaction().get().window().toString()).contains("01:00");
        TableSettings.Compaction compaction = c.defaults().compaction();
        assertThat(compaction.runsOn()).isEqualTo(TableSettings.RunsOn.REST);
        TableSettings.FlinkCluster cluster = compaction.cluster().orElseThrow();
        assertThat(cluster.address()).isEqualTo("jobmanager.example.com:8081");
        assertThat(cluster.jobJar()).isEqualTo(jar);
        assertThat(cluster.cancelOnShutdown()).isTrue();
    }

    @Test
    void changelogAndPartitionExpirationAndAutoTagsMergeOverTheDefaultsKeyByKey() {
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: /tmp/w
                defaults:
                  changelog-expiration:
                    cron: "0 15 * * * ?"
                    retain-max: 100
                  partition-expiration:
                    cron: "0 0 1 * * ?"
                    zone: Europe/Berlin
                    older-than: 30d
                  auto-tag:
                    cron: "0 5 0 * * ?"
                overrides:
                  db.t:
                    changelog-expiration:
                      older-than: 2d
                    partition-expiration:
                      older-than: 7d
                      timestamp-formatter: yyyyMMdd
                      dry-run: true
                    auto-tag:
                      enabled: false
                """);
        TableSettings d = c.defaults();
        assertThat(d.changelogExpiration().get().olderThan()).isEmpty();
        assertThat(d.partitionExpiration().get().dryRun()).isFalse();
        assertThat(d.partitionExpiration().get().timestampFormatter()).isEmpty();
        TableSettings t = c.settingsFor("db.t");
        assertThat(t.changelogExpiration()).hasValueSatisfying(e -> {
            assertThat(e.retainMax()).as("from the defaults").hasValue(100);
            assertThat(e.olderThan()).contains(Duration.ofDays(2));
            assertThat(e.zone()).isEqualTo(java.time.ZoneOffset.UTC);
        });
        assertThat(t.partitionExpiration()).hasValueSatisfying(p -> {
            assertThat(p.cron()).isEqualTo("0 0 1 * * ?");
            assertThat(p.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
            assertThat(p.olderThan()).contains(Duration.ofDays(7));
            assertThat(p.timestampFormatter()).contains("yyyyMMdd");
            assertThat(p.dryRun()).isTrue();
        });
        assertThat(t.autoTag()).as("turned off by the override").isEmpty();
    }

    @Test
    void theSchedulersOwnKeysHaveDefaultsAndTakeTheirValues() {
        SchedulerConfig d = ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\n");
        assertThat(d.schedulerId()).endsWith("-scheduler").isNotBlank();
        assertThat(d.leaseTtl()).isEqualTo(Duration.ofMinutes(2));
        assertThat(d.historyRetention()).isEqualTo(Duration.ofDays(30));
        assertThat(d.maxBucketSeries()).isEqualTo(20);
        SchedulerConfig c = ConfigLoader.parse(
                "s.yaml",
                "warehouse: /tmp/w\nscheduler-id: node-a\nlease-ttl: 30s\nhistory-retention: 7d\nmax-bucket-series: 0\n");
        assertThat(c.schedulerId()).isEqualTo("node-a");
        assertThat(c.leaseTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.historyRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(c.maxBucketSeries()).isZero();
        String longest = "n".repeat(ConfigLoader.MAX_SCHEDULER_ID_LENGTH);
        assertThat(ConfigLoader.parse("s.yaml", "scheduler-id: " + longest + "\n")
                        .schedulerId())
                .isEqualTo(longest);
    }

    @Test
    void theSamplesCommentedClusterKeysLoadWithItsCommentedPostgresStore() throws Exception {
        String text = Files.readString(SAMPLE);
        String store = text.substring(text.indexOf("store:\n"), text.indexOf("\n# How often the warehouse"));
        String uncommented = store.replace("  # jdbc-url:", "  jdbc-url:")
                .replace("  # user:", "  user:")
                .replace("  # password:", "  password:")
                .replace("  # clustered:", "  clustered:")
                .replace("  # cluster-checkin-interval:", "  cluster-checkin-interval:");
        SchedulerConfig c = ConfigLoader.parse("scheduler.yaml", text.replace(store, uncommented));
        assertThat(c.store().isPostgres()).isTrue();
        assertThat(c.store().clustered()).isTrue();
        assertThat(c.store().clusterCheckinInterval()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void aClusteredStoreIsPostgresAndChecksInAtItsInterval() {
        SchedulerConfig plain = ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\n");
        assertThat(plain.store().clustered()).isFalse();
        assertThat(plain.store().clusterCheckinInterval()).isEqualTo(Duration.ofSeconds(15));
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: hdfs://nn/w
                scheduler-id: node-a
                store:
                  jdbc-url: jdbc:postgresql://localhost:5432/strata
                  clustered: true
                  cluster-checkin-interval: 5s
                """);
        assertThat(c.store().clustered()).isTrue();
        assertThat(c.store().clusterCheckinInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.store().toString()).contains("clustered");
        assertThat(ConfigLoader.parse("s.yaml", "store:\n  clustered: false\n")
                        .store()
                        .isH2())
                .isTrue();
    }

    @Test
    void theSamplesCommentedCapsLoadWhenUncommented() throws Exception {
        String text = Files.readString(SAMPLE);
        assertThat(text).contains("# max-concurrent-compactions: 1\n", "# max-concurrent-maintenance: 1\n");
        String uncommented = text.replace("# max-concurrent-compactions: 1", "max-concurrent-compactions: 2")
                .replace("# max-concurrent-maintenance: 1", "max-concurrent-maintenance: 2");
        SchedulerConfig c = ConfigLoader.parse("scheduler.yaml", uncommented);
        assertThat(c.maxConcurrentCompactions()).isEqualTo(2);
        assertThat(c.maxConcurrentMaintenance()).isEqualTo(2);
    }

    @Test
    void theCatchUpSpreadDefaultsToTenMinutesIsOffAtZeroAndIsLocatedWhenWrong() throws Exception {
        assertThat(ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\n").catchUpSpread())
                .isEqualTo(Duration.ofMinutes(10));
        assertThat(ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\ncatch-up-spread: 0 ms\n")
                        .catchUpSpread())
                .isZero();
        String text = Files.readString(SAMPLE);
        assertThat(text).contains("# catch-up-spread: 10m\n");
        assertThat(ConfigLoader.parse("scheduler.yaml", text.replace("# catch-up-spread: 10m", "catch-up-spread: 30m"))
                        .catchUpSpread())
                .isEqualTo(Duration.ofMinutes(30));
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\ncatch-up-spread: soon\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: catch-up-spread: ")
                .hasMessageContaining("soon");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\ncatch-up-spread: 2d\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: catch-up-spread: must be at most 1 d")
                .hasMessageContaining("got 2d");
    }

    @Test
    void theCapsPerClassDefaultToOneAndStayWithinTheOperationThreads() {
        SchedulerConfig d = ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\n");
        assertThat(d.maxConcurrentCompactions()).isEqualTo(1);
        assertThat(d.maxConcurrentMaintenance()).isEqualTo(1);
        SchedulerConfig c = ConfigLoader.parse(
                "s.yaml",
                "warehouse: /tmp/w\nmax-concurrent-operations: 4\nmax-concurrent-compactions: 3\n"
                        + "max-concurrent-maintenance: 4\n");
        assertThat(c.maxConcurrentCompactions()).isEqualTo(3);
        assertThat(c.maxConcurrentMaintenance()).isEqualTo(4);
    }

    @Test
    void compactionOnAFlinkClusterHasItsAddressJarAndDefaults() throws Exception {
        Path jar = Files.createFile(dir.resolve("job.jar"));
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: /tmp/w
                defaults:
                  compaction:
                    runs-on: rest
                    rest-address: flink-jm.example.com:8081
                    job-jar: %s
                    parallelism: 4
                """.formatted(jar));
        Compaction p = c.defaults().compaction();
        assertThat(p.runsOn()).isEqualTo(RunsOn.REST);
        assertThat(p.parallelism()).isEqualTo(4);
        assertThat(p.cluster()).hasValueSatisfying(f -> {
            assertThat(f.host()).isEqualTo("flink-jm.example.com");
            assertThat(f.port()).isEqualTo(8081);
            assertThat(f.address()).isEqualTo("flink-jm.example.com:8081");
            assertThat(f.jobJar()).isEqualTo(jar.toAbsolutePath());
            assertThat(f.cancelOnShutdown()).as("default").isTrue();
            assertThat(f.pollInterval()).as("default").isEqualTo(Duration.ofSeconds(2));
        });
    }

    @Test
    void oneTableRunsOnTheClusterTheDefaultsName() throws Exception {
        Path jar = Files.createFile(dir.resolve("job.jar"));
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: /tmp/w
                defaults:
                  compaction:
                    rest-address: 127.0.0.1:8081
                    job-jar: %s
                    cancel-on-shutdown: false
                    poll-interval: 500 ms
                overrides:
                  db.big:
                    compaction:
                      runs-on: rest
                      parallelism: 8
                """.formatted(jar));
        assertThat(c.defaults().compaction()).isEqualTo(Compaction.embedded(2));
        Compaction big = c.settingsFor("db.big").compaction();
        assertThat(big.runsOn()).isEqualTo(RunsOn.REST);
        assertThat(big.parallelism()).isEqualTo(8);
        assertThat(big.cluster()).hasValueSatisfying(f -> {
            assertThat(f.port()).isEqualTo(8081);
            assertThat(f.cancelOnShutdown()).isFalse();
            assertThat(f.pollInterval()).isEqualTo(Duration.ofMillis(500));
        });
    }

    @Test
    void aClusterWithoutItsAddressIsNamedWhereTheSectionIs() throws Exception {
        Path jar = Files.createFile(dir.resolve("job.jar"));
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        warehouse: /tmp/w
                        defaults:
                          compaction:
                            runs-on: rest
                            job-jar: %s
                        """.formatted(jar)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "s.yaml:3:3: defaults.compaction: runs-on: rest needs rest-address: " + "<host>:<port>");
    }

    @Test
    void aJobJarThatIsNotThereStopsTheLoadAtItsKey() {
        Path missing = dir.resolve("no-such.jar");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        warehouse: /tmp/w
                        defaults:
                          compaction:
                            runs-on: rest
                            rest-address: localhost:8081
                            job-jar: %s
                        """.formatted(missing)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:6:5: defaults.compaction.job-jar: the job jar " + missing
                        + " does not exist or is not a file");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        warehouse: /tmp/w
                        defaults:
                          compaction:
                            runs-on: rest
                            rest-address: localhost:8081
                            job-jar: %s
                        """.formatted(dir)))
                .as("a directory")
                .hasMessageContaining("defaults.compaction.job-jar: the job jar " + dir);
    }

    @Test
    void theSamplesCommentedClusterExampleLoads() throws Exception {
        Path jar = Files.createFile(dir.resolve("strata-compaction-job-shaded.jar"));
        String text = Files.readString(SAMPLE);
        int from = text.indexOf("  #   runs-on: rest\n");
        int to = text.indexOf("  compaction:\n", from);
        String example = text.substring(from, to)
                .replace("  #   ", "    ")
                .replace("/opt/strata/strata-compaction-job-shaded.jar", jar.toString());
        String yaml = text.replace("    runs-on: embedded\n", example);
        SchedulerConfig c = ConfigLoader.parse("scheduler.yaml", yaml);
        Compaction p = c.defaults().compaction();
        assertThat(p.runsOn()).isEqualTo(RunsOn.REST);
        assertThat(p.parallelism()).isEqualTo(2);
        assertThat(p.cluster()).hasValueSatisfying(f -> {
            assertThat(f.address()).isEqualTo("flink-jobmanager:8081");
            assertThat(f.jobJar()).isEqualTo(jar);
            assertThat(f.cancelOnShutdown()).isTrue();
            assertThat(f.pollInterval()).isEqualTo(Duration.ofSeconds(2));
        });
    }

    @Test
    void aJdbcStoreAndDefaults() {
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: hdfs://nn/w
                store:
                  jdbc-url: jdbc:postgresql://localhost:5432/strata
                  user: u
                  password: p
                """);
        assertThat(c.store().isPostgres()).isTrue();
        assertThat(c.store().toString()).doesNotContain("p]");
        assertThat(c.defaults().expiration()).isEmpty();
        assertThat(c.discoveryInterval()).isEqualTo(Duration.ofSeconds(30));
        // the store key is missing, so the error has no line to name
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: hdfs://nn/w\n"))
                .hasMessageContaining("store: the warehouse hdfs://nn/w is not local");
    }

    /**
     * A config that does not load: the key the error must name, where the key stands in the file,
     * what the message says after {@code file:line:column: key: }, and what else it must mention
     * (the known keys of a section, the rejected value).
     */
    record BadConfig(String name, String yaml, String key, int line, int column, String reason, List<String> mentions) {
        BadConfig(String name, String yaml, String key, int line, int column, String reason, String... mentions) {
            this(name, yaml, key, line, column, reason, List.of(mentions));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<BadConfig> badConfigs() {
        String longestId = "n".repeat(ConfigLoader.MAX_SCHEDULER_ID_LENGTH);
        List<BadConfig> bad = new ArrayList<>(List.of(
                new BadConfig(
                        "unknown key in a section",
                        """
                        warehouse: /tmp/w
                        defaults:
                          expiration:
                            cron: "0 0 * * * ?"
                            retain-mni: 3
                        """,
                        "defaults.expiration.retain-mni",
                        5,
                        5,
                        "unknown key 'retain-mni'"),
                new BadConfig(
                        "unknown key in partition-expiration lists the known ones",
                        """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                            expiration-time: 7d
                        """,
                        "defaults.partition-expiration.expiration-time",
                        4,
                        5,
                        "unknown key 'expiration-time'",
                        "older-than",
                        "timestamp-formatter"),
                new BadConfig(
                        "timestamp-formatter that is not a pattern, in an override",
                        """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                        overrides:
                          db.t:
                            partition-expiration:
                              timestamp-formatter: yyyy-MM-dd {
                        """,
                        "overrides.db.t.partition-expiration.timestamp-formatter",
                        7,
                        7,
                        "not a java.time pattern"),
                new BadConfig(
                        "partition older-than of zero",
                        """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                            older-than: 0 ms
                        """,
                        "defaults.partition-expiration.older-than",
                        4,
                        5,
                        "must be positive"),
                new BadConfig(
                        "changelog retain-max below retain-min",
                        """
                        defaults:
                          changelog-expiration:
                            cron: "0 15 * * * ?"
                            retain-min: 5
                            retain-max: 2
                        """,
                        "defaults.changelog-expiration.retain-max",
                        5,
                        5,
                        "must be at least retain-min (5), got 2"),
                new BadConfig(
                        "auto-tag without a cron",
                        """
                        defaults:
                          auto-tag:
                            zone: UTC
                        """,
                        "defaults.auto-tag",
                        2,
                        3,
                        "a schedule needs a cron expression"),
                new BadConfig("unknown key in auto-tag", """
                        defaults:
                          auto-tag:
                            cron: "0 5 0 * * ?"
                            period: hourly
                        """, "defaults.auto-tag.period", 4, 5, "unknown key 'period'"),
                new BadConfig(
                        "lease-ttl under 3 s",
                        "warehouse: /tmp/w\nlease-ttl: 1s\n",
                        "lease-ttl",
                        2,
                        1,
                        "must be at least 3 s"),
                new BadConfig(
                        "negative max-bucket-series",
                        "warehouse: /tmp/w\nmax-bucket-series: -1\n",
                        "max-bucket-series",
                        2,
                        1,
                        "must be 0 or more"),
                new BadConfig(
                        "blank scheduler-id",
                        "warehouse: /tmp/w\nscheduler-id: \" \"\n",
                        "scheduler-id",
                        2,
                        1,
                        "must be a non-blank name"),
                new BadConfig(
                        "scheduler-id one character too long",
                        "warehouse: /tmp/w\nscheduler-id: " + longestId + "x\n",
                        "scheduler-id",
                        2,
                        1,
                        "must be a non-blank name of at most 80 characters (it is the Quartz instance id)"),
                new BadConfig(
                        "cluster check-in under 1 s",
                        """
                        store:
                          jdbc-url: jdbc:postgresql://localhost:5432/strata
                          clustered: true
                          cluster-checkin-interval: 500 ms
                        """,
                        "store.cluster-checkin-interval",
                        4,
                        3,
                        "must be at least 1 s"),
                new BadConfig(
                        "cluster check-in that is not a duration",
                        """
                        store:
                          cluster-checkin-interval: often
                        """,
                        "store.cluster-checkin-interval",
                        2,
                        3,
                        "",
                        "often"),
                new BadConfig(
                        "unknown store key lists the known ones",
                        """
                        store:
                          clustred: true
                        """,
                        "store.clustred",
                        2,
                        3,
                        "unknown key 'clustred'",
                        "cluster-checkin-interval",
                        "clustered"),
                new BadConfig(
                        "clustered on the default H2 store",
                        """
                        warehouse: /tmp/w
                        store:
                          clustered: true
                        """,
                        "store.clustered",
                        3,
                        3,
                        "a clustered scheduler needs a PostgreSQL job store",
                        "jdbc:h2:file:"),
                new BadConfig(
                        "clustered on an H2 file store",
                        """
                        store:
                          h2-path: /tmp/state/quartz
                          cluster-checkin-interval: 5s
                          clustered: true
                        """,
                        "store.clustered",
                        4,
                        3,
                        "a clustered scheduler needs a PostgreSQL"),
                new BadConfig(
                        "clustered on an H2 server URL",
                        """
                        store:
                          jdbc-url: jdbc:h2:tcp://db/strata
                          clustered: true
                        """,
                        "store.clustered",
                        3,
                        3,
                        "a clustered scheduler needs a PostgreSQL",
                        "jdbc:h2:tcp://db/strata"),
                new BadConfig(
                        "no compaction slot",
                        "warehouse: /tmp/w\nmax-concurrent-compactions: 0\n",
                        "max-concurrent-compactions",
                        2,
                        1,
                        "must be at least 1, got 0"),
                new BadConfig(
                        "no maintenance slot",
                        "warehouse: /tmp/w\nmax-concurrent-maintenance: 0\n",
                        "max-concurrent-maintenance",
                        2,
                        1,
                        "must be at least 1, got 0"),
                new BadConfig(
                        "more compaction slots than operation threads",
                        "warehouse: /tmp/w\nmax-concurrent-operations: 2\nmax-concurrent-compactions: 3\n",
                        "max-concurrent-compactions",
                        3,
                        1,
                        "must be at most max-concurrent-operations (2, the operation threads), got 3"),
                new BadConfig(
                        "more maintenance slots than the default 2 operation threads",
                        "warehouse: /tmp/w\nmax-concurrent-maintenance: 3\n",
                        "max-concurrent-maintenance",
                        2,
                        1,
                        "must be at most max-concurrent-operations (2, the operation threads), got 3"),
                new BadConfig("bad cron", """
                        warehouse: /tmp/w
                        defaults:
                          orphan-cleanup:
                            cron: "0 0 25 * * ?"
                        """, "defaults.orphan-cleanup.cron", 4, 5, "not a Quartz cron expression"),
                new BadConfig(
                        "window without a zone",
                        """
                        warehouse: /tmp/w
                        defaults:
                          full-compaction:
                            cron: "0 0 2 * * ?"
                            window: 02:00-05:00
                        """,
                        "defaults.full-compaction.window",
                        5,
                        5,
                        "the window 02:00-05:00 needs a time zone"),
                new BadConfig(
                        "bad duration where the override writes it",
                        """
                        warehouse: /tmp/w
                        defaults:
                          backlog-compaction:
                            poll-interval: 1m
                        overrides:
                          db.t:
                            backlog-compaction:
                              poll-interval: soon
                        """,
                        "overrides.db.t.backlog-compaction.poll-interval",
                        8,
                        7,
                        "",
                        "soon"),
                new BadConfig(
                        "value of the wrong type, at the value",
                        """
                        warehouse: /tmp/w
                        defaults:
                          backlog-compaction:
                            max-sorted-runs: many
                        """,
                        "defaults.backlog-compaction.max-sorted-runs",
                        4,
                        22,
                        "",
                        "many"),
                new BadConfig(
                        "unknown runs-on lists the known ones",
                        """
                        warehouse: /tmp/w
                        defaults:
                          compaction:
                            runs-on: yarn
                        """,
                        "defaults.compaction.runs-on",
                        4,
                        5,
                        "runs-on must be one of [embedded, rest], got 'yarn'"),
                new BadConfig(
                        "runs-on rest without a job jar, in an override",
                        """
                        warehouse: /tmp/w
                        overrides:
                          db.t:
                            compaction:
                              runs-on: rest
                              rest-address: localhost:8081
                        """,
                        "overrides.db.t.compaction",
                        4,
                        5,
                        "runs-on: rest needs job-jar: the shaded compaction job jar"),
                new BadConfig(
                        "zero compaction poll-interval",
                        "defaults:\n  compaction:\n    poll-interval: 0s\n",
                        "defaults.compaction.poll-interval",
                        3,
                        5,
                        "must be positive"),
                new BadConfig(
                        "compaction poll-interval that is not a duration",
                        "defaults:\n  compaction:\n    poll-interval: often\n",
                        "defaults.compaction.poll-interval",
                        3,
                        5,
                        "",
                        "often"),
                new BadConfig(
                        "unknown compaction key lists the known ones",
                        "defaults:\n  compaction:\n    rest-adress: h:1\n",
                        "defaults.compaction.rest-adress",
                        3,
                        5,
                        "unknown key 'rest-adress'",
                        "cancel-on-shutdown",
                        "job-jar",
                        "rest-address"),
                new BadConfig(
                        "orphan cleanup of recent files",
                        """
                        defaults:
                          orphan-cleanup:
                            cron: "0 0 3 * * ?"
                            older-than: 10m
                        """,
                        "defaults.orphan-cleanup.older-than",
                        4,
                        5,
                        "must be at least 1h"),
                new BadConfig(
                        "table name without its database",
                        """
                        tables:
                          names: [db.t, justone]
                        """,
                        "tables.names[1]",
                        2,
                        17,
                        "expected <database>.<table>, got justone")));
        // even a table that compacts embedded may not carry a bad cluster address
        for (String address :
                List.of("localhost", ":8081", "localhost:http", "localhost:0", "h:70000", "http://h:8081")) {
            bad.add(new BadConfig(
                    "rest-address " + address,
                    "defaults:\n  compaction:\n    rest-address: \"" + address + "\"\n",
                    "defaults.compaction.rest-address",
                    3,
                    5,
                    "must be <host>:<port>",
                    "got '" + address + "'"));
        }
        return bad.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void anErrorNamesTheKeyWithItsLineAndColumn(BadConfig bad) {
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", bad.yaml()))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.key()).as("the key").isEqualTo(bad.key());
                    assertThat(e.line()).as("the line of %s", bad.key()).isEqualTo(bad.line());
                    assertThat(e.column()).as("the column of %s", bad.key()).isEqualTo(bad.column());
                })
                .hasMessageStartingWith(
                        "s.yaml:" + bad.line() + ":" + bad.column() + ": " + bad.key() + ": " + bad.reason())
                .satisfies(e -> {
                    for (String mention : bad.mentions()) {
                        assertThat(e.getMessage()).contains(mention);
                    }
                });
    }
}
