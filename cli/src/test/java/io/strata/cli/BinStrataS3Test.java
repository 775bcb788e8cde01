package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.S3ProxyServer;
import io.strata.storage.testutil.TestTables;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's S3 example, run: the real {@code bin/strata} (copied into a layout of its own, with
 * {@code cli/target/strata-cli.jar} and {@code lib/} as the build makes them, so it never builds)
 * reaches an {@code s3a://} warehouse on s3proxy with nothing but {@code HADOOP_CONF_DIR} (a
 * core-site.xml with the endpoint, path-style access, credentials and the commit lock) and
 * {@code STRATA_CLASSPATH} (hadoop-aws and the AWS SDK bundle, as bin/fetch-s3-jars copies them).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BinStrataS3Test {
    private static S3ProxyServer s3;

    @TempDir
    Path dir;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3ProxyServer.start(new File("target", "s3-" + UUID.randomUUID()).getAbsoluteFile());
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    private record Result(int exit, String output) {}

    @Test
    void binStrataReachesS3ThroughHadoopConfDirAndStrataClasspath() throws Exception {
        Path root = layout();
        File conf = s3.writeCoreSite(
                        dir.resolve("conf").toFile(),
                        Map.of(
                                "strata.commit.lock.jdbc.url",
                                "jdbc:h2:file:" + dir.resolve("locks").toAbsolutePath()))
                .getParentFile();
        String wh = s3.uri("cli");
        String[] gen = {
            "gen",
            "--warehouse",
            wh,
            "--table",
            "db.t",
            "--commits",
            "2",
            "--rows-per-commit",
            "50",
            "--key-space",
            "80",
            "--option",
            "write-only=true"
        };

        Result noJars = run(root, Map.of("HADOOP_CONF_DIR", conf.getPath()), gen);
        assertThat(noJars.exit).as(noJars.output).isNotZero();
        assertThat(noJars.output).contains("S3AFileSystem");

        Map<String, String> env = Map.of("HADOOP_CONF_DIR", conf.getPath(), "STRATA_CLASSPATH", s3Jars());
        Result written = run(root, env, gen);
        assertThat(written.exit).as(written.output).isZero();
        Result scan = run(root, env, "scan", "--warehouse", wh, "--table", "db.t", "--count");
        assertThat(scan.exit).as(scan.output).isZero();

        FileStoreTable t = Catalog.open(wh, s3.configuration()).getTable("db.t");
        assertThat(t.snapshotManager().latestId()).hasValue(2);
        int rows = TestTables.scan(t).size();
        assertThat(rows).isPositive();
        assertThat(scan.output).contains("live_rows=" + rows);

        Result badConf = run(
                root,
                Map.of("HADOOP_CONF_DIR", dir.resolve("nope").toString()),
                "scan",
                "--warehouse",
                wh,
                "--table",
                "db.t",
                "--count");
        assertThat(badConf.exit).isEqualTo(2);
        assertThat(badConf.output).contains("HADOOP_CONF_DIR=" + dir.resolve("nope") + " is not a directory");
    }

    /** root/bin/strata, root/cli/target/strata-cli.jar and root/cli/target/lib/*.jar (the runtime class path). */
    private Path layout() throws IOException {
        Path root = dir.resolve("strata");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path script =
                Files.copy(Path.of(System.getProperty("strata.repo.root"), "bin", "strata"), bin.resolve("strata"));
        script.toFile().setExecutable(true);
        Path target = Files.createDirectories(root.resolve("cli/target"));
        jar(Path.of(System.getProperty("strata.cli.classes")), target.resolve("strata-cli.jar"));
        Path lib = Files.createDirectories(target.resolve("lib"));
        int n = 0;
        for (String entry : System.getProperty("strata.cli.runtime.classpath").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            Path name =
                    lib.resolve(String.format("%03d-%s", n++, p.getFileName() + (Files.isDirectory(p) ? ".jar" : "")));
            if (Files.isDirectory(p)) {
                jar(p, name); // a module of this reactor, not packaged yet
            } else {
                Files.createSymbolicLink(name, p.toAbsolutePath());
            }
        }
        return root;
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream j = new JarOutputStream(out);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        }
    }

    /** hadoop-aws, the AWS SDK bundle and the analytics accelerator: what bin/fetch-s3-jars copies. */
    private static String s3Jars() throws Exception {
        List<String> jars = new ArrayList<>();
        for (String cls : List.of(
                "org.apache.hadoop.fs.s3a.S3AFileSystem",
                "software.amazon.awssdk.services.s3.S3Client",
                "software.amazon.s3.analyticsaccelerator.S3SeekableInputStreamFactory")) {
            jars.add(Path.of(Class.forName(cls)
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString());
        }
        return String.join(File.pathSeparator, jars);
    }

    private Result run(Path root, Map<String, String> extraEnv, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of("bash", root.resolve("bin/strata").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.remove("HADOOP_CONF_DIR");
        env.remove("STRATA_CLASSPATH");
        env.put("PATH", new File(System.getProperty("java.home"), "bin") + File.pathSeparator + env.get("PATH"));
        env.put("STRATA_JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        env.putAll(new HashMap<>(extraEnv));
        File log = dir.resolve("run-" + UUID.randomUUID() + ".log").toFile();
        pb.redirectOutput(log);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/strata " + String.join(" ", args) + " did not finish; output:\n"
                    + Files.readString(log.toPath()));
        }
        return new Result(p.exitValue(), Files.readString(log.toPath(), StandardCharsets.UTF_8));
    }
}
