package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of {@code scheduler} form the layers of docs/DESIGN.md ("Package map", part
 * "scheduler"): a package uses only packages listed before it, so they form a DAG. And the
 * scheduler uses of storage and of the compaction job exactly the classes DESIGN.md lists under
 * "What the scheduler uses of storage and the job": the engine API, no internals.
 */
class PackageLayersTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SOURCES = ROOT.resolve("scheduler/src/main/java");

    @Test
    void schedulerPackagesFollowTheDesignMap() {
        String design = read(ROOT.resolve("docs/DESIGN.md"));
        String part = part(design, "\n## Package map", "\n### scheduler");
        List<String> layers = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\d+\\. `([a-z.()]+)`").matcher(part);
        while (m.find()) {
            layers.add(m.group(1));
        }
        Map<String, TreeSet<String>> uses = usesByPackage();
        assertThat(layers)
                .as("docs/DESIGN.md package map of scheduler: every package of the source tree, once")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(uses.keySet());
        List<String> violations = new ArrayList<>();
        uses.forEach((pkg, used) -> {
            for (String u : used) {
                if (layers.indexOf(u) >= layers.indexOf(pkg)) {
                    violations.add(pkg + " -> " + u);
                }
            }
        });
        assertThat(violations)
                .as("uses of a package listed at the same place or later (a cycle, or an outdated map)")
                .isEmpty();
    }

    @Test
    void theSchedulerUsesOfStorageAndTheJobOnlyWhatTheDesignLists() {
        String design = read(ROOT.resolve("docs/DESIGN.md"));
        String part = part(design, "\n## Scheduler", "\n### What the scheduler uses of storage and the job");
        TreeSet<String> listed = new TreeSet<>();
        Matcher m = Pattern.compile("`((?:storage|compaction)(?:\\.[a-z]+)*\\.[A-Z][A-Za-z]*)`")
                .matcher(part);
        while (m.find()) {
            listed.add(m.group(1));
        }
        TreeSet<String> used = new TreeSet<>();
        Pattern reference =
                Pattern.compile("io\\.strata\\.((?:storage|compaction)(?:\\.[a-z][a-z0-9]*)*\\.[A-Z][A-Za-z0-9]*)");
        for (Path f : javaFiles()) {
            Matcher r = reference.matcher(withoutComments(read(f)));
            while (r.find()) {
                used.add(r.group(1));
            }
        }
        assertThat(used)
                .as("storage and compaction-job classes the scheduler's sources use, against docs/DESIGN.md")
                .containsExactlyElementsOf(listed);
    }

    /** The text from {@code heading} (inside {@code section}) to the next heading of its level or above. */
    private static String part(String design, String section, String heading) {
        int s = design.indexOf(section);
        assertThat(s).as("docs/DESIGN.md has '%s'", section.strip()).isGreaterThanOrEqualTo(0);
        int start = design.indexOf(heading, s);
        assertThat(start).as("docs/DESIGN.md has '%s'", heading.strip()).isGreaterThanOrEqualTo(0);
        int next = design.indexOf("\n#", start + heading.length());
        return design.substring(start, next < 0 ? design.length() : next);
    }

    private static Map<String, TreeSet<String>> usesByPackage() {
        Path base = SOURCES.resolve("io/strata/scheduler");
        Pattern reference = Pattern.compile("io\\.strata\\.scheduler((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        for (Path f : javaFiles()) {
            String pkg = relative(base.relativize(f.getParent()).toString().replace('/', '.'));
            TreeSet<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
            Matcher m = reference.matcher(withoutComments(read(f)));
            while (m.find()) {
                String target = relative(m.group(1).isEmpty() ? "" : m.group(1).substring(1));
                if (!target.equals(pkg)) {
                    used.add(target);
                }
            }
        }
        return uses;
    }

    private static List<Path> javaFiles() {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String relative(String pkg) {
        return pkg.isEmpty() ? "(root)" : pkg;
    }

    /** The source without comments (javadoc links do not make a dependency) and string literals. */
    private static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "")
                .replaceAll("//[^\n]*", "")
                .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
