package io.strata.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package graph of {@code storage} and {@code compaction-job} is the layered one of
 * docs/DESIGN.md ("Package map"): every package is listed there, lowest first, and a package uses
 * (imports, or names fully qualified outside comments) only packages listed before it. A cycle
 * can therefore not come back without this test failing, and the map cannot drift from the code.
 */
class PackageLayersTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void storagePackagesFollowTheDesignMap() {
        check("storage", "io.strata.storage", ROOT.resolve("storage/src/main/java/io/strata/storage"));
    }

    @Test
    void compactionJobPackagesFollowTheDesignMap() {
        check(
                "compaction-job",
                "io.strata.compaction",
                ROOT.resolve("compaction-job/src/main/java/io/strata/compaction"));
    }

    /**
     * The job uses of storage exactly the classes DESIGN.md lists under "What the job uses of
     * storage": a new use of an engine internal fails here until the list (and the review that
     * goes with changing it) says so.
     */
    @Test
    void theJobUsesOfStorageOnlyWhatTheDesignLists() {
        String design = read(ROOT.resolve("docs/DESIGN.md"));
        int start = design.indexOf("\n### What the job uses of storage");
        assertThat(start)
                .as("docs/DESIGN.md has a '### What the job uses of storage' part")
                .isGreaterThanOrEqualTo(0);
        int end = design.indexOf("\n#", start + 1);
        TreeSet<String> listed = new TreeSet<>();
        Matcher m = Pattern.compile("`([a-z]+(?:\\.[a-z]+)*\\.[A-Z][A-Za-z]*)`").matcher(design.substring(start, end));
        while (m.find()) {
            listed.add(m.group(1));
        }
        TreeSet<String> used = new TreeSet<>();
        Pattern reference = Pattern.compile("io\\.strata\\.storage\\.((?:[a-z][a-z0-9]*\\.)+[A-Z][A-Za-z0-9]*)");
        try (Stream<Path> files = Files.walk(ROOT.resolve("compaction-job/src/main/java"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                Matcher r = reference.matcher(withoutComments(read(f)));
                while (r.find()) {
                    used.add(r.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(used)
                .as("storage classes the job's sources use, against docs/DESIGN.md's list")
                .containsExactlyElementsOf(listed);
    }

    private static void check(String module, String base, Path sourceRoot) {
        List<String> layers = designMap(module);
        Map<String, TreeSet<String>> uses = usesByPackage(base, sourceRoot);
        assertThat(layers)
                .as("docs/DESIGN.md package map of %s: every package of the source tree, once", module)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(uses.keySet());
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, TreeSet<String>> e : uses.entrySet()) {
            int level = layers.indexOf(e.getKey());
            for (String used : e.getValue()) {
                int usedLevel = layers.indexOf(used);
                if (usedLevel < 0 || usedLevel >= level) {
                    violations.add(e.getKey() + " -> " + used);
                }
            }
        }
        assertThat(violations)
                .as(
                        "uses of a package listed at the same place or later in the %s package map "
                                + "of docs/DESIGN.md (a cycle, or a map that is out of date)",
                        module)
                .isEmpty();
    }

    /** The numbered entries ("1. `name`") under "### module" of DESIGN.md's "## Package map". */
    private static List<String> designMap(String module) {
        String design = read(ROOT.resolve("docs/DESIGN.md"));
        int map = design.indexOf("\n## Package map");
        assertThat(map).as("docs/DESIGN.md has a '## Package map' section").isGreaterThanOrEqualTo(0);
        int end = design.indexOf("\n## ", map + 1);
        String section = design.substring(map, end < 0 ? design.length() : end);
        int start = section.indexOf("\n### " + module);
        assertThat(start).as("the package map has a '### %s' part", module).isGreaterThanOrEqualTo(0);
        int next = section.indexOf("\n### ", start + 1);
        String part = section.substring(start, next < 0 ? section.length() : next);
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\d+\\. `([a-z.()]+)`").matcher(part);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Package (relative to {@code base}, "(root)" for base itself) to the other packages of base it uses. */
    private static Map<String, TreeSet<String>> usesByPackage(String base, Path sourceRoot) {
        Pattern reference = Pattern.compile(Pattern.quote(base) + "((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String pkg =
                        relative(sourceRoot.relativize(f.getParent()).toString().replace('/', '.'));
                TreeSet<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = reference.matcher(withoutComments(read(f)));
                while (m.find()) {
                    String target =
                            relative(m.group(1).isEmpty() ? "" : m.group(1).substring(1));
                    if (!target.equals(pkg)) {
                        used.add(target);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new LinkedHashMap<>(uses);
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
