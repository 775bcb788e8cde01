package io.strata.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.RunsOn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void theClusterSampleLoadsAsAClusteredPostgresStore() {
        SchedulerConfig c = ConfigLoader.load(SAMPLE.resolveSibling("scheduler-cluster.yaml"));
        assertThat(c.store().isPostgres()).isTrue();
        assertThat(c.store().clustered()).isTrue();
        assertThat(c.store().clusterCheckinInterval()).isEqualTo(java.time.Duration.ofSeconds(15));
        assertThat(c.schedulerId()).isEqualTo("scheduler-a");
        assertThat(c.tables().databases())
                .extracting(SchedulerConfig.DatabaseSelection::name)
                .containsExactly("cdc", "logs");
        assertThat(c.defaults().fullCompaction().get().window().toString()).contains("01:00");
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
    void errorsInTheRetentionSectionsAreNamedWithTheirLineAndColumn() {
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                            expiration-time: 7d
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "s.yaml:4:5: defaults.partition-expiration.expiration-time: unknown key " + "'expiration-time'")
                .hasMessageContaining("older-than")
                .hasMessageContaining("timestamp-formatter");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                        overrides:
                          db.t:
                            partition-expiration:
                              timestamp-formatter: yyyy-MM-dd {
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:7:7: overrides.db.t.partition-expiration.timestamp-formatter: not a "
                        + "java.time pattern");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          partition-expiration:
                            cron: "0 0 1 * * ?"
                            older-than: 0 ms
                        """))
                .hasMessageStartingWith("s.yaml:4:5: defaults.partition-expiration.older-than: must be positive");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          changelog-expiration:
                            cron: "0 15 * * * ?"
                            retain-min: 5
                            retain-max: 2
                        """))
                .hasMessageStartingWith("s.yaml:5:5: defaults.changelog-expiration.retain-max: must be at least "
                        + "retain-min (5), got 2");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          auto-tag:
                            zone: UTC
                        """))
                .hasMessageStartingWith("s.yaml:2:3: defaults.auto-tag: a schedule needs a cron expression");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        defaults:
                          auto-tag:
                            cron: "0 5 0 * * ?"
                            period: hourly
                        """))
                .hasMessageStartingWith("s.yaml:4:5: defaults.auto-tag.period: unknown key 'period'");
    }

    @Test
    void anUnknownKeyIsNamedWithItsLineAndColumn() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  expiration:
                    cron: "0 0 * * * ?"
                    retain-mni: 3
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:5:5: defaults.expiration.retain-mni: unknown key 'retain-mni'")
                .satisfies(e -> assertThat(((ConfigException) e).line()).isEqualTo(5));
    }

    @Test
    void theSchedulersOwnKeysHaveDefaultsAndAreChecked() {
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
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nlease-ttl: 1s\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: lease-ttl: must be at least 3 s");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nmax-bucket-series: -1\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: max-bucket-series: must be 0 or more");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nscheduler-id: \" \"\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: scheduler-id: must be a non-blank name");
        String longest = "n".repeat(ConfigLoader.MAX_SCHEDULER_ID_LENGTH);
        assertThat(ConfigLoader.parse("s.yaml", "scheduler-id: " + longest + "\n")
                        .schedulerId())
                .isEqualTo(longest);
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nscheduler-id: " + longest + "x\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: scheduler-id: must be a non-blank name of at most 80 characters"
                        + " (it is the Quartz instance id)");
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
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        store:
                          jdbc-url: jdbc:postgresql://localhost:5432/strata
                          clustered: true
                          cluster-checkin-interval: 500 ms
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:3: store.cluster-checkin-interval: must be at least 1 s");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        store:
                          cluster-checkin-interval: often
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:3: store.cluster-checkin-interval:")
                .hasMessageContaining("often");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        store:
                          clustred: true
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:3: store.clustred: unknown key 'clustred'")
                .hasMessageContaining("cluster-checkin-interval")
                .hasMessageContaining("clustered");
    }

    @Test
    void aClusteredH2StoreIsNamedWithItsLineAndColumn() {
        String defaultFile = """
                warehouse: /tmp/w
                store:
                  clustered: true
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", defaultFile))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "s.yaml:3:3: store.clustered: a clustered scheduler needs a PostgreSQL job store")
                .hasMessageContaining("jdbc:h2:file:");
        String file = """
                store:
                  h2-path: /tmp/state/quartz
                  cluster-checkin-interval: 5s
                  clustered: true
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", file))
                .hasMessageStartingWith("s.yaml:4:3: store.clustered: a clustered scheduler needs a PostgreSQL");
        String url = """
                store:
                  jdbc-url: jdbc:h2:tcp://db/strata
                  clustered: true
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", url))
                .hasMessageStartingWith("s.yaml:3:3: store.clustered: a clustered scheduler needs a PostgreSQL")
                .hasMessageContaining("jdbc:h2:tcp://db/strata");
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
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nmax-concurrent-compactions: 0\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: max-concurrent-compactions: must be at least 1, got 0");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nmax-concurrent-maintenance: 0\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:2:1: max-concurrent-maintenance: must be at least 1, got 0");
        assertThatThrownBy(() -> ConfigLoader.parse(
                        "s.yaml", "warehouse: /tmp/w\nmax-concurrent-operations: 2\nmax-concurrent-compactions: 3\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:3:1: max-concurrent-compactions: must be at most "
                        + "max-concurrent-operations (2, the operation threads), got 3");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: /tmp/w\nmax-concurrent-maintenance: 3\n"))
                .isInstanceOf(ConfigException.class)
                .as("against the default of 2 threads")
                .hasMessageStartingWith("s.yaml:2:1: max-concurrent-maintenance: must be at most "
                        + "max-concurrent-operations (2, the operation threads), got 3");
    }

    @Test
    void aBadCronIsNamedWithItsLineAndColumn() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  orphan-cleanup:
                    cron: "0 0 25 * * ?"
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:5: defaults.orphan-cleanup.cron: not a Quartz cron expression");
    }

    @Test
    void aWindowWithoutAZoneIsNamedWithItsLineAndColumn() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  full-compaction:
                    cron: "0 0 2 * * ?"
                    window: 02:00-05:00
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "s.yaml:5:5: defaults.full-compaction.window: the window 02:00-05:00 needs a " + "time zone");
    }

    @Test
    void aBadDurationInAnOverrideIsNamedWhereTheOverrideWritesIt() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  backlog-compaction:
                    poll-interval: 1m
                overrides:
                  db.t:
                    backlog-compaction:
                      poll-interval: soon
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:8:7: overrides.db.t.backlog-compaction.poll-interval:")
                .hasMessageContaining("soon");
    }

    @Test
    void aValueOfTheWrongTypeIsNamedWithItsLineAndColumn() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  backlog-compaction:
                    max-sorted-runs: many
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:22: defaults.backlog-compaction.max-sorted-runs:");
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
    void anUnknownRunsOnListsTheKnownOnes() {
        String yaml = """
                warehouse: /tmp/w
                defaults:
                  compaction:
                    runs-on: yarn
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:5: defaults.compaction.runs-on: runs-on must be one of [embedded, "
                        + "rest], got 'yarn'");
    }

    @Test
    void aClusterWithoutItsAddressOrJarIsNamedWhereTheSectionIs() throws Exception {
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
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", """
                        warehouse: /tmp/w
                        overrides:
                          db.t:
                            compaction:
                              runs-on: rest
                              rest-address: localhost:8081
                        """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:5: overrides.db.t.compaction: runs-on: rest needs job-jar: the "
                        + "shaded compaction job jar");
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
    void badClusterKeysAreNamedEvenForEmbeddedTables() {
        for (String address :
                new String[] {"localhost", ":8081", "localhost:http", "localhost:0", "h:70000", "http://h:8081"}) {
            assertThatThrownBy(() -> ConfigLoader.parse(
                            "s.yaml", "defaults:\n  compaction:\n    rest-address: \"" + address + "\"\n"))
                    .as(address)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("s.yaml:3:5: defaults.compaction.rest-address: must be <host>:<port>")
                    .hasMessageContaining("got '" + address + "'");
        }
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "defaults:\n  compaction:\n    poll-interval: 0s\n"))
                .hasMessageStartingWith("s.yaml:3:5: defaults.compaction.poll-interval: must be positive");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "defaults:\n  compaction:\n    poll-interval: often\n"))
                .hasMessageStartingWith("s.yaml:3:5: defaults.compaction.poll-interval:")
                .hasMessageContaining("often");
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "defaults:\n  compaction:\n    rest-adress: h:1\n"))
                .hasMessageStartingWith("s.yaml:3:5: defaults.compaction.rest-adress: unknown key 'rest-adress'")
                .hasMessageContaining("cancel-on-shutdown")
                .hasMessageContaining("job-jar")
                .hasMessageContaining("rest-address");
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
    void orphanCleanupOfRecentFilesIsRefused() {
        String yaml = """
                defaults:
                  orphan-cleanup:
                    cron: "0 0 3 * * ?"
                    older-than: 10m
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .hasMessageStartingWith("s.yaml:4:5: defaults.orphan-cleanup.older-than: must be at least 1h");
    }

    @Test
    void badTableNamesAreNamed() {
        String yaml = """
                tables:
                  names: [db.t, justone]
                """;
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", yaml))
                .hasMessageStartingWith("s.yaml:2:")
                .hasMessageContaining("tables.names[1]: expected <database>.<table>, got justone");
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
        assertThatThrownBy(() -> ConfigLoader.parse("s.yaml", "warehouse: hdfs://nn/w\n"))
                .hasMessageContaining("store: the warehouse hdfs://nn/w is not local");
    }
}
