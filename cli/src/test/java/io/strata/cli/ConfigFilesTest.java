package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.RollingFileAppender;
import org.apache.logging.log4j.core.appender.rolling.CompositeTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.DefaultRolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.SizeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.TimeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.properties.PropertiesConfigurationFactory;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The operational files of {@code configs/} that no other test loads (the Log4j configuration, the
 * systemd unit), and the rule that every file there is loaded by some test.
 */
class ConfigFilesTest {
    private static final Path ROOT =
            Path.of(System.getProperty("strata.repo.root")).toAbsolutePath().normalize();
    private static final Path CONFIGS = ROOT.resolve("configs");

    @TempDir
    Path dir;

    @Test
    void everyFileInConfigsIsLoadedByATest() throws IOException {
        List<String> sources = new ArrayList<>();
        for (String module : List.of("storage", "compaction-job", "scheduler", "cli", "bench")) {
            Path tests = ROOT.resolve(module).resolve("src/test/java");
            if (Files.isDirectory(tests)) {
                try (Stream<Path> s = Files.walk(tests)) {
                    s.filter(p -> p.toString().endsWith("Test.java")).forEach(p -> sources.add(read(p)));
                }
            }
        }
        List<String> unloaded = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CONFIGS)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                String parent = f.getParent().getFileName().toString();
                // a test names the file itself, or lists the directory it is in
                boolean named = sources.stream()
                        .anyMatch(s -> s.contains("\"" + name + "\"")
                                || (!f.getParent().equals(CONFIGS) && s.contains("\"" + parent + "\"")));
                if (!named) {
                    unloaded.add(CONFIGS.relativize(f).toString());
                }
            }
        }
        assertThat(unloaded).as("files under configs/ that no test loads").isEmpty();
    }

    @Test
    void theLog4jConfigurationLoadsCleanlyAndRollsItsFile() throws Exception {
        List<String> problems = new ArrayList<>();
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                problems.add(data.getFormattedStatus());
            }

            @Override
            public Level getStatusLevel() {
                return Level.WARN;
            }

            @Override
            public void close() {}
        };
        StatusLogger.getLogger().registerListener(listener);
        Path logs = dir.resolve("logs");
        String before = System.getProperty("strata.log.dir");
        System.setProperty("strata.log.dir", logs.toString());
        LoggerContext ctx = new LoggerContext("configs-log4j2");
        try {
            Path file = CONFIGS.resolve("log4j2.properties");
            Configuration c = new PropertiesConfigurationFactory()
                    .getConfiguration(ctx, new ConfigurationSource(Files.newInputStream(file), file.toFile()));
            ctx.start(c);
            assertThat(problems)
                    .as("Log4j's complaints about configs/log4j2.properties")
                    .isEmpty();
            assertThat(c.isShutdownHookEnabled())
                    .as("the scheduler logs its own graceful shutdown")
                    .isFalse();

            RollingFileAppender rolling = (RollingFileAppender) c.getAppenders().get("file");
            assertThat(rolling.getFileName())
                    .isEqualTo(logs.resolve("strata-scheduler.log").toString());
            assertThat(rolling.getFilePattern()).endsWith("strata-scheduler-%d{yyyy-MM-dd}-%i.log.gz");
            CompositeTriggeringPolicy policies = rolling.getTriggeringPolicy();
            assertThat(policies.getTriggeringPolicies())
                    .hasAtLeastOneElementOfType(TimeBasedTriggeringPolicy.class)
                    .anySatisfy(p -> assertThat(p)
                            .isInstanceOfSatisfying(
                                    SizeBasedTriggeringPolicy.class,
                                    s -> assertThat(s.getMaxFileSize()).isEqualTo(100L * 1024 * 1024)));
            assertThat(((DefaultRolloverStrategy) rolling.getManager().getRolloverStrategy()).getMaxIndex())
                    .isEqualTo(14);
            assertThat(c.getAppenders()).containsKeys("console", "file");

            Logger scheduler = ctx.getLogger("io.strata.scheduler.quartz.OperationGuard");
            scheduler.info("db.t expiration: succeeded");
            scheduler.debug("not written at info");
            ctx.getLogger("org.apache.flink.runtime.minicluster.MiniCluster").info("not written at warn");
            ctx.getLogger("io.strata.storage.commit.X").warn("a storage warning");
            String written = Files.readString(logs.resolve("strata-scheduler.log"), StandardCharsets.UTF_8);
            assertThat(written)
                    .contains("INFO  [")
                    .contains("i.s.s.q.OperationGuard - db.t expiration: succeeded")
                    .contains("a storage warning")
                    .doesNotContain("not written");
        } finally {
            ctx.stop();
            StatusLogger.getLogger().removeListener(listener);
            if (before == null) {
                System.clearProperty("strata.log.dir");
            } else {
                System.setProperty("strata.log.dir", before);
            }
        }
    }

    /** The directives the unit may use, per section; any other is a typo systemd would only warn about. */
    private static final Map<String, Set<String>> DIRECTIVES = Map.of(
            "Unit",
            Set.of("Description", "Documentation", "After", "Wants", "Requires"),
            "Service",
            Set.of(
                    "Type",
                    "User",
                    "Group",
                    "WorkingDirectory",
                    "Environment",
                    "EnvironmentFile",
                    "ExecStart",
                    "KillSignal",
                    "TimeoutStopSec",
                    "SuccessExitStatus",
                    "Restart",
                    "RestartSec",
                    "LogsDirectory",
                    "LimitNOFILE"),
            "Install",
            Set.of("WantedBy"));

    @Test
    void theSystemdUnitRunsTheSchedulerAndOutwaitsItsShutdown() {
        Map<String, Map<String, String>> unit = parseUnit(CONFIGS.resolve("strata-scheduler.service"));
        assertThat(unit.keySet()).containsExactly("Unit", "Service", "Install");
        unit.forEach((section, directives) -> assertThat(DIRECTIVES.get(section))
                .as("known directives of [%s]", section)
                .containsAll(directives.keySet()));
        Map<String, String> service = unit.get("Service");
        assertThat(service.get("Type")).isEqualTo("simple");
        assertThat(service.get("KillSignal")).isEqualTo("SIGTERM");
        assertThat(service.get("Restart")).isEqualTo("on-failure");
        assertThat(service.get("SuccessExitStatus")).isEqualTo("143");

        // ExecStart is bin/strata with arguments the CLI accepts
        String[] exec = service.get("ExecStart").split(" ");
        assertThat(exec[0]).isEqualTo("/opt/strata/bin/strata");
        String[] args = java.util.Arrays.copyOfRange(exec, 1, exec.length);
        ParseResult parsed = new CommandLine(new StrataCli()).parseArgs(args);
        ParseResult run = parsed.subcommand().subcommand();
        assertThat(run.commandSpec().qualifiedName(" ")).isEqualTo("strata scheduler run");
        assertThat(run.matchedOptionValue("--config", null).toString()).isEqualTo("/etc/strata/scheduler.yaml");
        int port = run.matchedOptionValue("--port", 0);
        assertThat(read(CONFIGS.resolve("strata-scheduler.service")))
                .as("the header's health check uses the unit's port")
                .contains("http://127.0.0.1:" + port + "/health");

        // the JVM options name the Log4j configuration of configs/
        Matcher opts = Pattern.compile("\"STRATA_JAVA_OPTS=([^\"]+)\"").matcher(service.get("Environment"));
        assertThat(opts.matches()).as(service.get("Environment")).isTrue();
        assertThat(opts.group(1)).contains("-Dlog4j2.configurationFile=/opt/strata/configs/log4j2.properties");

        // systemd must not SIGKILL a scheduler that is still waiting for its operations to end
        SchedulerConfig sample = ConfigLoader.load(CONFIGS.resolve("scheduler.yaml"));
        Duration stop = Duration.ofSeconds(Long.parseLong(service.get("TimeoutStopSec")));
        assertThat(stop)
                .as("TimeoutStopSec against the sample's shutdown-timeout plus the interrupt grace")
                .isGreaterThan(sample.shutdownTimeout().plusSeconds(30));
    }

    private static Map<String, Map<String, String>> parseUnit(Path file) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        Map<String, String> section = null;
        int n = 0;
        for (String line : read(file).split("\n")) {
            n++;
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
                continue;
            }
            if (l.startsWith("[") && l.endsWith("]")) {
                section = new LinkedHashMap<>();
                out.put(l.substring(1, l.length() - 1), section);
                continue;
            }
            int eq = l.indexOf('=');
            assertThat(section)
                    .as("%s:%d: a directive before any section", file, n)
                    .isNotNull();
            assertThat(eq).as("%s:%d: not a directive: %s", file, n, l).isPositive();
            String key = l.substring(0, eq);
            assertThat(section.put(key, l.substring(eq + 1)))
                    .as("%s:%d: %s given twice", file, n, key)
                    .isNull();
        }
        return out;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
