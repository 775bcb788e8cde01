package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.lease.LeaseAcquisition;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.metrics.ExportedMetrics;
import io.strata.scheduler.quartz.SchedulerDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command in {@code runbooks/*.md} runs as written against a demo table: each line of a
 * {@code bash} block is a {@code bin/strata} command, run in-process with {@code --warehouse}
 * added (a {@code strata scheduler} command: with its {@code --config configs/scheduler.yaml} the
 * sample config on the demo warehouse, whose scheduler database holds a hung holder's lease), in
 * the page's order, on a fresh demo table per page; each must exit 0. Every page has the sections
 * operators rely on and names the scheduler metrics that show its trouble, and the index links
 * every page.
 */
class RunbooksTest {
    private static final Path RUNBOOKS =
            Path.of("..", "runbooks").toAbsolutePath().normalize();
    private static final List<String> SECTIONS =
            List.of("## Symptom", "## What shows it", "## Cause", "## Fix", "## Prevention");

    @TempDir
    Path dir;

    static Stream<String> pages() throws IOException {
        try (Stream<Path> s = Files.list(RUNBOOKS)) {
            return s
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".md") && !n.equals("README.md"))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest
    @MethodSource("pages")
    void everyCommandOfThePageRunsAgainstADemoTable(String page) throws Exception {
        String text = Files.readString(RUNBOOKS.resolve(page));
        int at = -1;
        for (String section : SECTIONS) {
            int next = text.indexOf("\n" + section + "\n");
            assertThat(next)
                    .as(page + ": section '" + section + "' missing or out of order")
                    .isGreaterThan(at);
            at = next;
        }
        List<List<String>> commands = commands(page, text);
        assertThat(commands).as(page + ": no command to run").isNotEmpty();

        String warehouse = dir.resolve("wh").toString();
        Result gen = run(
                "gen",
                "--warehouse",
                warehouse,
                "--table",
                "db.t",
                "--commits",
                "8",
                "--rows-per-commit",
                "500",
                "--key-space",
                "1000",
                "--buckets",
                "2",
                "--option",
                "write-only=true",
                "--option",
                "changelog-producer=lookup");
        assertThat(gen.exit()).as(gen.err()).isZero();
        Path config = schedulerConfig(warehouse);
        plantAHungHoldersLease(config);
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command);
            if (args.get(0).equals("scheduler")) {
                int flag = args.indexOf("--config");
                assertThat(flag)
                        .as(page + ": a scheduler command names its config: " + command)
                        .isPositive();
                assertThat(args.get(flag + 1))
                        .as(page + ": scheduler commands use the sample config")
                        .isEqualTo("configs/scheduler.yaml");
                args.set(flag + 1, config.toString());
            } else {
                args.add("--warehouse");
                args.add(warehouse);
            }
            Result r = run(args.toArray(String[]::new));
            assertThat(r.exit())
                    .as(page + ": `bin/strata " + String.join(" ", command) + "` failed: " + r.err())
                    .isZero();
            assertThat(r.out())
                    .as(page + ": `bin/strata " + String.join(" ", command) + "` printed nothing")
                    .isNotBlank();
        }
    }

    /**
     * The sample scheduler config on the demo warehouse, its database selection pointed at the demo
     * table's database: what {@code --config configs/scheduler.yaml} means in a page.
     */
    private Path schedulerConfig(String warehouse) throws IOException {
        String sample = Files.readString(RUNBOOKS.resolveSibling("configs").resolve("scheduler.yaml"));
        assertThat(sample).contains("warehouse: ./warehouse\n").contains("    - name: default\n");
        String text = sample.replace("warehouse: ./warehouse\n", "warehouse: " + warehouse + "\n")
                .replace("    - name: default\n", "    - name: db\n");
        return Files.writeString(dir.resolve("scheduler.yaml"), text);
    }

    /**
     * The lease a page on stuck leases shows and breaks: epoch 1 of {@code db.t}'s backlog
     * compaction, held by a scheduler that hangs (it renews nothing, its lease lives 10 minutes).
     */
    private static void plantAHungHoldersLease(Path config) throws Exception {
        SchedulerConfig c = ConfigLoader.load(config);
        try (SchedulerDatabase db = SchedulerDatabase.open(c.store(), 2, Clock.systemUTC())) {
            LeaseAcquisition a = db.leases()
                    .acquire("db.t", LeaseOperation.BACKLOG_COMPACTION, "scheduler-b", Duration.ofMinutes(10));
            assertThat(a.isGranted()).isTrue();
            assertThat(a.lease().epoch()).isEqualTo(1);
        }
    }

    /** Every page names a metric of the scheduler's /metrics, and only metrics it exports. */
    @ParameterizedTest
    @MethodSource("pages")
    void everyPageNamesExportedMetrics(String page) throws IOException {
        Set<String> named = ExportedMetrics.mentionedIn(Files.readString(RUNBOOKS.resolve(page)));
        assertThat(named).as(page + ": names a metric of the scheduler").isNotEmpty();
        assertThat(ExportedMetrics.ofAScheduler())
                .as(page + ": the metrics it names are exported")
                .containsAll(named);
    }

    @Test
    void theIndexLinksEveryPage() throws IOException {
        String index = Files.readString(RUNBOOKS.resolve("README.md"));
        for (String page : pages().toList()) {
            assertThat(index).as("runbooks/README.md links " + page).contains("](" + page + ")");
        }
    }

    /** The {@code bin/strata} command lines of the page's {@code bash} blocks, split into arguments. */
    static List<List<String>> commands(String page, String text) {
        List<List<String>> out = new ArrayList<>();
        boolean inBash = false;
        StringBuilder pending = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("```")) {
                inBash = !inBash && line.equals("```bash");
                continue;
            }
            if (!inBash) {
                continue;
            }
            String code = stripComment(line).strip();
            if (code.endsWith("\\")) {
                pending.append(code, 0, code.length() - 1).append(' ');
                continue;
            }
            pending.append(code);
            String full = pending.toString().strip();
            pending.setLength(0);
            if (full.isEmpty()) {
                continue;
            }
            List<String> words = words(full);
            assertThat(words.get(0))
                    .as(page + ": a bash block may hold only bin/strata commands, found: " + full)
                    .isEqualTo("bin/strata");
            out.add(words.subList(1, words.size()));
        }
        return out;
    }

    /** The line without a {@code #} comment that starts outside quotes after a blank. */
    private static String stripComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** Shell-like words: blanks separate, single and double quotes group. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
