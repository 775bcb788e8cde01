package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HadoopFileIO#replace} on file systems whose rename answers false: HDFS's for an existing
 * target, which replace handles by deleting the target and renaming again, and a store that also
 * refuses the second rename, which must fail the replace rather than report a hint or a whole file
 * that was never moved in.
 */
class HadoopReplaceTest {
    @TempDir
    java.nio.file.Path dir;

    /** The local file system with HDFS's rename (false, nothing moved, when the target exists), or refusing every rename. */
    static final class FalseRenameFileSystem extends RawLocalFileSystem {
        final AtomicInteger renames = new AtomicInteger();
        volatile boolean refuseAll;

        @Override
        public boolean rename(Path src, Path dst) throws IOException {
            renames.incrementAndGet();
            if (refuseAll || exists(dst)) {
                return false;
            }
            return super.rename(src, dst);
        }
    }

    private FalseRenameFileSystem fs;
    private HadoopFileIO io;

    @BeforeEach
    void setUp() throws IOException {
        Configuration conf = new Configuration();
        fs = new FalseRenameFileSystem();
        fs.initialize(URI.create("file:///"), conf);
        io = new HadoopFileIO(fs, conf);
    }

    private Path path(String name) {
        return new Path(dir.resolve(name).toUri());
    }

    @Test
    void aRenameThatReturnsFalseForAnExistingTargetIsRetriedAfterDeletingIt() throws Exception {
        Path hint = path("LATEST");
        io.overwriteHint(hint, "1");
        io.overwriteHint(hint, "2");
        assertThat(io.readUtf8(hint)).isEqualTo("2");
        assertThat(fs.renames.get())
                .as("one rename for the new hint, two for the replaced one")
                .isEqualTo(3);
        assertThat(dir.toFile().list()).containsExactly("LATEST");
    }

    @Test
    void aSecondRenameThatReturnsFalseFailsTheReplaceNamingBothPaths() throws Exception {
        Path hint = path("LATEST");
        io.overwriteHint(hint, "1");
        fs.refuseAll = true;
        fs.renames.set(0);
        assertThatThrownBy(() -> io.overwriteHint(hint, "2"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("rename returned false")
                .hasMessageContaining(hint.toString())
                .hasMessageContaining("LATEST");
        assertThat(fs.renames.get()).isEqualTo(2);
        assertThat(dir.toFile().list()).as("the temporary file is removed").noneMatch(n -> n.startsWith("."));

        Path whole = path("whole");
        assertThatThrownBy(() -> io.writeNewWhole(whole, "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(whole.toString());
        assertThat(Files.exists(dir.resolve("whole"))).isFalse();
    }
}
